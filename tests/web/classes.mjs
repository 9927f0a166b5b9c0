// Classes in the browser (docs/classes.md): the real server binary; a teacher on a desktop makes a
// class of thirty in one step and gets thirty login cards (printed to a PDF); a student logs in with
// a card on a phone with touch, in Dutch, sees no outsider's challenge and cannot be challenged by
// one, and finishes a lesson of the course; the teacher's dashboard shows it; a round robin for the
// class starts in one click and the student's first game with it. Accessible; nothing sleeps.
//
//   node tests/web/classes.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('classes');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off', '--teachers', 'anyone'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', ...options });

const NAMES = ['Emma de Vries', 'Noah', 'Sara K.', 'Liam', 'Mila', 'Daan', 'Tess', 'Sem', 'Julia', 'Lucas',
  'Zoë', 'Finn', 'Nora', 'Levi', 'Yara', 'Milan', 'Evi', 'Jesse', 'Lotte', 'Thijs',
  'Fenna', 'Luuk', 'Saar', 'Bram', 'Roos', 'Sven', 'Isa', 'Ruben', 'Fleur', 'Jens'];

try {
  step('tess, a teacher, makes a class of thirty and gets their login cards');
  const tess = await newPage('tess');
  await registerIn(tess, url, 'tess');
  await tess.locator('nav a[data-nav=classes]', { hasText: 'Classes' }).click();
  await tess.locator('.class-list li', { hasText: 'No classes yet.' }).waitFor();
  await tess.fill('#class-name', 'Group 6B');
  await tess.fill('#class-students', NAMES.join('\n'));
  await tess.locator('.class-form .count', { hasText: '30 students of at most 60' }).waitFor();
  await assertAccessible(tess, 'a teacher\'s classes with the form for one');
  await tess.click('form.class-form button[type=submit]');
  await tess.waitForURL(/#\/class\/\d+\/cards$/);
  const id = Number(/#\/class\/(\d+)/.exec(tess.url())[1]);
  await tess.locator('.login-card').nth(29).waitFor();
  assert.equal(await tess.locator('.login-card').count(), 30);
  await tess.locator('.login-card .card-class', { hasText: 'Group 6B' }).first().waitFor();
  const emma = tess.locator('.login-card', { hasText: 'Emma de Vries' });
  const account = await emma.locator('dd code').nth(1).innerText();
  const password = await emma.locator('code.password').innerText();
  assert.equal(account, 'Emma-de-Vries');
  assert.match(password, /^[a-z]{4}-[a-z]{4}-[2-9]{2}$/);
  await assertAccessible(tess, 'the login cards');
  await tess.screenshot({ path: join(artifacts, 'class-cards.png'), fullPage: true });
  // Printed: A4 pages of cards, two across, without the site's header.
  await tess.emulateMedia({ media: 'print' });
  assert.equal(await tess.locator('header.topbar').isHidden(), true, 'no header on paper');
  await tess.setViewportSize({ width: 794, height: 1123 });  // A4 at 96 dpi
  await tess.screenshot({ path: join(artifacts, 'class-cards-print.png') });
  await tess.setViewportSize({ width: 1200, height: 900 });
  await tess.emulateMedia({ media: 'screen' });
  const pdf = await tess.pdf({ format: 'A4', printBackground: false });
  writeFileSync(join(artifacts, 'class-cards.pdf'), pdf);
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  assert.ok(pages >= 3 && pages <= 6, `thirty cards on a few A4 pages, not ${pages}`);

  step('olly, who is not in the class, offers a game to anyone');
  const olly = await newPage('olly');
  await registerIn(olly, url, 'olly');
  await command(olly, { type: 'create_challenge', settings: { width: 9, height: 9, color: 'black' } });

  step('Emma logs in with her card on a phone, in Dutch; she sees no outsider\'s challenge and cannot be challenged by one');
  const phone = await newPage('emma', { locale: 'nl-NL', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto(`${url}/#/login`);
  await phone.fill('#login-username', account);
  await phone.fill('#login-password', password);
  await phone.locator('form.login button[type=submit]').tap();
  await phone.locator('.account .me', { hasText: account }).waitFor();
  await phone.locator('nav a[data-nav=classes]', { hasText: 'Mijn klas' }).waitFor();
  await phone.locator('#net[data-state=open]').waitFor();
  await phone.locator('.lobby-challenges li.empty').waitFor();
  assert.equal(await phone.locator('.lobby-challenges li.challenge').count(), 0, 'olly\'s challenge is not shown to a student');
  await assert.rejects(command(olly, { type: 'create_challenge', opponent: account, settings: { width: 9, height: 9, color: 'black' } }),
    /student of a class/);
  await phone.locator('nav a[data-nav=classes]').tap();
  await phone.locator('.group-head h1', { hasText: 'Group 6B' }).waitFor();
  await phone.screenshot({ path: join(artifacts, 'class-student-phone-nl.png'), fullPage: true });

  step('Emma finishes the first lesson; her teacher\'s dashboard shows it');
  await phone.goto(`${url}/#/learn/liberties`);
  const exercise = phone.locator('[data-exercise="liberties.1"]');
  await exercise.locator('.board .stone').first().waitFor();
  const stored = phone.waitForResponse((r) => r.url().endsWith('/api/v1/me/course/liberties') && r.request().method() === 'PUT');
  await exercise.locator('[data-vertex="D2"]').tap();
  await exercise.locator('.exercise-feedback[data-state=solved]').waitFor();
  assert.equal((await stored).status(), 204, 'the finished lesson is kept on the server');
  await tess.goto(`${url}/#/class/${id}`);
  const row = tess.locator('.class-students tr', { hasText: 'Emma de Vries' });
  await row.locator('.lesson-progress span', { hasText: /^1 of \d+$/ }).waitFor();
  assert.match(await row.innerText(), /Emma-de-Vries/);
  assert.notEqual(await row.locator('td').nth(2).innerText(), 'never', 'she has been seen');
  await assertAccessible(tess, 'the class\'s dashboard');
  await tess.screenshot({ path: join(artifacts, 'class-dashboard.png'), fullPage: true });

  step('a round robin for the class in one click: Emma\'s first game starts');
  await tess.selectOption('#rr-size', '9');
  await tess.selectOption('#rr-time', 'none');
  await tess.click('form.round-robin-form button[type=submit]');
  await tess.waitForURL(/#\/tournament\/\d+$/);
  await tess.locator('h1', { hasText: 'Round robin: Group 6B' }).waitFor();
  await phone.waitForURL(/#\/game\/\d+$/);
  await phone.locator('.game').waitFor();

  step('the cards were lost: new passwords for the whole class in one click, thirty new cards');
  await tess.goto(`${url}/#/class/${id}`);
  tess.once('dialog', (d) => d.accept());
  await tess.locator('.class-head button', { hasText: 'New passwords for the whole class' }).click();
  await tess.waitForURL(/#\/class\/\d+\/cards$/);
  await tess.locator('.login-card').nth(29).waitFor();
  const renewed = await tess.locator('.login-card', { hasText: 'Emma de Vries' }).locator('code.password').innerText();
  assert.notEqual(renewed, password, 'Emma has a new password');

  assert.deepEqual(failures, []);
  console.log('classes: ok');
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}
