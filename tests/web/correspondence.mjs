// Correspondence play in the browser (docs/correspondence.md): a new account takes the browser's
// time zone, one's own page changes it, a challenge of two days a move with weekends off made
// from the form, its clocks in days, the lobby's list of games waiting for one's move, on a
// desktop and a phone; a vacation, conditional moves, and a correspondence league. The real
// server binary and Debian's chromium; nothing sleeps.
//
//   node tests/web/correspondence.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('correspondence');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', ...options });
const me = (page) => page.evaluate(() => fetch('/api/v1/me').then((r) => r.json()).then((j) => j.user));

try {
  step('a new account takes the browser\'s time zone; one\'s own page changes it');
  const ann = await newPage('ann', { viewport: { width: 1280, height: 900 }, timezoneId: 'Pacific/Auckland' });
  const bob = await newPage('bob', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, timezoneId: 'Europe/Amsterdam' });
  await registerIn(ann, url, 'ann');
  await registerIn(bob, url, 'bob');
  assert.equal((await me(ann)).time_zone, 'Pacific/Auckland');
  assert.equal((await me(bob)).time_zone, 'Europe/Amsterdam');
  await ann.goto(`${url}/#/user/ann`);
  const zone = ann.locator('#time-zone');
  await zone.waitFor();
  assert.equal(await zone.inputValue(), 'Pacific/Auckland');
  await zone.selectOption('America/New_York');
  await ann.locator('.toast', { hasText: 'Your time zone is now America/New York.' }).waitFor();
  assert.equal((await me(ann)).time_zone, 'America/New_York');
  await ann.locator('.time-zone', { hasText: 'This device says Pacific/Auckland.' }).waitFor();
  await assertAccessible(ann, 'one\'s own page with the time zone');

  step('ann challenges bob to a correspondence game: two days a move, no bank, weekends off');
  await ann.goto(`${url}/#/`);
  await ann.selectOption('#cf-size', '9');
  await ann.selectOption('#cf-time', 'correspondence');
  await ann.fill('#cf-per_move_ms', '2');
  await ann.fill('#cf-max_ms', '0');
  assert.equal(await ann.isChecked('#cf-weekends_off'), true, 'weekends off by default');
  await ann.selectOption('#cf-color', 'black');
  await ann.fill('#cf-opponent', 'bob');
  await ann.screenshot({ path: join(artifacts, 'correspondence-form.png') });
  await ann.click('form.challenge-form button[type=submit]');
  const offer = bob.locator('li.challenge.for-me');
  await offer.waitFor();
  assert.match(await offer.innerText(), /2 days per move, weekends off/);
  await offer.locator('button', { hasText: 'Accept' }).tap();

  step('the game\'s clocks are in days; the first move is in');
  await bob.locator('.game').waitFor();
  await ann.locator('.game').waitFor();
  const game = Number(/#\/game\/(\d+)/.exec(ann.url())[1]);
  await ann.locator('.player.black .clock', { hasText: '2 days' }).waitFor();
  await ann.locator('.player.white .clock', { hasText: '+ 2 days/move' }).waitFor();
  // Two days of her clock: a weekend (New York's) in them makes it up to four on the calendar.
  await ann.locator('.first-move', { hasText: /^Make your first move within ([234] days|[1-4] d \d+ h), or the game is cancelled\.$/ }).waitFor();
  await command(ann, { type: 'play', game, vertex: 'E5' });
  await bob.locator('.board .stone.black[data-stone="E5"]').waitFor();
  await bob.screenshot({ path: join(artifacts, 'correspondence-game-phone.png') });

  step('the lobby lists the games waiting for one\'s move, and the others');
  await bob.goto(`${url}/#/`);
  const mine = bob.locator('.lobby-mine li[data-game]');
  await mine.locator('.tag.turn', { hasText: 'Your move' }).waitFor();
  assert.match(await mine.innerText(), /against ann.*9×9 · 2 days per move, weekends off.*2 days left/s);
  assert.ok(await bob.locator('.lobby-mine').evaluate((el) => el.getBoundingClientRect().top < innerHeight), 'the list is in view on a phone');
  await assertAccessible(bob, 'the lobby with one\'s games, on a phone');
  await bob.screenshot({ path: join(artifacts, 'correspondence-lobby-phone.png') });
  await ann.goto(`${url}/#/`);
  const hers = ann.locator('.lobby-mine li[data-game]');
  await hers.waitFor();
  assert.match(await hers.innerText(), /against bob.*bob's move · 2 days left/s);
  assert.equal(await hers.locator('.tag.turn').count(), 0);
  await ann.screenshot({ path: join(artifacts, 'correspondence-lobby.png') });

  step('bob takes a vacation from his page: his clock stands still, for ann too');
  await command(bob, { type: 'play', game, vertex: 'C3' });
  await command(ann, { type: 'play', game, vertex: 'G5' });
  await bob.goto(`${url}/#/user/bob`);
  const vacation = bob.locator('section.vacation');
  await vacation.locator('.vacation-status', { hasText: /^You have 7 days of vacation\.$/ }).waitFor();
  await bob.locator('#vacation-toggle', { hasText: 'Start vacation' }).tap();
  await bob.locator('.toast', { hasText: 'Your correspondence clocks stand still until you come back.' }).waitFor();
  await vacation.locator('.vacation-status', { hasText: /^On vacation until .+ \(7 days left\)\.$/ }).waitFor();
  assert.equal((await me(bob)).vacation.until_ms > Date.now(), true);
  await assertAccessible(bob, 'one\'s own page on vacation, on a phone');
  await bob.screenshot({ path: join(artifacts, 'correspondence-vacation-phone.png'), fullPage: true });
  await bob.goto(`${url}/#/game/${game}`);
  await bob.locator('.player.white .clock', { hasText: 'vacation: stopped' }).waitFor();
  await ann.goto(`${url}/#/game/${game}`);
  await ann.locator('.player.white .clock', { hasText: 'vacation: stopped' }).waitFor();
  await ann.screenshot({ path: join(artifacts, 'correspondence-opponent-away.png') });

  step('bob comes back: the days he did not use are kept, and his clock runs');
  await bob.goto(`${url}/#/user/bob`);
  await bob.locator('#vacation-toggle', { hasText: 'End vacation' }).tap();
  await bob.locator('.toast', { hasText: 'Welcome back: your correspondence clocks run again.' }).waitFor();
  await vacation.locator('.vacation-status', { hasText: /^You have (7 days|6 d 23 h) of vacation\.$/ }).waitFor();
  await ann.reload();
  // His clock runs again, or stands for his weekend if it is Saturday or Sunday in Amsterdam as
  // the test runs (the server's clock is the real one): no longer for a vacation.
  await ann.locator('.player.white .clock', { hasText: /\+ 2 days\/move|weekend: stopped/ }).waitFor();

  step('ann plans replies to bob\'s next moves: clicked on the board, or typed; a refusal says why');
  const plan = ann.locator('section.conditional');
  await plan.locator('.conditional-none', { hasText: 'None set.' }).waitFor();
  await ann.click('#conditional-plan');
  await ann.locator('.board [data-vertex="C7"]').click();
  await ann.locator('.board [data-vertex="D7"]').click();
  assert.equal(await ann.inputValue('#conditional-line'), 'C7 D7');
  // The line is drawn as it grows: bob's move 1 (white), her reply 2 (black).
  await ann.locator('.board .stone.white[data-stone="C7"]').waitFor();
  await ann.locator('.board [data-label="1 C7"]').waitFor();
  await ann.locator('.board .stone.black[data-stone="D7"]').waitFor();
  await ann.locator('.board [data-label="2 D7"]').waitFor();
  await ann.screenshot({ path: join(artifacts, 'correspondence-conditional-planning.png') });
  await plan.locator('button', { hasText: 'Add line' }).click();
  await plan.locator('.conditional-lines li', { hasText: 'C7 → D7' }).waitFor();
  assert.equal(await ann.locator('.board [data-stone="C7"]').count(), 0, 'planned, not played: gone from the board');
  await ann.click('#conditional-plan');
  await ann.fill('#conditional-line', 'c3 d4');
  await plan.locator('button', { hasText: 'Add line' }).click();
  await plan.locator('.form-error', { hasText: 'occupied: there is already a stone on C3' }).waitFor();
  await ann.fill('#conditional-line', 'H7 H6 J6 J5');
  await plan.locator('button', { hasText: 'Add line' }).click();
  await plan.locator('.conditional-lines li', { hasText: 'H7 → H6, J6 → J5' }).waitFor();
  await ann.screenshot({ path: join(artifacts, 'correspondence-conditional.png') });
  await assertAccessible(ann, 'a game with conditional moves planned');

  step('bob plays the move ann expected: her reply is on the board at once, the rest waits');
  await command(bob, { type: 'play', game, vertex: 'H7' });
  await ann.locator('.board .stone.black[data-stone="H6"]').waitFor();
  await plan.locator('.conditional-lines li', { hasText: /^J6 → J5/ }).waitFor();
  assert.equal(await plan.locator('.conditional-lines li').count(), 1, 'C7 was not played: that line is gone');
  await ann.locator('.player.white.clock-running, .player.white .clock', { hasText: '2 days' }).first().waitFor();

  step('bob, on a phone, plans his own once he has moved');
  await command(bob, { type: 'play', game, vertex: 'E3' });
  await plan.locator('.conditional-none', { hasText: 'None set.' }).waitFor();  // not J6: dropped
  await plan.locator('.conditional-when', { hasText: 'You can plan replies once you have moved.' }).waitFor();
  assert.equal(await ann.locator('#conditional-plan').isVisible(), false, 'her move: nothing to plan');
  await bob.goto(`${url}/#/game/${game}`);
  const his = bob.locator('section.conditional');
  await bob.locator('#conditional-plan').tap();
  await bob.fill('#conditional-line', 'D4 C4');
  await his.locator('button', { hasText: 'Add line' }).tap();
  await his.locator('.conditional-lines li', { hasText: 'D4 → C4' }).waitFor();
  await bob.evaluate(() => document.querySelectorAll('.toast').forEach((el) => el.remove()));  // the vacation's
  await his.scrollIntoViewIfNeeded();
  await assertAccessible(bob, 'conditional moves on a phone');
  await bob.screenshot({ path: join(artifacts, 'correspondence-conditional-phone.png') });
  await his.locator('button', { hasText: 'Clear all' }).tap();
  await his.locator('.conditional-none').waitFor();

  step('ann directs a correspondence league, all rounds at once, whose vacations do not stop the clocks');
  await ann.goto(`${url}/#/tournaments`);
  const tf = ann.locator('form.tournament-form');
  await tf.locator('#tf-name').fill('Winter league');
  await tf.locator('#tf-system').selectOption('round_robin');
  await tf.locator('#tf-size').selectOption('9');
  assert.equal(await tf.locator('#tf-vacations').isVisible(), false, 'a live clock: no pause policy');
  await tf.locator('#tf-time').selectOption('correspondence');
  await tf.locator('#tf-per_move_ms').fill('3');
  await tf.locator('#tf-vacations').uncheck();
  await tf.locator('#tf-together').check();
  await ann.screenshot({ path: join(artifacts, 'correspondence-league-form.png') });
  await tf.locator('button[type=submit]').click();
  await ann.waitForURL(/#\/tournament\/\d+$/);
  await ann.locator('.tournament-head', { hasText: 'Round robin · 9×9 · Japanese · komi 6.5 · 3 days per move, up to 10 days, weekends off' }).waitFor();
  await ann.locator('.tournament-pauses', { hasText: 'A league: all rounds are played at once. Vacations do not stop this tournament\'s clocks.' }).waitFor();
  await assertAccessible(ann, 'a correspondence league');

  assert.deepEqual(failures, []);
  console.log('correspondence: all passed');
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}
