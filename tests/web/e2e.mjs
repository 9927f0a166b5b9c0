// End-to-end test of the web client: the real server binary on a fresh SQLite file, Debian's
// chromium driven by playwright-core, three browser contexts (two players and a spectator).
//
//   node tests/web/e2e.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
//
// Every wait is for something to appear on the page (Playwright waits on the DOM); nothing
// sleeps. Screenshots of the lobby, a game in progress and the scoring phase go to ARTIFACT_DIR.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer as start, stopServer as stop, launchBrowser, browserTestArgs, assertAccessible } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('e2e');
const TIMEOUT_MS = 20000;

// ---- the server ----

let server = null;
let port = 0;

// Starts the server (on the same file each time) and resolves with its port once it listens.
async function startServer(fixedPort = 0) {
  const started = await start({ binary: serverBinary, webRoot, dir, port: fixedPort, extra: ['--bots', 'off'] });
  server = started.child;
  return started.port;
}

const stopServer = () => stop(server);

// ---- the browser ----

const browser = await launchBrowser();

async function newPlayer(label, viewport = { width: 1280, height: 860 }) {
  const context = await browser.newContext({ viewport, bypassCSP: true });  // axe is injected
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT_MS);
  page.on('pageerror', (e) => { console.error(`[${label}] page error: ${e.message}`); failures.push(`${label}: ${e.message}`); });
  page.on('console', (m) => { if (m.type() === 'error') console.error(`[${label}] console: ${m.text()}`); });
  return { label, context, page };
}

const failures = [];
const step = (text) => console.log(`--- ${text}`);

async function register(p, name) {
  await p.page.goto(`http://127.0.0.1:${port}/#/login`);
  await p.page.fill('#register-username', name);
  await p.page.fill('#register-password', 'correct horse battery');
  await p.page.click('form.register button[type=submit]');
  await p.page.locator('.account .me', { hasText: name }).waitFor();
  await p.page.locator('.lobby').waitFor();
  await p.page.locator('#net[data-state=open]').waitFor();
}

const stone = (p, vertex) => p.page.locator(`.board [data-stone="${vertex}"]`);
const waitStone = (p, vertex, color) => p.page.locator(`.board .stone.${color}[data-stone="${vertex}"]`).waitFor();
const waitGone = (p, vertex) => p.page.locator(`.board [data-stone="${vertex}"]`).waitFor({ state: 'detached' });
const statusIs = (p, text) => p.page.locator('.status', { hasText: text }).waitFor();

async function play(mover, vertex, color, watchers) {
  await mover.page.click(`.board [data-vertex="${vertex}"]`);
  for (const w of [mover, ...watchers]) await waitStone(w, vertex, color);
}

// Fills the challenge form (selects first, in order, then fields, then checkboxes) and sends it.
async function offer(p, { selects = {}, fields = {}, checks = [] }) {
  const form = p.page.locator('form.challenge-form');
  for (const [id, value] of Object.entries(selects)) await form.locator(`#cf-${id}`).selectOption(value);
  for (const [id, value] of Object.entries(fields)) await form.locator(`#cf-${id}`).fill(value);
  for (const id of checks) await form.locator(`#cf-${id}`).check();
  await form.locator('button[type=submit]').click();
}

async function pass(p) {
  await p.page.click('.controls button:has-text("Pass")');
}

async function toggleDead(p, vertex, everyone) {
  const before = await stone(p, vertex).getAttribute('class');
  const wasDead = before.includes('dead');
  const version = Number(await p.page.locator('.panel.scoring').getAttribute('data-version'));
  await p.page.click(`.board [data-vertex="${vertex}"]`);
  for (const w of everyone) {
    await w.page.locator(`.panel.scoring[data-version="${version + 1}"]`).waitFor();
    await w.page.locator(`.board .stone${wasDead ? ':not(.dead)' : '.dead'}[data-stone="${vertex}"]`).waitFor();
  }
  return !wasDead;
}

