// Running a public instance in the browser (docs/moderation.md): an administrator made from the
// command line while the server serves, a player reporting another from their profile, the
// administrator resolving it, suspending the player (whose open page is logged out at once and
// whose login then says why and until when), making an invite that a newcomer registers with,
// and the audit log. The real server binary and Debian's chromium; nothing sleeps.
//
//   node tests/web/moderation.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('moderation');
const step = (text) => console.log(`--- ${text}`);
const PASSWORD = 'correct horse battery';

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];

const newPage = (label, options = {}) =>
  openPage(browser, failures, label, { locale: 'en-GB', expected: /40[013]|429/, ...options });
const register = (page, name) => registerIn(page, url, name, PASSWORD);
async function logIn(page, name) {
  await page.goto(`${url}/#/login`);
  await page.fill('#login-username', name);
  await page.fill('#login-password', PASSWORD);
  await page.click('form.login button[type=submit]');
}

try {
  step('three players register; one is made an administrator from the command line while serving');
  const root = await newPage('root');
  const victim = await newPage('victim');
  const troll = await newPage('troll');
  await register(root, 'root');
  await register(victim, 'victim');
  await register(troll, 'troll');
  assert.equal(await root.locator('#nav-admin').isHidden(), true, 'no Admin link before');
  const said = execFileSync(serverBinary, ['--database', join(dir, 'tengen.sqlite3'), '--make-admin', 'root'], { encoding: 'utf8' });
  assert.match(said, /root is now an administrator/);
  await root.reload();
  await root.locator('#nav-admin').waitFor();
  assert.equal(await victim.locator('#nav-admin').isHidden(), true);
  await victim.goto(`${url}/#/admin`);
  await victim.locator('.card', { hasText: 'Only the server\'s administrators' }).waitFor();

  step('in a game, the troll insults; the administrator deletes the line for everyone');
  const { challenge } = await command(troll, { type: 'create_challenge', opponent: 'victim', settings: { width: 9, color: 'black' } });
  const { game } = await command(victim, { type: 'accept_challenge', challenge });
  for (const page of [troll, victim, root]) await page.goto(`${url}/#/game/${game}`);
  await troll.fill('.chat-form input', 'you are hopeless');
  await troll.press('.chat-form input', 'Enter');
  const insult = victim.locator('.chat-line', { hasText: 'you are hopeless' });
  await insult.waitFor();
  assert.equal(await insult.locator('.delete-line').count(), 0, 'a player has no delete button');
  const seen = root.locator('.chat-line', { hasText: 'you are hopeless' });
  await seen.waitFor();
  root.once('dialog', (d) => d.accept());
  await seen.locator('.delete-line').click();
  await victim.locator('.chat-line .chat-deleted', { hasText: 'message deleted by an administrator' }).waitFor();
  assert.equal(await victim.locator('.chat-line', { hasText: 'you are hopeless' }).count(), 0);
  await troll.locator('.chat-line .chat-deleted').waitFor();
  await victim.screenshot({ path: join(artifacts, 'moderation-chat-deleted.png') });
  await victim.reload();
  await victim.locator('.chat-line .chat-deleted').waitFor();
  assert.equal(await victim.locator('.chat-line', { hasText: 'you are hopeless' }).count(), 0, 'gone from the snapshot');

  step('the administrator annuls the game from its page; the players see it');
  await root.locator('details.admin-tools summary').click();
  await root.fill('#admin-game-reason', 'insults');
  await root.locator('details.admin-tools button', { hasText: 'Annul the game' }).click();
  await victim.locator('text=annulled by an administrator').first().waitFor();
  await root.screenshot({ path: join(artifacts, 'moderation-annulled.png') });

  step('the victim reports the troll from the troll\'s profile');
  await victim.goto(`${url}/#/user/troll`);
  await victim.click('.profile-actions button.danger-quiet');
  const dialog = victim.locator('dialog.report-dialog');
  await dialog.waitFor();
  await assertAccessible(victim, 'the report dialog');
  await dialog.locator('#report-category').selectOption('harassment');
  await dialog.locator('#report-text').fill('Insults after every game we play.');
  await victim.screenshot({ path: join(artifacts, 'moderation-report-dialog.png') });
  await dialog.locator('button[type=submit]').click();
  await victim.locator('.toast.info', { hasText: 'the administrators will look at your report on troll' }).waitFor();
  await dialog.waitFor({ state: 'detached' });

  step('the victim blocks the troll, and finds the block on their own page');
  const block = victim.locator('.profile-actions button[aria-pressed]');
  await victim.locator('.profile-actions button[aria-pressed=false]', { hasText: 'Block' }).waitFor();
  await block.click();
  await victim.locator('.toast.info', { hasText: 'You block troll now' }).waitFor();
  await victim.locator('.profile-actions button[aria-pressed=true]', { hasText: 'Unblock' }).waitFor();
  await victim.goto(`${url}/#/user/victim`);
  await victim.locator('.blocked-list li', { hasText: 'troll' }).waitFor();
  await victim.screenshot({ path: join(artifacts, 'moderation-blocked-list.png') });

  step('the administrator sees it in the queue and resolves it with a note');
  await root.click('#nav-admin');
  const report = root.locator('article.report').first();
  await report.locator('.report-text', { hasText: 'Insults after every game we play.' }).waitFor();
  assert.match(await report.innerText(), /reported by victim/);
  await assertAccessible(root, 'the reports queue');
  await root.screenshot({ path: join(artifacts, 'moderation-reports.png') });
  await report.locator('input[id^=note-]').fill('Suspended for two days');
  await report.locator('button.primary', { hasText: 'Resolve' }).click();
  await root.locator('.muted.empty', { hasText: 'No reports here.' }).waitFor();
  await root.locator('#report-status').selectOption('resolved');
  await root.locator('article.report', { hasText: 'Handled by root' }).waitFor();

  step('the administrator suspends the troll, whose open page is logged out at once');
  await troll.goto(`${url}/#/`);
  await troll.locator('#net[data-state=open]').waitFor();
  await root.goto(`${url}/#/admin/users?q=tro`);
  const row = root.locator('article.admin-user[data-user=troll]');
  await row.waitFor();
  await row.locator('input[id^=reason-]').fill('insults in chat');
  await row.locator('select[id^=hours-]').selectOption('72');
  // Asked once more before it acts; dismissed, nothing happens.
  root.once('dialog', (d) => { assert.match(d.message(), /^Suspend troll for 72 hours\?/); d.dismiss(); });
  await row.locator('button', { hasText: 'Suspend' }).click();
  root.once('dialog', (d) => d.accept());
  await row.locator('button', { hasText: 'Suspend' }).click();
  await root.locator('article.admin-user[data-user=troll] .tag.warn', { hasText: 'suspended until' }).waitFor();
  // Their open page is told they are suspended and until when, not "log in again".
  await troll.locator('.toast', { hasText: /^Your account is suspended until .+\.$/ }).waitFor();
  await troll.locator('.login-link').waitFor();
  await logIn(troll, 'troll');
  const refusal = await troll.locator('form.login .form-error').filter({ hasText: 'suspended' }).innerText();
  assert.match(refusal, /Your account is suspended until .*\. Reason: insults in chat/);
  await troll.screenshot({ path: join(artifacts, 'moderation-suspended-login.png') });

  step('the troll\'s row keeps the history of what was done to them');
  await root.goto(`${url}/#/admin/users?q=troll`);
  const trollRow = root.locator('article.admin-user[data-user=troll]');
  await trollRow.locator('details.history summary').click();
  await trollRow.locator('.user-history li', { hasText: 'insults in chat' }).waitFor();
  await trollRow.screenshot({ path: join(artifacts, 'moderation-user-history.png') });

  step('a password reset is shown once to the administrator');
  await root.goto(`${url}/#/admin/users?q=victim`);
  await root.locator('article.admin-user[data-user=victim] button', { hasText: 'Reset password' }).click();
  const shown = root.locator('article.admin-user[data-user=victim] .shown-once code.password');
  await shown.waitFor();
  const newPassword = await shown.innerText();
  assert.equal(newPassword.length, 14);

  step('an invite for a club; a newcomer registers through its link');
  await root.goto(`${url}/#/admin/invites`);
  await root.fill('#invite-note', 'Tuesday club');
  await root.fill('#invite-uses', '2');
  await root.click('.invite-form button[type=submit]');
  const invite = root.locator('table.invites tbody tr', { hasText: 'Tuesday club' });
  await invite.waitFor();
  const code = await invite.getAttribute('data-invite');
  assert.match(code, /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  await root.screenshot({ path: join(artifacts, 'moderation-invites.png') });
  const newcomer = await newPage('newcomer', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await newcomer.goto(`${url}/#/join/${code}`);
  assert.equal(await newcomer.inputValue('#register-invite'), code);
  await newcomer.locator('form.register p', { hasText: 'You are invited' }).waitFor();
  await assertAccessible(newcomer, 'registering with an invite on a phone');
  await newcomer.screenshot({ path: join(artifacts, 'moderation-join-phone.png') });
  await newcomer.fill('#register-username', 'clubmember');
  await newcomer.fill('#register-password', PASSWORD);
  await newcomer.click('form.register button[type=submit]');
  await newcomer.locator('.account .me', { hasText: 'clubmember' }).waitFor();
  await root.reload();
  await root.locator('table.invites tbody tr', { hasText: '1 / 2' }).waitFor();

  step('the audit log says who did what to whom, and why');
  await root.goto(`${url}/#/admin/audit`);
  const log = root.locator('table.audit tbody');
  await log.locator('tr').nth(6).waitFor();
  const lines = await log.locator('tr').allInnerTexts();
  assert.match(lines[0], /root\s+made an invite/);
  assert.match(lines[1], /root\s+reset the password\s+victim/);
  assert.match(lines[2], /root\s+suspended \(72 hours\)\s+troll\s+insults in chat/);
  assert.match(lines[3], /root\s+resolved a report .*troll\s+Suspended for two days/);
  assert.match(lines[4], /root\s+annulled a game\s+#\d+\s+insults/);
  assert.match(lines[5], /root\s+deleted a chat message \(message \d+\)\s+troll/);
  assert.match(lines[6], /the command line\s+made an administrator\s+root/);
  await assertAccessible(root, 'the audit log');
  await root.screenshot({ path: join(artifacts, 'moderation-audit.png') });
  const phone = await newPage('root-phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await logIn(phone, 'root');
  await phone.locator('.account .me', { hasText: 'root' }).waitFor();
  await phone.goto(`${url}/#/admin/users?q=troll`);
  await phone.locator('article.admin-user[data-user=troll]').waitFor();
  await assertAccessible(phone, 'the users page on a phone');
  await phone.screenshot({ path: join(artifacts, 'moderation-users-phone.png'), fullPage: true });

  assert.deepEqual(failures, []);
  console.log('moderation: all passed');
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}
