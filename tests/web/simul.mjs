// A simul in the browser (docs/events.md, "Simuls"): the real server binary; sensei announces a
// 5-board simul on a desktop; five players join from their pages (one on a phone in Dutch);
// sensei starts it and stays on the simul's page while the players' pages go to their games. The
// players move (over their own WebSockets, as any client may); sensei plays every board from the
// one page with "Next board", which always goes to the next board waiting for a move, the strip
// of small live boards saying which wait; the same page on sensei's phone fits its width. A
// spectator on a phone sees all five boards at once, live. The first moves have more than a
// minute. Three players resign, sensei resigns two boards: the results table says 3 won, 2 lost,
// and the simul is finished. Accessible; nothing sleeps.
//
//   node tests/web/simul.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('simul');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', ...options });
const waiting = (n) => `${n} ${n === 1 ? 'board waits' : 'boards wait'} for your move`;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

try {
  step('sensei announces a 5-board simul on 9×9, even games');
  const sensei = await newPage('sensei');
  await registerIn(sensei, url, 'sensei');
  await sensei.click('nav a[data-nav=simuls]');
  await sensei.locator('.simul-list .empty').waitFor();
  await sensei.locator('details.simul-new summary').click();
  await sensei.fill('#sf-name', 'Friday simul');
  await sensei.selectOption('#sf-size', '9');
  await sensei.selectOption('#sf-time', 'none');
  await sensei.selectOption('#sf-handicap', '0');
  // The form keeps the boards to 2–30; the server says so in words to a program that does not.
  const refused = await sensei.evaluate(async () => {
    const r = await fetch('/api/v1/simuls', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'x', boards: 31, settings: {} }) });
    return [r.status, (await r.json()).error.message];
  });
  assert.deepEqual(refused, [400, "field 'boards' must be a whole number from 2 to 30"]);
  await sensei.fill('#sf-boards', '5');
  await sensei.click('form.simul-form button[type=submit]');
  await sensei.waitForURL(/#\/simul\/\d+$/);
  const simulUrl = sensei.url();
  const simul = Number(/#\/simul\/(\d+)/.exec(simulUrl)[1]);
  await sensei.locator('.simul-head h1', { hasText: 'Friday simul' }).waitFor();
  assert.equal(await sensei.locator('.simul-head button', { hasText: 'Start with 0 players' }).isDisabled(), true);
  await sensei.locator('.simul-head', { hasText: 'a simul starts with at least 2 players' }).waitFor();

  step('five players join; the host sees them as they come');
  const players = [];
  for (const [i, name] of ['amy', 'ben', 'cat', 'dan', 'eva'].entries()) {
    const page = await newPage(name, i === 0 ? { ...phone, locale: 'nl-NL' } : {});
    await registerIn(page, url, name);
    await page.goto(simulUrl);
    const join = page.locator('.simul-head button', { hasText: i === 0 ? 'Meedoen' : 'Join the simul' });
    if (i === 0) await join.tap(); else await join.click();
    await page.locator('.simul-head .simul-joined', { hasText: i === 0 ? 'Je doet mee' : 'You have joined' }).waitFor();
    players.push({ name, page });
  }
  const sixth = await newPage('fay', { expected: /40[019]/ });  // the simul is full: 409
  await registerIn(sixth, url, 'fay');
  await sixth.goto(simulUrl);
  await sixth.locator('.simul-head button', { hasText: 'Join the simul' }).click();
  await sixth.locator('.simul-page .form-error', { hasText: 'the simul has 5 players, as many as its boards' }).waitFor();
  await sensei.locator('.simul-table tbody tr').nth(4).waitFor();  // read again while players join
  await sensei.locator('.simul-head', { hasText: '5 of 5 players' }).waitFor();
  await players[0].page.screenshot({ path: join(artifacts, 'simul-joined-phone-nl.png'), fullPage: true });
  await assertAccessible(sensei, 'an open simul, for its host');

  step('sensei starts it: the players go to their games, sensei stays with every board');
  await sensei.locator('.simul-head button', { hasText: 'Start with 5 players' }).click();
  const games = [];
  for (const p of players) {
    await p.page.waitForURL(/#\/game\/\d+$/);
    p.game = Number(/#\/game\/(\d+)/.exec(p.page.url())[1]);
    games.push(p.game);
  }
  assert.equal(new Set(games).size, 5, 'one game each');
  // The first moves of a 5-board simul are due within 60 s + 4 × 20 s, not an ordinary game's 60 s.
  const countdown = await players[1].page.locator('.first-move', { hasText: 'Make your first move within' }).innerText();
  const due = Number(/within (\d+) s/.exec(countdown)[1]);
  assert.ok(due > 100 && due <= 140, countdown);
  assert.match(sensei.url(), /#\/simul\/\d+$/, 'the host stays on the simul');
  await sensei.locator('.simul-strip .simul-tile').nth(4).waitFor();
  await sensei.locator('.simul-switcher', { hasText: '0 boards wait for your move' }).waitFor();

  step('a spectator on a phone sees all five boards at once');
  const watcher = await newPage('watcher', phone);
  await watcher.goto(simulUrl);
  await watcher.locator('.simul-grid a.simul-tile').nth(4).waitFor();

  step('the players move; sensei plays every board with "Next board"');
  const blackMoves = ['E5', 'C3', 'G7', 'C7', 'G3'];
  for (const [i, p] of players.entries()) await command(p.page, { type: 'play', game: p.game, vertex: blackMoves[i] });
  await sensei.locator('.simul-switcher', { hasText: '5 boards wait for your move' }).waitFor();
  await watcher.locator(`.simul-grid a[data-game="${games[2]}"] [data-stone="G7"]`).waitFor();  // live, small
  const whiteMoves = ['D4', 'F6', 'E5', 'D6', 'F4'];
  const shown = async () => Number(await sensei.locator('.simul-game').getAttribute('data-game'));
  const seen = [];
  for (let k = 0; k < 5; k++) {
    if (k > 0) await sensei.locator('button.simul-next').click();
    await sensei.locator('.simul-game .board [data-vertex]').first().waitFor();
    const game = await shown();
    assert.ok(!seen.includes(game), `"Next board" goes to a board not played yet (${game})`);
    seen.push(game);
    const i = games.indexOf(game);
    await sensei.locator(`.simul-game .board .stone.black[data-stone="${blackMoves[i]}"]`).waitFor();
    await sensei.click(`.simul-game .board [data-vertex="${whiteMoves[i]}"]`);
    await sensei.locator(`.simul-game .board .stone.white[data-stone="${whiteMoves[i]}"]`).waitFor();
    await sensei.locator('.simul-switcher', { hasText: waiting(4 - k) }).waitFor();
    if (k === 1) {
      await sensei.screenshot({ path: join(artifacts, 'simul-host.png'), fullPage: true });
      await assertAccessible(sensei, 'a simul in play, for its host');
    }
  }
  assert.equal(await sensei.locator('button.simul-next').isDisabled(), true, 'no board waits');
  for (const [i, p] of players.entries()) await p.page.locator(`.board .stone.white[data-stone="${whiteMoves[i]}"]`).waitFor();

  step('one player moves again: that board waits, and "Next board" goes straight to it');
  await command(players[3].page, { type: 'play', game: players[3].game, vertex: 'B2' });
  await sensei.locator(`.simul-strip .simul-tile.waiting[data-game="${players[3].game}"]`).waitFor();
  await sensei.locator('button.simul-next').click();
  await sensei.locator(`.simul-game[data-game="${players[3].game}"] .board .stone.black[data-stone="B2"]`).waitFor();
  await sensei.click('.simul-game .board [data-vertex="H8"]');
  await sensei.locator('.simul-switcher', { hasText: '0 boards wait for your move' }).waitFor();
  await watcher.screenshot({ path: join(artifacts, 'simul-watcher-phone.png'), fullPage: true });
  await assertAccessible(watcher, 'a simul in play, for a spectator on a phone');

  step('sensei looks on a phone too, in German: the strip scrolls sideways, the page does not');
  const pocket = await newPage('sensei-phone', { ...phone, locale: 'de-DE' });
  await pocket.goto(`${url}/#/login`);
  await pocket.fill('#login-username', 'sensei');
  await pocket.fill('#login-password', 'correct horse battery');
  await pocket.locator('form.login button[type=submit]').tap();
  await pocket.locator('#net[data-state=open]').waitFor();
  await pocket.goto(simulUrl);
  await pocket.locator('.simul-switcher', { hasText: '0 Bretter warten auf deinen Zug' }).waitFor();
  await pocket.locator('.simul-game .board [data-vertex]').first().waitFor();
  assert.equal(await pocket.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling on a phone');
  await pocket.screenshot({ path: join(artifacts, 'simul-host-phone-de.png'), fullPage: true });
  await assertAccessible(pocket, 'a simul in play, for its host on a phone');

  step('the games end: three players resign, sensei resigns two; the results table says so');
  for (const p of players.slice(0, 3)) await command(p.page, { type: 'resign', game: p.game });
  for (const p of players.slice(3)) await command(sensei, { type: 'resign', game: p.game });
  await sensei.locator('.simul-head .simul-state', { hasText: 'finished' }).waitFor();
  await sensei.locator('.simul-score', { hasText: 'sensei: 3 won, 2 lost, 0 still playing' }).waitFor();
  await watcher.goto(simulUrl);
  await watcher.locator('.simul-score', { hasText: 'sensei: 3 won, 2 lost' }).waitFor();
  const rows = await sensei.locator('.simul-table tbody tr').allInnerTexts();
  assert.equal(rows.length, 5);
  assert.match(rows[0], /amy/);
  assert.match(rows[0], /White wins by resignation/);
  assert.match(rows[4], /eva/);
  assert.match(rows[4], /Black wins by resignation/);
  await sensei.screenshot({ path: join(artifacts, 'simul-finished.png'), fullPage: true });
  await sensei.click('nav a[data-nav=simuls]');
  await sensei.locator(`.simul-row[data-simul="${simul}"][data-state=finished]`).waitFor();
  await sensei.locator('details.simul-new summary').click();
  await sensei.screenshot({ path: join(artifacts, 'simul-list.png'), fullPage: true });
  await assertAccessible(sensei, 'the simuls\' list with the form to announce one');

  assert.deepEqual(failures, []);
  console.log('simul: ok');
} finally {
  await browser.close();
  stopServer(server);
}
