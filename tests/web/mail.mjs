// E-mail in the browser (docs/mail.md), with the real server binary sending through a real SMTP
// server on loopback (tests/support/smtp_sink.py, Debian's python3-aiosmtpd) whose Maildir the test
// reads: an address given on one's own page and confirmed by the link mailed to it, the choices
// of what is mailed, "forgot your password?" on a phone with touch and the new password set from
// the mailed link, and a "your move" mail's unsubscribe link. The links in mails point to
// --public-url (http://tengen.test); the test opens them on the real server. Nothing sleeps: mails
// are waited for by watching the Maildir.
//
//   node tests/web/mail.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, unlinkSync, watch } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('mail');
const step = (text) => console.log(`--- ${text}`);
const publicUrl = 'http://tengen.test';

// The SMTP server, once it has written the port it listens on.
const maildir = join(dir, 'maildir');
const fresh = join(maildir, 'new');
const portFile = join(dir, 'smtp-port');
const sinkScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'smtp_sink.py');
const sink = spawn('/usr/bin/python3', [sinkScript, maildir, portFile], { stdio: ['ignore', 'inherit', 'inherit'] });
const smtpPort = await new Promise((resolve, reject) => {
  const watcher = watch(dir, () => {
    if (!existsSync(portFile)) return;
    watcher.close();
    resolve(Number(readFileSync(portFile, 'utf8')));
  });
  sink.on('exit', (code) => { watcher.close(); reject(new Error(`the SMTP sink exited (${code}): is python3-aiosmtpd installed?`)); });
});

// A received mail: headers and the body decoded from quoted-printable.
function parseMail(raw) {
  const text = raw.toString('latin1').replaceAll('\r\n', '\n');
  const split = text.indexOf('\n\n');
  const headers = {};
  for (const line of text.slice(0, split).split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && !/^\s/.test(line)) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 2);
  }
  const qp = text.slice(split + 2).replace(/=\n/g, '');
  const bytes = Buffer.from(qp.replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  return { headers, body: bytes.toString('utf8') };
}
// The next mail to `to` whose subject matches, taken out of the Maildir; waits for it by watching
// the folder (at most 20 s).
async function nextMail(to, subject) {
  mkdirSync(fresh, { recursive: true });
  const look = () => {
    for (const name of readdirSync(fresh).sort()) {
      const mail = parseMail(readFileSync(join(fresh, name)));
      if (mail.headers.to === to && subject.test(mail.headers.subject)) {
        unlinkSync(join(fresh, name));
        return mail;
      }
    }
    return null;
  };
  const found = look();
  if (found) return found;
  return new Promise((resolve, reject) => {
    const watcher = watch(fresh, () => {
      const mail = look();
      if (!mail) return;
      clearTimeout(timer);
      watcher.close();
      resolve(mail);
    });
    const timer = setTimeout(() => { watcher.close(); reject(new Error(`no mail to ${to} matching ${subject}`)); }, 20000);
  });
}
// A link in a mail, made to point at the real server.
const linkIn = (mail, path) => {
  const m = new RegExp(`${publicUrl.replace(/[./]/g, '\\$&')}(${path.replace(/[/]/g, '\\/')}[^\\s]*)`).exec(mail.body);
  assert.ok(m, `a link ${path} in:\n${mail.body}`);
  return m[1];
};

const { child: server, port } = await startServer({
  binary: serverBinary, webRoot, dir,
  extra: ['--bots', 'off', '--smtp-url', `smtp://127.0.0.1:${smtpPort}`, '--smtp-tls', 'none',
    '--mail-from', 'Tengen <go@example.org>', '--public-url', publicUrl],
});
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', expected: /40[0-9]/, ...options });

