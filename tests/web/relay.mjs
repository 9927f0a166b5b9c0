// A relay in the browser (docs/events.md, "Relays"): the real server binary with its house
// analysis worker (GNU Go). tess, a tournament director, announces a game played over the board
// from the form, with the players' real names, round, table and an analysis 3 moves behind; she
// enters its moves by clicking the board and by typing them, one by mistake taken back. A
// spectator on a phone (in Dutch) sees each move on the game's board and the commentary room follow
// it; a program's move from anyone but tess, and any review change to the game's board, are refused
// in words. tess hands the commentary room to cole, who branches a variation: the game goes on
// without taking him along, and he comes back to it. The spectators' analysis shows the position
// three moves behind, never the game's own. tess enters the result: every page says it; the SGF
// names the players, event, round and result. Accessible on a desktop and a phone; nothing sleeps.
//
//   node tests/web/relay.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('relay');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off', '--analysis-worker', 'on'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', ...options });
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const post = (page, path, body) => page.evaluate(async ([p, b]) => {
  const r = await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
  return [r.status, r.status === 204 ? null : await r.json()];
}, [path, body]);

try {
  step('tess announces a relay: real names, round, table, analysis 3 moves behind');
  const tess = await newPage('tess', { expected: /40[0139]/ });
  await registerIn(tess, url, 'tess');
  await tess.click('nav a[data-nav=relays]');
  await tess.locator('.simul-list .empty').waitFor();
  await tess.locator('details.simul-new summary').click();
  await tess.fill('#rf-event', 'Dutch Championship');
  await tess.fill('#rf-round', '3');
  await tess.fill('#rf-table', '1');
  await tess.fill('#rf-black', 'Ilya Shikshin');
  await tess.fill('#rf-black-rank', '7d');
  await tess.fill('#rf-white', 'Mateusz Surma');
  await tess.fill('#rf-white-rank', '6d');
  await tess.selectOption('#rf-size', '9');
  await tess.fill('#rf-komi', '7');
  await tess.selectOption('#rf-delay', '3');
  // The server says what is wrong in words, to a program as to the form.
  assert.deepEqual(await post(tess, '/api/v1/relays', { event: 'x', black: 'a', white: 'b', handicap: 1 }),
    [400, { error: { code: 'bad_request', message: "field 'handicap' must be 0, or 2 to 9 stones" } }]);
  await tess.click('form.relay-form button[type=submit]');
  await tess.waitForURL(/#\/relay\/\d+$/);
  const relayUrl = tess.url();
  const relay = Number(/#\/relay\/(\d+)/.exec(relayUrl)[1]);
  await tess.locator('.relay-head h1', { hasText: 'Ilya Shikshin (7d) – Mateusz Surma (6d)' }).waitFor();
  await tess.locator('.relay-head', { hasText: 'Dutch Championship · round 3 · table 1' }).waitFor();
  await tess.locator('.relay-status', { hasText: 'No move yet · Black to play' }).waitFor();
  const { board, commentary } = await tess.evaluate(async (id) => (await fetch(`/api/v1/relays/${id}`)).json(), relay);

  step('a spectator on a phone (Dutch) and cole, the commentator, open the relay');
  const sam = await newPage('sam', { ...phone, locale: 'nl-NL', expected: /40[0139]/ });
  await registerIn(sam, url, 'sam');
  await sam.goto(relayUrl);
  await sam.locator('.relay-status', { hasText: 'Nog geen zet' }).waitFor();
  const cole = await newPage('cole', { expected: /40[0139]/ });
  await registerIn(cole, url, 'cole');
  await cole.goto(relayUrl);
  await cole.locator('.relay-commentary .board').waitFor();

  step('tess enters moves: clicks on the board, and typed; a spectator sees each at once');
  const stone = (page, where, vertex) => page.locator(`${where} [data-stone="${vertex}"]`);
  await tess.locator('.relay-game .board [data-vertex="E5"]').click();
  await stone(sam, '.relay-game', 'E5').waitFor();
  await sam.locator('.relay-status', { hasText: 'Zet 1: Zwart E5' }).waitFor();
  await tess.fill('#relay-move', 'c3');
  await tess.press('#relay-move', 'Enter');
  await stone(sam, '.relay-game', 'C3').waitFor();
  await tess.waitForFunction(() => document.querySelector('#relay-move').value === '');  // emptied once the move is in
  // An occupied point: the server's words, nothing entered.
  await tess.locator('.relay-game .board [data-vertex="E5"]').click();
  await tess.locator('.relay-page > .form-error', { hasText: 'occupied: there is already a stone on E5' }).waitFor();
  // Only tess enters its moves; nobody changes the game's board with review commands.
  assert.deepEqual(await post(sam, `/api/v1/relays/${relay}/moves`, { move: 'G7' }),
    [403, { error: { code: 'not_director', message: 'only tess (its director) enters this relay\'s moves' } }]);
  await assert.rejects(command(sam, { type: 'review_chat', review: board, text: 'hi' }), /only its director's moves change it/);
  await assert.rejects(command(tess, { type: 'review_play', review: board, vertex: 'G7' }), /only its director's moves change it/);
  // A relay program may send a move again (it did not hear the answer): done, once.
  assert.deepEqual(await post(tess, `/api/v1/relays/${relay}/moves`, { move: 'C3', number: 2 }), [200, { moves: 2 }]);
  assert.deepEqual(await post(tess, `/api/v1/relays/${relay}/moves`, { move: 'G3', number: 4 }),
    [409, { error: { code: 'not_next', message: 'the relay has 2 moves: the next is move 3, not 4' } }]);

  step('the commentary room follows the game\'s line');
  await stone(sam, '.relay-commentary', 'C3').waitFor();
  await stone(cole, '.relay-commentary', 'C3').waitFor();

  step('a wrong move is taken back');
  await tess.locator('.relay-game .board [data-vertex="J9"]').click();
  await stone(sam, '.relay-game', 'J9').waitFor();
  await tess.locator('.relay-entry button', { hasText: 'Take back the last move' }).click();
  await stone(sam, '.relay-game', 'J9').waitFor({ state: 'detached' });
  await stone(sam, '.relay-commentary', 'J9').waitFor({ state: 'detached' });
  await tess.locator('.relay-game .board [data-vertex="G3"]').click();
  await sam.locator('.relay-status', { hasText: 'Zet 3: Zwart G3' }).waitFor();

  step('tess hands the commentary to cole; he branches; the game goes on without taking him along');
  await command(cole, { type: 'review_join', review: commentary });
  await command(tess, { type: 'review_control', review: commentary, to: 'cole' });
  await cole.locator('.relay-commentary .review-control', { hasText: 'You have control.' }).waitFor();
  // Back to move 2 and a variation of his own (the review room's keyboard: Left).
  await cole.locator('.relay-commentary .board').click({ position: { x: 2, y: 2 } });
  await cole.keyboard.press('ArrowLeft');
  await stone(sam, '.relay-commentary', 'G3').waitFor({ state: 'detached' });
  await cole.locator('.relay-commentary .board [data-vertex="D6"]').click();
  await stone(sam, '.relay-commentary', 'D6').waitFor();
  await tess.fill('#relay-move', 'C6');
  await tess.press('#relay-move', 'Enter');
  await stone(sam, '.relay-game', 'C6').waitFor();
  // The game has move 4; the commentary still shows cole's variation, not the game's C6.
  await sam.locator('.relay-status', { hasText: 'Zet 4: Wit C6' }).waitFor();
  assert.equal(await stone(sam, '.relay-commentary', 'C6').count(), 0, 'the commentator stays on his variation');
  assert.equal(await stone(sam, '.relay-commentary', 'D6').count(), 1);
  // He goes back to the game's latest move with one button (shown to him only, while he is away).
  assert.equal(await tess.locator('.relay-commentary .back-to-game').isHidden(), true, 'not for a follower');
  await cole.locator('.relay-commentary .back-to-game').click();
  await stone(sam, '.relay-commentary', 'C6').waitFor();
  await stone(sam, '.relay-commentary', 'D6').waitFor({ state: 'detached' });
  await cole.locator('.relay-commentary .back-to-game').waitFor({ state: 'hidden' });

  step('more moves; the spectators\' analysis stays three moves behind');
  for (const vertex of ['G6', 'D4', 'E7']) {
    await tess.fill('#relay-move', vertex);
    await tess.press('#relay-move', 'Enter');
    await stone(sam, '.relay-game', vertex).waitFor();
  }
  // 7 moves: the analysis shows move 4 at most; the house worker answers.
  await sam.locator('.relay-analysis .relay-analysis-line', { hasText: 'Na zet 4:' }).waitFor({ timeout: 60000 });
  const shown = await sam.evaluate(async (id) => (await fetch(`/api/v1/relays/${id}/analysis`)).json(), relay);
  assert.equal(shown.move, 4);
  assert.equal(shown.moves, 7);
  assert.equal(shown.analysis.review, board, 'the analysis is of the game\'s board');
  assert.equal(shown.analysis.position.move, 4, 'of the position after move 4, not the game\'s');
  await tess.screenshot({ path: join(artifacts, 'relay-director.png'), fullPage: true });
  await assertAccessible(tess, 'a relay, for its director');
  await sam.screenshot({ path: join(artifacts, 'relay-phone.png'), fullPage: true });
  assert.equal(await sam.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling on a phone');
  await assertAccessible(sam, 'a relay on a phone');

  step('talk in the commentary room');
  await sam.fill('.relay-commentary input[name=chat]', 'Wat een zet!');
  await sam.press('.relay-commentary input[name=chat]', 'Enter');
  await tess.locator('.relay-commentary .chat-line', { hasText: 'Wat een zet!' }).waitFor();

  step('tess enters the result: every page says it; the record is complete');
  await tess.fill('#relay-result', 'B+R');
  await tess.locator('.relay-result-form button').click();
  await sam.locator('.relay-head .relay-result', { hasText: 'Zwart wint door opgave' }).waitFor();
  await cole.locator('.relay-head .relay-state.finished').waitFor();
  assert.equal(await tess.locator('#relay-move').count(), 0, 'no more moves to enter');
  // The analysis shows the last position once the game is over.
  const after = await sam.evaluate(async (id) => (await fetch(`/api/v1/relays/${id}/analysis`)).json(), relay);
  assert.equal(after.move, 7);
  const sgf = await sam.evaluate(async (id) => (await fetch(`/api/v1/relays/${id}.sgf`)).text(), relay);
  for (const part of ['PB[Ilya Shikshin]', 'BR[7d]', 'PW[Mateusz Surma]', 'WR[6d]', 'EV[Dutch Championship]', 'RO[3]', 'RE[B+R]', 'KM[7]',
    ';B[ee];W[cg];B[gg];W[cd];B[gd];W[df];B[ec]'])
    assert.ok(sgf.includes(part), `the SGF has ${part}: ${sgf}`);
  // The commentary room goes on after the game; the list says finished.
  await sam.fill('.relay-commentary input[name=chat]', 'Gefeliciteerd!');
  await sam.press('.relay-commentary input[name=chat]', 'Enter');
  await tess.locator('.relay-commentary .chat-line', { hasText: 'Gefeliciteerd!' }).waitFor();
  await sam.click('nav a[data-nav=relays]');
  await sam.locator(`.relay-row[data-relay="${relay}"][data-state=finished]`).waitFor();
  await sam.screenshot({ path: join(artifacts, 'relay-list-phone.png'), fullPage: true });

  step('tess closes it: no longer listed, its record still there');
  await tess.goto(relayUrl);
  tess.once('dialog', (d) => d.accept());
  await tess.locator('.relay-head button', { hasText: 'Close the relay' }).click();
  await tess.locator('.relay-head .relay-state.closed').waitFor();
  const listed = await tess.evaluate(async () => (await (await fetch('/api/v1/relays')).json()).relays.length);
  assert.equal(listed, 0);
  assert.ok((await tess.evaluate(async (id) => (await fetch(`/api/v1/relays/${id}.sgf`)).text(), relay)).includes('RE[B+R]'));

  step('a director on a phone enters a move with two taps; one tap and Cancel enter nothing');
  const pia = await newPage('pia', phone);
  await registerIn(pia, url, 'pia');
  const [made, second] = await post(pia, '/api/v1/relays', { event: 'Club evening', black: 'Ann', white: 'Bob', size: 9 });
  assert.equal(made, 201);
  await pia.goto(`${url}/#/relay/${second.id}`);
  await pia.locator('.relay-status', { hasText: 'No move yet' }).waitFor();
  const e5 = pia.locator('.relay-game .board [data-vertex="E5"]');
  await e5.tap();
  await pia.locator('.relay-game .confirm-bar button', { hasText: 'Enter E5' }).waitFor();
  await pia.locator('.relay-game .confirm-bar button', { hasText: 'Cancel' }).tap();
  assert.equal(await pia.locator('.relay-game .confirm-bar').isHidden(), true);
  assert.equal((await pia.evaluate(async (id) => (await fetch(`/api/v1/relays/${id}`)).json(), second.id)).moves, 0);
  await e5.tap();
  await e5.tap();
  await pia.locator('.relay-status', { hasText: 'Move 1: Black E5' }).waitFor();
  await stone(pia, '.relay-game', 'E5').waitFor();
  await pia.screenshot({ path: join(artifacts, 'relay-director-phone.png'), fullPage: true });
  assert.equal(await pia.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling on a phone');
  await assertAccessible(pia, 'a relay on a phone, for its director');

  assert.deepEqual(failures, []);
  console.log('relay: ok');
} finally {
  await browser.close();
  await stopServer(server);
}
