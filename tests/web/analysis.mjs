// Analysis after the game in the browser (docs/analysis.md): the real server binary with its own
// house analysis worker (tengen-analysis with Debian's GNU Go), a 9×9 game played to its end, the
// analysis asked for from the game page, its progress, then the score graph, the swings, the
// engine's move on the board and its line as a variation, on a desktop in English, a phone with
// touch in Dutch and a desktop in German, accessible; the SGF download carrying it; a review board
// opened from the game with the graph, and the engine asked about a position of a variation there
// and its line played on the board. Nothing sleeps: every wait is for something on the page.
//
//   node tests/web/analysis.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('analysis');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off', '--analysis-worker', 'on'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', ...options });
const moves = ['E5', 'C3', 'G3', 'C6', 'G6', 'D4', 'E7', 'F4', 'C7', 'E3', 'B6', 'F3', 'D7', 'G4', 'H4', 'H5'];

try {
  step('ann and bob play a 9×9 game to its end (ann resigns)');
  const ann = await newPage('ann');
  const bob = await newPage('bob', { locale: 'nl-NL', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await registerIn(ann, url, 'ann');
  await registerIn(bob, url, 'bob');
  const challenge = await command(ann, { type: 'create_challenge', opponent: 'bob', settings: { width: 9, height: 9, komi: 6.5, color: 'black' } });
  const accepted = await command(bob, { type: 'accept_challenge', challenge: challenge.challenge });
  const game = accepted.game;
  await ann.goto(`${url}/#/game/${game}`);
  await ann.locator('.game').waitFor();
  // While the game is played there is no analysis, not even the offer.
  assert.equal(await ann.locator('.panel.analysis').isHidden(), true, 'no analysis during play');
  for (let i = 0; i < moves.length; i++) await command(i % 2 === 0 ? ann : bob, { type: 'play', game, vertex: moves[i] });
  await command(ann, { type: 'resign', game });
  const panel = ann.locator('.panel.analysis');
  await panel.locator('button', { hasText: 'Analyse this game' }).waitFor();

  step('ann asks for the analysis: the page shows the queue, then the house worker\'s progress, then the graph');
  await panel.locator('button', { hasText: 'Analyse this game' }).click();
  await panel.locator('[role=status], .analysis-graph').first().waitFor();
  await panel.locator('.analysis-graph').waitFor({ timeout: 120000 });
  assert.match(await panel.locator('.analysis-engine').innerText(), /^Analysed by GNU Go 3\.\d+, level 10$/);
  assert.equal(await panel.locator('.analysis-graph path.lead').count(), 1);
  const swings = panel.locator('ol.swings li');
  const listed = await swings.count();
  assert.ok(listed >= 1 && listed <= 5, `1 to 5 swings listed, not ${listed}`);
  assert.equal(await panel.locator('.analysis-graph circle.swing').count(), listed, 'each swing marked on the graph');
  assert.match(await swings.first().innerText(), /^Move \d+, (Black|White) [A-J]\d: −\d+\.\d points/);
  await ann.screenshot({ path: join(artifacts, 'analysis-desktop.png'), fullPage: true });
  await assertAccessible(ann, 'a finished game with its analysis');

  step('a click on the graph goes to that move; the engine\'s move is marked on the board and shown as a variation');
  const box = await panel.locator('.analysis-graph').boundingBox();
  await panel.locator('.analysis-graph').click({ position: { x: box.width * 4 / moves.length, y: box.height / 2 } });
  await ann.locator('[data-review=where]', { hasText: /^Move 4 of 16/ }).waitFor();
  await panel.locator('[data-analysis=here]', { hasText: /^Move 4 · (even|[BW]\+\d+\.\d)/ }).waitFor();
  const here = await panel.locator('[data-analysis=here]').innerText();
  const best = /engine: ([A-J]\d)/.exec(here)?.[1];
  assert.ok(best, `the engine's move at move 4: ${here}`);
  await ann.locator(`.board .marks [data-shape="circle ${best}"]`).waitFor();
  await panel.locator('button', { hasText: 'Show the engine\'s move' }).click();
  await ann.locator('.review-bar .variation-line').waitFor();
  await ann.locator(`.board .stone[data-stone="${best}"]`).waitFor();
  await ann.locator('.review-bar button', { hasText: 'Leave' }).click();
  // The arrow keys step through the moves, and the graph's marker follows.
  await ann.keyboard.press('ArrowRight');
  await panel.locator('.analysis-graph line.now[data-move="5"]').waitFor({ state: 'attached' });
  await ann.screenshot({ path: join(artifacts, 'analysis-variation.png') });

  step('the SGF download carries the analysis');
  const sgf = await ann.evaluate((id) => fetch(`/api/v1/games/${id}.sgf`).then((r) => r.text()), game);
  assert.match(sgf, /C\[GNU Go 3\.\d+, level 10: [BW] \d+\.\d ahead; this move [+-]\d+\.\d/);

  step('a review board opened from the game carries the analysis: comments, the engine\'s lines beside the mistakes');
  await ann.locator('.panel.result button', { hasText: 'Open a review board' }).click();
  await ann.waitForURL(/#\/review\/\d+/);
  const review = Number(/#\/review\/(\d+)/.exec(ann.url())[1]);
  const reviewed = await ann.evaluate((id) => fetch(`/api/v1/reviews/${id}.sgf`).then((r) => r.text()), review);
  assert.match(reviewed, /C\[The engine's line \(GNU Go 3\.\d+, level 10\)\]/);
  await ann.locator('.review-room .tree').waitFor();

  step('the review board shows the game\'s graph and swings; a swing goes to its move on the shared board');
  const engine = ann.locator('.review-engine');
  await engine.locator('.analysis-graph').waitFor();
  assert.equal(await engine.locator('ol.swings li').count(), listed, 'the same swings as the game page');
  await engine.locator('ol.swings li button.link').first().click();
  const swingMove = Number(/^Move (\d+)/.exec(await engine.locator('ol.swings li').first().innerText())[1]);
  await ann.locator('.review-where', { hasText: new RegExp(`^Move ${swingMove} ·`) }).waitFor();
  await engine.locator(`.analysis-graph line.now[data-move="${swingMove}"]`).waitFor({ state: 'attached' });

  step('ann asks the engine about a position of a variation; the house worker answers; its line is played on the board');
  // A variation of her own at move 2: a move the game did not have.
  await ann.keyboard.press('Home');
  await ann.locator('.review-where', { hasText: /^The start/ }).waitFor();
  await ann.keyboard.press('ArrowRight');
  await ann.locator('.review-where', { hasText: /^Move 1 ·/ }).waitFor();
  const nodesBefore = await ann.locator('.review-tree g.node').count();
  await ann.click('.review-room .board [data-vertex="A9"]');
  await ann.waitForFunction((n) => document.querySelectorAll('.review-tree g.node').length === n + 1, nodesBefore);
  await ann.locator('.review-where', { hasText: /^Move 2 ·/ }).waitFor();
  assert.match(await engine.locator('p.muted', { hasText: 'variation' }).innerText(), /variation/, 'the graph says it follows the game');
  await engine.locator('button.ask-position').click();
  const answer = engine.locator('[data-analysis=position]');
  await answer.waitFor({ timeout: 60000 });
  assert.match(await answer.innerText(), /^GNU Go 3\.\d+, level 10, here · (even|[BW]\+\d+\.\d)/);
  // On a variation the game's graph has no marker and says why; the engine's move is circled.
  assert.equal(await engine.locator('.analysis-graph line.now').count(), 0);
  assert.equal(await engine.locator('[data-analysis=here]').count(), 0);
  const bestHere = /engine: ([A-J]\d)/.exec(await answer.innerText())?.[1];
  assert.ok(bestHere, `the engine's move there: ${await answer.innerText()}`);
  await ann.locator(`.review-room .board [data-shape="circle ${bestHere}"]`).waitFor();
  await ann.screenshot({ path: join(artifacts, 'analysis-review-position.png'), fullPage: true });
  await assertAccessible(ann, 'a review board with the engine');
  const played = await ann.locator('.review-tree g.node').count();
  await engine.locator('button', { hasText: 'Play the engine\'s line here' }).click();
  await ann.waitForFunction((n) => document.querySelectorAll('.review-tree g.node').length > n, played);
  await ann.locator('.review-where', { hasText: /^Move 3 ·/ }).waitFor();

  step('bob follows the board on his phone in Dutch: the engine panel with the game\'s graph');
  await bob.goto(`${url}/#/review/${review}`);
  await bob.locator('.review-engine .analysis-graph').waitFor();
  await bob.locator('.review-engine h2', { hasText: 'Engine' }).waitFor();
  await bob.locator('.review-engine button.ask-position', { hasText: 'Vraag de engine naar deze stelling' }).waitFor();
  await bob.screenshot({ path: join(artifacts, 'analysis-review-phone-nl.png'), fullPage: true });
  await assertAccessible(bob, 'a review board with the engine, on a phone');
  await bob.goto(`${url}/#/game/${game}`);

  step('bob, on his phone in Dutch, sees the same analysis');
  // His page, open on the game since it began, learns of the analysis by itself.
  const his = bob.locator('.panel.analysis');
  await his.locator('.analysis-graph').waitFor({ timeout: 30000 });
  assert.match(await his.locator('.analysis-engine').innerText(), /^Geanalyseerd door GNU Go/);
  await his.locator('h3', { hasText: 'Grootste omslagen' }).waitFor();
  const graph = await his.locator('.analysis-graph').boundingBox();
  assert.ok(graph.width <= 390 && graph.width > 250, `the graph fits the phone (${graph.width}px)`);
  await his.locator('.analysis-graph').tap();
  await his.locator('[data-analysis=here]', { hasText: /^Zet \d+/ }).waitFor();
  await bob.screenshot({ path: join(artifacts, 'analysis-phone-nl.png'), fullPage: true });
  await assertAccessible(bob, 'the analysis on a phone');

  step('a spectator in German sees it too');
  const carl = await newPage('carl', { locale: 'de-DE' });
  await carl.goto(`${url}/#/game/${game}`);
  await carl.locator('.panel.analysis .analysis-graph').waitFor();
  assert.match(await carl.locator('.panel.analysis .analysis-engine').innerText(), /^Analysiert von GNU Go/);
  await carl.locator('.panel.analysis h2', { hasText: 'Analyse' }).waitFor();

  step('an administrator makes a worker\'s key on the Admin page, sees it once, and revokes it');
  const said = execFileSync(serverBinary, ['--database', join(dir, 'tengen.sqlite3'), '--make-admin', 'ann'], { encoding: 'utf8' });
  assert.match(said, /ann is now an administrator/);
  await ann.goto(`${url}/#/admin/workers`);
  await ann.reload();
  await ann.locator('#nav-admin').waitFor();
  await ann.locator('table.workers tr[data-worker="house"]').waitFor();
  assert.doesNotMatch(await ann.locator('table.workers tr[data-worker="house"]').innerText(), /Never/, 'the house worker was seen');
  // The queue below: ann's game, analysed by the house worker, with a link to the game.
  const job = ann.locator(`table.analysis-queue tr[data-game="${game}"]`);
  await job.waitFor();
  const cells = await job.locator('td').allInnerTexts();
  assert.equal(cells[0], `game ${game}`);
  assert.equal(cells[1], 'done');
  assert.match(cells[2], /^ann, /);
  assert.equal(cells[3], 'house');
  assert.equal(await job.locator('a').getAttribute('href'), `#/game/${game}`);
  await ann.fill('#worker-name', 'club-gpu');
  await ann.click('form.invite-form button[type=submit]');
  const shown = ann.locator('.worker-key code.key');
  await shown.waitFor();
  const key = await shown.innerText();
  assert.match(key, /^tw_[\w-]{43}$/);
  const acquire = (k) => ann.evaluate((bearer) => fetch('/api/v1/analysis/acquire', { method: 'POST', headers: { Authorization: `Bearer ${bearer}` } }).then((r) => r.status), k);
  assert.equal(await acquire(key), 204, 'the new key works (nothing to do)');
  await assertAccessible(ann, 'the Admin page\'s workers');
  await ann.screenshot({ path: join(artifacts, 'analysis-admin-workers.png') });
  await ann.locator('table.workers tr[data-worker="club-gpu"] button', { hasText: 'Revoke' }).click();
  await ann.locator('table.workers tr[data-worker="club-gpu"]', { hasText: 'revoked' }).waitFor();
  assert.equal(await acquire(key), 401, 'a revoked key is refused');
  await ann.goto(`${url}/#/admin/audit`);
  await ann.locator('table.audit td', { hasText: 'revoked an analysis worker\'s key (worker club-gpu)' }).waitFor();

  assert.deepEqual(failures, []);
  console.log('analysis: ok');
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}