try {
  step('ann gives her address on her own page; nothing is sent to it before she confirms');
  const ann = await newPage('ann');
  await registerIn(ann, url, 'ann');
  await ann.goto(`${url}/#/user/ann`);
  const section = ann.locator('section.mail');
  await section.waitFor();
  await section.locator('.mail-status', { hasText: 'No address' }).waitFor();
  assert.equal(await ann.isDisabled('#mail-digest'), true, 'no choices without an address');
  await ann.fill('#mail-address', 'not an address');
  await ann.click('.mail-form button[type=submit]');
  await ann.locator('.mail-form:invalid').waitFor();  // the browser's own check first
  await ann.fill('#mail-address', 'ann@example.org');
  await ann.click('.mail-form button[type=submit]');
  await ann.locator('.toast', { hasText: 'A confirmation link is on its way to ann@example.org.' }).waitFor();
  await section.locator('.mail-status.pending', { hasText: 'Not confirmed yet: open the link mailed to ann@example.org.' }).waitFor();
  await ann.screenshot({ path: join(artifacts, 'mail-settings-unconfirmed.png'), fullPage: true });
  await assertAccessible(ann, 'one\'s own page with an unconfirmed address');

  step('the link mailed to her confirms it');
  const confirm = await nextMail('ann@example.org', /^Confirm your e-mail address for Tengen$/);
  assert.match(confirm.body, /^Hello ann,/);
  await ann.goto(`${url}${linkIn(confirm, '/#/mail/verify/')}`);
  await ann.locator('.mail-page', { hasText: 'ann@example.org is confirmed: Tengen may mail you there.' }).waitFor();
  await ann.screenshot({ path: join(artifacts, 'mail-confirmed.png') });
  await assertAccessible(ann, 'the confirmation page');
  await ann.click('text=Choose what is mailed to you');
  await section.locator('.mail-status', { hasText: 'Confirmed: mail goes to ann@example.org.' }).waitFor();
  await ann.check('#mail-digest');
  await ann.locator('.toast', { hasText: 'Your mail settings are saved.' }).waitFor();
  const settings = await ann.evaluate(() => fetch('/api/v1/me/mail').then((r) => r.json()));
  assert.deepEqual(settings.mail, { enabled: true, address: 'ann@example.org', verified: true, your_move: true, game_over: true, digest: true, your_move_minutes: 60 });
  await section.locator('label', { hasText: 'when it is my move in a correspondence game (at most one mail a game in 1 h)' }).waitFor();
  await ann.screenshot({ path: join(artifacts, 'mail-settings.png'), fullPage: true });

  step('a correspondence game: "your move" is mailed, and its link stops those mails');
  const bob = await newPage('bob');
  await registerIn(bob, url, 'bob');
  const created = await command(ann, { type: 'create_challenge', opponent: 'bob', settings: { width: 9, color: 'black', time: { system: 'correspondence', per_move_ms: 172800000 } } });
  await command(bob, { type: 'accept_challenge', challenge: created.challenge });
  const yourMove = await nextMail('ann@example.org', /^Your move against bob \(game \d+\)$/);
  assert.equal(yourMove.headers['list-unsubscribe-post'], 'List-Unsubscribe=One-Click');
  const guest = await newPage('guest', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await guest.goto(`${url}${linkIn(yourMove, '/#/unsubscribe/')}`);
  await guest.locator('.mail-page', { hasText: 'Unsubscribe from the mails saying it is your move?' }).waitFor();
  await guest.screenshot({ path: join(artifacts, 'mail-unsubscribe-phone.png') });
  await assertAccessible(guest, 'the unsubscribe page');
  await guest.locator('.mail-page button', { hasText: 'Unsubscribe' }).tap();
  await guest.locator('.mail-page', { hasText: 'Done: you are unsubscribed from the mails saying it is your move.' }).waitFor();
  const after = await ann.evaluate(() => fetch('/api/v1/me/mail').then((r) => r.json()));
  assert.equal(after.mail.your_move, false);
  assert.equal(after.mail.game_over, true);

  step('on a phone, "forgot your password?" mails a link that sets a new one and logs in');
  const phone = await newPage('ann-phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto(`${url}/#/login`);
  await phone.locator('button', { hasText: 'Forgot your password?' }).tap();
  await phone.fill('#reset-who', 'ann');
  await phone.locator('form.forgot button[type=submit]').tap();
  await phone.locator('form.forgot', { hasText: 'If that account has a confirmed address, a link is on its way.' }).waitFor();
  await phone.screenshot({ path: join(artifacts, 'mail-forgot-phone.png'), fullPage: true });
  await assertAccessible(phone, 'the login page with the reset form');
  const reset = await nextMail('ann@example.org', /^Reset your Tengen password$/);
  await phone.goto(`${url}${linkIn(reset, '/#/reset/')}`);
  await phone.fill('#reset-password', 'aaaaaaaaaa');
  await phone.locator('.mail-page button[type=submit]').tap();
  await phone.locator('.mail-page .form-error', { hasText: 'one character repeated' }).waitFor();
  await phone.fill('#reset-password', 'a brand new passphrase');
  await phone.screenshot({ path: join(artifacts, 'mail-reset-phone.png') });
  await phone.locator('.mail-page button[type=submit]').tap();
  await phone.locator('.account .me', { hasText: 'ann' }).waitFor();
  await phone.locator('.toast', { hasText: 'Your password is changed' }).waitFor();
  // The desktop's session ended with the reset.
  assert.equal(await ann.evaluate(() => fetch('/api/v1/me').then((r) => r.status)), 401);
  await phone.goto(`${url}${linkIn(reset, '/#/reset/')}`);
  await phone.fill('#reset-password', 'yet another passphrase');
  await phone.locator('.mail-page button[type=submit]').tap();
  await phone.locator('.mail-page .form-error', { hasText: 'not valid' }).waitFor();

  assert.deepEqual(failures, []);
  console.log('web mail: all steps passed');
} finally {
  await browser.close();
  await stopServer(server);
  sink.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