let exitCode = 0;
try {
  port = await startServer();
  const alice = await newPlayer('alice');
  const bob = await newPlayer('bob');
  const carol = await newPlayer('carol (spectator)', { width: 390, height: 844 });  // a phone

  step('two players register and reach the lobby');
  await register(alice, 'alice');
  await register(bob, 'bob');
  await alice.page.locator('.online li', { hasText: 'bob' }).waitFor();

  step('alice challenges: 9x9, Japanese, she takes Black, byo-yomi');
  await offer(alice, {
    selects: { size: '9', ruleset: 'japanese', color: 'black', time: 'byoyomi' },
    fields: { main_ms: '10', periods: '3', period_ms: '30' },
    checks: ['rated'],
  });
  const challenge = bob.page.locator('.challenge', { hasText: 'alice' });
  await challenge.waitFor();
  assert.match(await challenge.textContent(), /9×9.*Japanese.*komi 6\.5.*10 min \+ 3×30 s byo-yomi.*rated/);
  await challenge.locator('.rank', { hasText: '10k?' }).waitFor();  // a newcomer's provisional rank
  await bob.page.screenshot({ path: join(artifacts, 'lobby.png'), fullPage: true });

  step('a bad challenge is refused in plain words');
  await offer(alice, { selects: { size: 'other', handicap: '6', placement: 'fixed' }, fields: { width: '7', height: '7' } });
  await alice.page.locator('.form-error', { hasText: 'takes at most 4 fixed handicap stones' }).waitFor();

  step('bob accepts; both are taken to the game');
  await challenge.locator('button:has-text("Accept")').click();
  await alice.page.waitForURL(/#\/game\/\d+$/);
  await bob.page.waitForURL(/#\/game\/\d+$/);
  const gameUrl = alice.page.url();
  const gameId = Number(gameUrl.match(/(\d+)$/)[1]);
  await statusIs(alice, 'Your move.');
  await statusIs(bob, 'Black to move.');

  step('carol (on a phone) finds the game among those being played and watches');
  await register(carol, 'carol');
  await carol.page.locator('.live-games a', { hasText: 'alice vs bob' }).waitFor();
  await carol.page.screenshot({ path: join(artifacts, 'lobby-phone.png'), fullPage: true });
  await carol.page.locator('.live-games a', { hasText: 'alice vs bob' }).click();
  await carol.page.waitForURL(/#\/game\/\d+$/);
  await statusIs(carol, 'Black to move');
  assert.equal(await carol.page.locator('.controls').isHidden(), true);
  for (const p of [alice, bob, carol]) await p.page.locator('.game-head .watching', { hasText: '1 watching' }).waitFor();

  await alice.page.check('.game-head .sound input');  // a click on every move from now on
  const watchers = { alice: [bob, carol], bob: [alice, carol] };
  step('opening moves; a capture');
  await play(alice, 'D6', 'black', watchers.alice);
  await play(bob, 'E6', 'white', watchers.bob);
  await play(alice, 'C5', 'black', watchers.alice);
  await play(bob, 'F5', 'white', watchers.bob);
  await play(alice, 'D4', 'black', watchers.alice);
  await play(bob, 'E4', 'white', watchers.bob);

  step('bob asks for an undo; alice refuses');
  await bob.page.click('.controls button:has-text("Undo")');
  await alice.page.locator('.panel.undo', { hasText: 'White asks to take back' }).waitFor();
  await alice.page.click('.panel.undo button:has-text("Refuse")');
  await alice.page.locator('.panel.undo').waitFor({ state: 'hidden' });

  await play(alice, 'E5', 'black', watchers.alice);
  await bob.page.click('.board [data-vertex="D5"]');  // takes E5
  for (const p of [alice, bob, carol]) {
    await waitStone(p, 'D5', 'white');
    await waitGone(p, 'E5');
    await p.page.locator('.player.white .captures', { hasText: '1 prisoner' }).waitFor();
  }
  await alice.page.locator('.board [data-last="D5"]').waitFor();

  step('carol, watching, steps back a move and tries a variation; the game is not touched');
  const where = (p, text) => p.page.locator('[data-review=where]', { hasText: text }).waitFor();
  await carol.page.keyboard.press('ArrowLeft');
  await where(carol, 'Move 7 of 8 · Black E5');
  await waitStone(carol, 'E5', 'black');
  await carol.page.locator('.player.white .captures', { hasText: '0 prisoners' }).waitFor();
  await carol.page.click('.board [data-vertex="F6"]');  // White's move in her variation
  await where(carol, 'Variation from move 7: 1 move · White F6');
  await carol.page.locator('.board .stone.white[data-stone="F6"]').waitFor();
  await carol.page.locator('.board [data-label="1 F6"]').waitFor();
  await carol.page.click('.board [data-vertex="E5"]');  // occupied: the server says so (reason "occupied"), in words
  await carol.page.locator('.review-error', { hasText: 'There is already a stone there.' }).waitFor();
  assert.equal(await carol.page.locator('.toast').count(), 0, 'no toast for a variation');
  await carol.page.screenshot({ path: join(artifacts, 'analysis-phone-spectator.png'), fullPage: true });
  assert.equal(await stone(alice, 'F6').count(), 0, "the players' board is untouched");
  await carol.page.click('.variation-line button:has-text("Leave the variation")');
  await where(carol, 'Move 7 of 8');
  await carol.page.keyboard.press('End');
  await waitGone(carol, 'E5');
  await where(carol, 'Move 8 of 8 · White D5');
  await statusIs(alice, 'Your move.');

  step('chat between the players; the spectator writes to the spectators');
  await alice.page.fill('.chat-form input', 'Nice capture');
  await alice.page.press('.chat-form input', 'Enter');
  await bob.page.locator('.chat-line', { hasText: 'Nice capture' }).locator('time.chat-time').waitFor();  // said when
  await carol.page.locator('.chat-line', { hasText: 'Nice capture' }).waitFor();
  await carol.page.fill('.chat-form input', 'what a ko');
  await carol.page.press('.chat-form input', 'Enter');
  await carol.page.locator('.chat-line.chat-spectators', { hasText: 'what a ko' }).waitFor();

  step('the ko: alice may not take back at once; the server says why, under the board, not in a toast');
  await alice.page.click('.board [data-vertex="E5"]');
  await alice.page.locator('.board-hint', { hasText: 'ko' }).waitFor();
  assert.equal(await alice.page.locator('.toast').count(), 0, 'a refused move is no toast');
  await alice.page.click('.board [data-vertex="D5"]');  // taken: said at once, nothing sent
  await alice.page.locator('.board-hint', { hasText: 'D5 is taken' }).waitFor();
  await bob.page.click('.board [data-vertex="A1"]');  // not his move
  await bob.page.locator('.board-hint', { hasText: "It is alice's move" }).waitFor();
  assert.equal(await stone(alice, 'E5').count(), 0);
  await statusIs(alice, 'Your move.');
  await alice.page.screenshot({ path: join(artifacts, 'game.png'), fullPage: true });
  await carol.page.screenshot({ path: join(artifacts, 'game-phone-spectator.png'), fullPage: true });
  assert.equal(await bob.page.locator('.chat-line', { hasText: 'what a ko' }).count(), 0);

  step('bob reloads the page mid-game and carries on');
  await bob.page.reload();
  await waitStone(bob, 'D5', 'white');
  await bob.page.locator('.player.white .captures', { hasText: '1 prisoner' }).waitFor();
  await bob.page.locator('.chat-line', { hasText: 'Nice capture' }).waitFor();
  await play(alice, 'G3', 'black', watchers.alice);

  step('bob takes a move back, and this time alice allows it');
  await play(bob, 'H8', 'white', watchers.bob);
  await bob.page.click('.controls button:has-text("Undo")');
  await alice.page.click('.panel.undo button:has-text("Allow undo")');
  for (const p of [alice, bob, carol]) await waitGone(p, 'H8');
  await statusIs(bob, 'Your move.');
  await play(bob, 'C7', 'white', watchers.bob);

  step('the server goes away and comes back: the clients reconnect and resume');
  assert.equal(await stopServer(), 0);
  for (const p of [alice, bob, carol]) {
    await p.page.locator('#net[data-state=reconnecting]').waitFor();
    await p.page.locator('.game.stale').waitFor();
  }
  port = await startServer(port);
  for (const p of [alice, bob, carol]) {
    await p.page.locator('#net[data-state=open]').waitFor();
    await p.page.locator('.game:not(.stale)').waitFor();
  }
  await play(alice, 'G7', 'black', watchers.alice);

  step('two passes: the scoring phase');
  await pass(bob);
  await statusIs(alice, 'Your move.');
  // Said so that nobody misses it, to each in their words.
  await alice.page.locator('.panel.passed', { hasText: 'bob passed.' }).locator('text=If you pass too, the game ends').waitFor();
  await bob.page.locator('.panel.passed', { hasText: 'You passed.' }).waitFor();
  await alice.page.locator('.panel.passed').screenshot({ path: join(artifacts, 'opponent-passed.png') });
  await pass(alice);
  for (const p of [alice, bob, carol]) await p.page.locator('.panel.scoring').waitFor();
  await alice.page.locator('.player.black .clock-main').waitFor();
  // The passes and the count, in the chat between the lines.
  await carol.page.locator('.chat-line.chat-system', { hasText: 'bob passed.' }).waitFor();
  await carol.page.locator('.chat-line.chat-system', { hasText: 'Both passed: the players mark the dead stones and count.' }).waitFor();
  // The count in the rules' terms (Japanese: territory and prisoners), in players' words.
  await alice.page.locator('.panel.scoring .breakdown li', { hasText: /^Black: territory \d+ \+ prisoners \d+ = [\d.]+$/ }).waitFor();
  await alice.page.locator('.panel.scoring .breakdown li', { hasText: /^White: territory \d+ \+ prisoners \d+ \+ komi 6\.5 = [\d.]+$/ }).waitFor();
  assert.doesNotMatch(await alice.page.locator('.panel.scoring').textContent(), /version/);

  step('alice marks a group; bob disagrees and resumes play');
  await toggleDead(alice, 'C7', [alice, bob, carol]);
  await alice.page.screenshot({ path: join(artifacts, 'scoring.png'), fullPage: true });
  await bob.page.click('.scoring button:has-text("Resume play")');
  for (const p of [alice, bob, carol]) await p.page.locator('.panel.scoring').waitFor({ state: 'hidden' });
  await statusIs(alice, 'Your move.');  // Black moves: the opponent of the one who resumed
  // Why play goes on, not the stale "if you pass too, the game ends".
  await alice.page.locator('.panel.passed', { hasText: 'bob resumed play: they do not agree with the count.' }).waitFor();
  await bob.page.locator('.panel.passed', { hasText: 'You resumed play' }).waitFor();
  assert.doesNotMatch(await alice.page.locator('.panel.passed').innerText(), /If you pass too/);
  await alice.page.screenshot({ path: join(artifacts, 'resumed.png') });
  // After a reload too (the snapshot says no passes are in a row now).
  await bob.page.reload();
  await bob.page.locator('.panel.passed', { hasText: 'Play resumed: the count was not agreed.' }).waitFor();
  await play(alice, 'B7', 'black', watchers.alice);
  await alice.page.locator('.panel.passed').waitFor({ state: 'hidden' });
  await pass(bob);
  await statusIs(alice, 'Your move.');
  await pass(alice);
  for (const p of [alice, bob, carol]) await p.page.locator('.panel.scoring').waitFor();

  step('they agree: C7 dead, both accept, everyone sees the same result');
  const c7dead = (await stone(alice, 'C7').getAttribute('class')).includes('dead');
  if (!c7dead) await toggleDead(bob, 'C7', [alice, bob, carol]);
  await alice.page.click('.scoring button:has-text("Accept score")');
  await bob.page.locator('.acceptances .accepted', { hasText: 'alice' }).waitFor();
  await bob.page.click('.scoring button:has-text("Accept score")');
  const results = [];
  for (const p of [alice, bob, carol]) {
    const banner = p.page.locator('.result-banner');
    await banner.waitFor();
    results.push([await banner.getAttribute('data-result'), await banner.textContent()]);
  }
  console.log(`result: ${results.map((r) => r[1]).join(' / ')}`);
  assert.match(results[0][0], /^[BW]\+\d+(\.5)?$|^0$/);
  assert.ok(results.every((r) => r[0] === results[0][0]), 'the same result for everyone');
  // In each one's words: the winner reads "You won", the loser the winner's name, the spectator colours.
  const [points] = /[\d.]+$/.exec(results[0][0]) ?? [''];
  const blackOrWhite = results[0][0].startsWith('B') ? 0 : 1;  // alice has Black
  assert.equal(results[blackOrWhite][1], `You won by ${points} points.`);
  assert.equal(results[1 - blackOrWhite][1], `${blackOrWhite === 0 ? 'alice' : 'bob'} won by ${points} points.`);
  assert.equal(results[2][1], `${blackOrWhite === 0 ? 'Black' : 'White'} wins by ${points} points`);
  await alice.page.screenshot({ path: join(artifacts, 'result.png'), fullPage: true });

  step('after the game: alice steps through it with the clocks, numbers the moves and analyses');
  await alice.page.keyboard.press('Home');
  await where(alice, 'Start of the game');
  assert.equal(await alice.page.locator('.board .stone').count(), 0);
  await alice.page.keyboard.press('ArrowRight');
  await where(alice, "Move 1 of");
  await where(alice, "Black D6 · Black's clock");
  await alice.page.locator('.move-slider').fill('8');
  await where(alice, 'Move 8 of');
  await waitStone(alice, 'D5', 'white');
  await alice.page.locator('.player.white .captures', { hasText: '1 prisoner' }).waitFor();
  await alice.page.check('.review-line input[type=checkbox]');
  await alice.page.locator('.board [data-label="8 D5"]').waitFor();
  await alice.page.locator('.board [data-label="1 D6"]').waitFor();
  await alice.page.click('.board [data-vertex="E5"]');  // the ko: the server refuses the retake
  await alice.page.locator('.review-error', { hasText: 'Ko: you may not retake at once; play elsewhere first.' }).waitFor();
  await alice.page.click('.board [data-vertex="F4"]');  // her own game is over: she may analyse
  await where(alice, 'Variation from move 8: 1 move · Black F4');
  await alice.page.click('.board [data-vertex="F6"]');
  await where(alice, 'Variation from move 8: 2 moves · White F6');
  await alice.page.screenshot({ path: join(artifacts, 'analysis.png'), fullPage: true });
  await alice.page.click('.variation-line button:has-text("Take back")');
  await where(alice, 'Variation from move 8: 1 move');
  await alice.page.keyboard.press('End');
  await alice.page.uncheck('.review-line input[type=checkbox]');
  await alice.page.locator('.board .stone.dead[data-stone="C7"]').waitFor();
  step('a reload draws the agreed dead stones and the counted territory as agreed');
  await alice.page.reload();
  await alice.page.locator('.result-banner').waitFor();
  await alice.page.locator('.board .stone.dead[data-stone="C7"]').waitFor();
  await alice.page.locator('.board .territory rect').first().waitFor();

  step('the SGF download and the game lists');
  const sgfHref = await alice.page.locator('a.sgf').getAttribute('href');
  const sgf = await (await fetch(`http://127.0.0.1:${port}${sgfHref}`)).text();
  assert.ok(sgf.includes(`RE[${results[0][0]}]`), sgf);
  assert.ok(sgf.includes('PB[alice]') && sgf.includes('PW[bob]'), sgf);
  await alice.page.click('#nav-mine');
  await alice.page.locator(`.game-list tr[data-game="${gameId}"]`, { hasText: results[0][0] }).waitFor();

  step('the rated game moved both ratings: ranks and a chart on the profile');
  const winner = results[0][0].startsWith('W') ? 'bob' : 'alice';
  await alice.page.locator('.profile .rank.big').waitFor();
  await alice.page.locator('.rating-chart .dot').waitFor();
  const profile = await alice.page.locator('.profile .profile-rating').textContent();
  assert.match(profile, /Rating \d+ ± \d+ · 1 rated game/);
  const rating = Number(profile.match(/Rating (\d+)/)[1]);
  assert.ok(winner === 'alice' ? rating > 1500 : rating < 1500, profile);
  await alice.page.screenshot({ path: join(artifacts, 'profile.png'), fullPage: true });
  await carol.page.goto(`http://127.0.0.1:${port}/#/games`);
  await carol.page.locator(`.game-list tr[data-game="${gameId}"]`).waitFor();
  // On her phone the result is in sight (the table once scrolled it off to the right).
  const result = await carol.page.locator(`.game-list tr[data-game="${gameId}"] td.col-result`).boundingBox();
  assert.ok(result && result.x + result.width <= carol.page.viewportSize().width, `the result at ${JSON.stringify(result)}`);
  await carol.page.screenshot({ path: join(artifacts, 'games-phone.png') });

  step('a nigiri game: both choose, the proof checks out in the browser');
  await alice.page.click('[data-nav=lobby]');
  await offer(alice, { selects: { size: '13', handicap: '0', color: 'nigiri', time: 'fischer' }, fields: { opponent: 'bob' } });
  await bob.page.goto(`http://127.0.0.1:${port}/#/`);
  await bob.page.locator('.challenge.for-me button:has-text("Accept")').click();
  await alice.page.waitForURL(/#\/game\/\d+$/);
  await bob.page.waitForURL(/#\/game\/\d+$/);
  assert.notEqual(alice.page.url(), gameUrl);
  await alice.page.click('.nigiri button:has-text("Grab a handful")');
  await bob.page.click('.nigiri button:has-text("Odd")');
  for (const p of [alice, bob]) {
    await p.page.locator('.nigiri .proof.ok').waitFor();
    await p.page.locator('.nigiri-result', { hasText: 'takes Black' }).waitFor();
  }
  const black = await alice.page.locator('.player.black .name').textContent();
  const mover = black === 'alice' ? alice : bob;
  await statusIs(mover, 'Your move.');
  assert.equal(await alice.page.locator('.nigiri dt').first().textContent(), 'commitment');
  await mover.page.click('.controls button:has-text("Abort")');
  await alice.page.locator('.result-banner', { hasText: 'No result' }).waitFor();

  step('a rectangular board with free handicap: Black places the stones, then White resigns');
  await alice.page.click('[data-nav=lobby]');
  await offer(alice, {
    selects: { size: 'other', ruleset: 'chinese', handicap: '2', placement: 'free', color: 'white', time: 'canadian' },
    fields: { width: '13', height: '7' },
  });
  await bob.page.goto(`http://127.0.0.1:${port}/#/`);
  await bob.page.locator('.challenge', { hasText: '13×7' }).locator('button:has-text("Accept")').click();
  await bob.page.waitForURL(/#\/game\/\d+$/);
  await statusIs(bob, 'Black places handicap stones (0 of 2).');
  assert.equal(await bob.page.locator('.board [data-vertex="N7"]').count(), 1);  // 13 columns (no I), 7 rows
  assert.equal(await bob.page.locator('.board [data-vertex]').count(), 91);
  await bob.page.click('.board [data-vertex="D4"]');
  await statusIs(bob, 'Black places handicap stones (1 of 2).');
  await bob.page.click('.board [data-vertex="K4"]');
  await statusIs(alice, 'Your move.');
  await alice.page.locator('.player.white .clock-extra', { hasText: 'stones' }).waitFor();
  await play(alice, 'G4', 'white', [bob]);
  await bob.page.screenshot({ path: join(artifacts, 'rectangular-handicap.png'), fullPage: true });
  await alice.page.click('.controls button:has-text("Resign")');
  await alice.page.click('.controls button:has-text("Yes, resign")');
  await bob.page.locator('.result-banner', { hasText: 'You won by resignation.' }).waitFor();
  await alice.page.locator('.result-banner', { hasText: 'bob won by resignation.' }).waitFor();

  step('bob offers a rematch from the result; alice accepts it there and both go to the new game');
  const finished = alice.page.url();
  await bob.page.click('.result .rematch-button');
  await bob.page.locator('.rematch', { hasText: 'Rematch offered to alice' }).waitFor();
  await alice.page.locator('.rematch.offer', { hasText: 'bob offers a rematch.' }).waitFor();
  await alice.page.click('.rematch.offer button:has-text("Accept")');
  for (const p of [alice, bob]) await p.page.waitForURL((u) => u.href !== finished && /#\/game\/\d+$/.test(u.href));
  assert.equal(alice.page.url(), bob.page.url());
  await statusIs(bob, 'Black places handicap stones (0 of 2).');  // the same settings: bob Black with 2 stones
  await alice.page.click('.controls button:has-text("Abort")');
  for (const p of [alice, bob]) await p.page.locator('.result-banner', { hasText: 'No result' }).waitFor();

  step('a tournament: alice creates a one-round Swiss, both register, she starts it, the game is played, standings follow');
  await bob.page.click('[data-nav=tournaments]');  // the list, watching: new tournaments appear live
  await bob.page.locator('.tournament-list').waitFor();
  await alice.page.click('[data-nav=tournaments]');
  const tf = alice.page.locator('form.tournament-form');
  await tf.locator('#tf-name').fill('Friday Swiss');
  await tf.locator('#tf-system').selectOption('swiss');
  await tf.locator('#tf-rounds').fill('1');
  await tf.locator('#tf-size').selectOption('9');
  await tf.locator('#tf-time').selectOption('none');
  await tf.locator('button[type=submit]').click();
  await alice.page.waitForURL(/#\/tournament\/\d+$/);
  const tournamentUrl = alice.page.url();
  await alice.page.locator('.tournament-head h1', { hasText: 'Friday Swiss' }).waitFor();
  await bob.page.locator('.tournament-list td', { hasText: 'Friday Swiss' }).waitFor();
  await alice.page.locator('#tr-rank').selectOption('2k');
  await alice.page.click('.tournament-actions button:has-text("Register")');
  await alice.page.locator('.entrants', { hasText: 'alice 2k' }).waitFor();
  await bob.page.goto(tournamentUrl);
  await bob.page.click('.tournament-actions button:has-text("Register")');
  await alice.page.locator('.entrants', { hasText: 'bob' }).waitFor();  // live, without a reload
  assert.equal(await bob.page.locator('.director').count(), 0);  // only the director sees the controls
  await alice.page.click('.director button:has-text("Start now")');
  for (const p of [alice, bob]) await p.page.waitForURL(/#\/game\/\d+$/);  // the round's game opens by itself
  // Labelled as the tournament's, with a way to it.
  await bob.page.locator('.tournament-line', { hasText: 'Friday Swiss · round 1, board 1' }).waitFor();
  assert.equal(await bob.page.locator('.tournament-line a').getAttribute('href'), new URL(tournamentUrl).hash);
  await bob.page.click('.controls button:has-text("Resign")');
  await bob.page.click('.controls button:has-text("Yes, resign")');
  await alice.page.locator('.result-banner', { hasText: 'You won by resignation.' }).waitFor();
  await alice.page.goto(tournamentUrl);
  await alice.page.locator('.tournament-head .tag', { hasText: 'Finished' }).waitFor();
  const first = alice.page.locator('.standings-table tbody tr').first();
  await first.locator('td', { hasText: 'alice' }).waitFor();
  assert.match(await first.locator('td.cross').textContent(), /^2\+[bw]$/);
  // Its finished game is replayed, not watched.
  await alice.page.locator('.round td a', { hasText: 'Replay' }).waitFor();
  await alice.page.screenshot({ path: join(artifacts, 'tournament.png'), fullPage: true });

  step('a review board: alice, teaching, opens one from the finished game; bob follows; carol (phone) joins late');
  const reviewStatus = (p, text) => p.page.locator('.review-room .status', { hasText: text }).waitFor();
  await alice.page.goto(`http://127.0.0.1:${port}/#/game/${gameId}`);
  await alice.page.click('.open-review');
  await alice.page.waitForURL(/#\/review\/\d+$/);
  const reviewUrl = alice.page.url();
  const reviewId = Number(reviewUrl.match(/review\/(\d+)/)[1]);
  await reviewStatus(alice, 'You have control.');
  await bob.page.goto(reviewUrl);
  await reviewStatus(bob, 'alice has control; you follow the board.');
  assert.equal(await bob.page.locator('.review-tools').isHidden(), true);
  for (let i = 0; i < 3; i++) await alice.page.keyboard.press('ArrowRight');
  await bob.page.locator('.review-where', { hasText: 'Move 3 · Black' }).waitFor();
  await waitStone(bob, 'D6', 'black');
  await alice.page.click('.board [data-vertex="J1"]');  // a variation from move 3
  for (const p of [alice, bob]) await waitStone(p, 'J1', 'white');
  await alice.page.click('.review-tools [data-tool=triangle]');
  await alice.page.click('.board [data-vertex="D6"]');
  await alice.page.click('.review-tools [data-tool=label]');
  await alice.page.click('.board [data-vertex="E3"]');
  await alice.page.click('.board [data-vertex="F3"]');
  await alice.page.fill('.comment-form textarea', 'White should not hurry here');
  await alice.page.click('.comment-form button');
  await bob.page.locator('.board [data-shape="triangle D6"]').waitFor();
  await bob.page.locator('.board [data-label="A E3"]').waitFor();
  await bob.page.locator('.board [data-label="B F3"]').waitFor();
  await bob.page.locator('.comment-text', { hasText: 'White should not hurry here' }).waitFor();
  await bob.page.locator('.review-tree .node.current.commented').waitFor();
  await carol.page.goto(reviewUrl);  // late: she sees the node alice is on, marks and all
  await carol.page.locator('.board [data-shape="triangle D6"]').waitFor();
  await carol.page.locator('.board [data-label="B F3"]').waitFor();
  await waitStone(carol, 'J1', 'white');
  await carol.page.locator('.comment-text', { hasText: 'White should not hurry here' }).waitFor();
  await alice.page.locator('.followers', { hasText: 'carol' }).waitFor();
  await carol.page.click('.review-tree [data-node="2"]');  // she looks back on her own
  await carol.page.locator('.review-where', { hasText: 'On your own: Move 2 · White' }).waitFor();
  await waitGone(carol, 'J1');
  assert.equal(await alice.page.locator('.board [data-stone="J1"]').count(), 1, "the teacher's board did not move");
  await carol.page.click('.back-to-board');
  await waitStone(carol, 'J1', 'white');
  await carol.page.fill('.review-room .chat-form input', 'Why not tenuki?');
  await carol.page.click('.review-room .chat-form button');
  for (const p of [alice, bob]) await p.page.locator('.review-room .chat-line', { hasText: 'Why not tenuki?' }).waitFor();
  await alice.page.screenshot({ path: join(artifacts, 'review-teacher.png'), fullPage: true });
  // The review page with its tree, marks and chat: no serious axe violation, driving or following.
  await assertAccessible(alice.page, 'a review board, driven');
  await assertAccessible(carol.page, 'a review board, followed on a phone');
  await carol.page.screenshot({ path: join(artifacts, 'review-phone.png'), fullPage: true });

  step('alice hands control to bob, who plays on; she takes it back');
  await alice.page.locator('.hand-over select').selectOption('bob');
  await alice.page.click('.hand-over button:has-text("Hand over")');
  await reviewStatus(bob, 'You have control.');
  await reviewStatus(carol, 'bob has control');
  await bob.page.click('.board [data-vertex="A9"]');
  for (const p of [alice, bob, carol]) await waitStone(p, 'A9', 'black');
  await alice.page.click('.hand-over button:has-text("Take control back")');
  await reviewStatus(alice, 'You have control.');
  await reviewStatus(bob, 'alice has control');

  step('the server restarts in the middle of the review: everyone is back on the same node');
  assert.equal(await stopServer(), 0);
  for (const p of [alice, bob, carol]) await p.page.locator('#net[data-state=reconnecting]').waitFor();
  port = await startServer(port);
  for (const p of [alice, bob, carol]) {
    await p.page.locator('#net[data-state=open]').waitFor();
    await waitStone(p, 'A9', 'black');
  }
  await reviewStatus(alice, 'You have control.');
  await bob.page.locator('.review-room .chat-line', { hasText: 'Why not tenuki?' }).waitFor();  // stored
  await alice.page.keyboard.press('ArrowLeft');  // back to the marked node, then on again
  for (const p of [bob, carol]) await p.page.locator('.board [data-shape="triangle D6"]').waitFor();
  await alice.page.click('.review-tools [data-tool=play]');
  await alice.page.click('.board [data-vertex="J9"]');  // a second variation after J1
  for (const p of [bob, carol]) await waitStone(p, 'J9', 'black');
  assert.equal(await carol.page.locator('.board [data-stone="A9"]').count(), 0, 'A9 is in the other line');

  step('the review is listed in the lobby and downloads with every variation');
  await carol.page.goto(`http://127.0.0.1:${port}/#/`);
  await carol.page.locator('.live-reviews a', { hasText: 'alice vs bob' }).waitFor();
  await carol.page.locator('.lobby-reviews').screenshot({ path: join(artifacts, 'lobby-reviews-phone.png') });
  const reviewSgf = await (await fetch(`http://127.0.0.1:${port}/api/v1/reviews/${reviewId}.sgf`)).text();
  assert.ok(reviewSgf.includes('TR[') && reviewSgf.includes('LB[') && reviewSgf.includes('C[White should not hurry here]'), reviewSgf);
  assert.ok(reviewSgf.includes('(;B[aa])') && reviewSgf.includes('(;B[ia])'), reviewSgf);

  step('logging out leaves a guest who may watch but not play');
  await bob.page.click('.account button:has-text("Log out")');
  await bob.page.locator('.account .login-link').waitFor();
  await bob.page.goto(`http://127.0.0.1:${port}/#/game/${gameId}`);
  await bob.page.locator('.result-banner').waitFor();
  await bob.page.locator('.chat a', { hasText: 'Log in' }).waitFor();
  assert.equal(await bob.page.locator('.controls').isHidden(), true);
  await bob.page.screenshot({ path: join(artifacts, 'finished-as-guest.png'), fullPage: true });

  step('a bot account (as tengen-gtp-bridge registers one) is shown as a bot in the lobby');
  const robot = await newPlayer('robot');
  const made = await robot.page.request.post(`http://127.0.0.1:${port}/api/v1/register`,
    { data: { username: 'robot', password: 'beep boop beep', bot: true } });
  assert.equal(made.status(), 201);
  await robot.page.goto(`http://127.0.0.1:${port}/#/`);
  await robot.page.locator('#net[data-state=open]').waitFor();
  await alice.page.goto(`http://127.0.0.1:${port}/#/`);
  await alice.page.locator('.online li', { hasText: 'robot' }).locator('.rank.bot', { hasText: '· bot' }).waitFor();
  await alice.page.locator('.online li', { hasText: 'bob' }).waitFor({ state: 'detached' });  // bob logged out
  assert.equal(await alice.page.locator('.online li', { hasText: 'carol' }).locator('.rank.bot').count(), 0);

  if (failures.length) throw new Error(`errors in the pages: ${failures.join('; ')}`);
  console.log('web e2e: passed');
} catch (err) {
  exitCode = 1;
  console.error(err);
  for (const ctx of browser.contexts()) {
    for (const [i, page] of ctx.pages().entries()) {
      await page.screenshot({ path: join(artifacts, `failure-${browser.contexts().indexOf(ctx)}-${i}.png`), fullPage: true }).catch(() => {});
    }
  }
} finally {
  await browser.close();
  await stopServer();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
