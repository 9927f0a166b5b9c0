// Blind mode (docs/accessibility.md), as a blind player meets it: the real server with its GNU Go
// bots and Debian's chromium. The player turns blind mode on from the link at the top of the page
// by keyboard, starts a 9×9 game against gnugo-easy, and plays it to the end only through the
// command box (no pointer): moves, questions about the board, passes, the count read and
// accepted, the result. Every answer is read from Chromium's accessibility tree (the DevTools
// protocol's Accessibility domain), as a screen reader gets it. Time warnings are checked with
// the page's clock moved forward; axe-core runs on every page in blind mode and at 200% zoom;
// the high-contrast board is photographed.
//
//   node tests/web/blind.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('blind');
const TIMEOUT_MS = 30000;
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'on'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options) => openPage(browser, failures, label, { expected: /401/, timeout: TIMEOUT_MS, ...options });

// What a screen reader is given: the accessibility tree's text under the node with this role and
// name (the console's log, "Answers"; its alert), one string per child (each answer a paragraph).
async function spoken(page, role, name) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Accessibility.enable');
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const text = (node) => (node.role?.value === 'StaticText' ? node.name?.value ?? ''
      : (node.childIds ?? []).map((id) => byId.get(id)).filter(Boolean).map(text).join(''));
    return nodes.filter((n) => n.role?.value === role && (name === null || n.name?.value === name))
      .flatMap((root) => (root.childIds ?? []).map((id) => byId.get(id)).filter(Boolean).map(text).filter(Boolean));
  } finally {
    await cdp.detach();
  }
}
const answers = (page) => spoken(page, 'log', 'Answers');

// Types a command into the box and presses Enter, as a keyboard does; resolves with the answers
// that came since (at least one; each numbered by the page, data-n), read from the accessibility
// tree once the page shows them.
const lastSaid = (page) => page.evaluate(() => Number(document.querySelector('.blind-log p:last-child')?.dataset.n ?? 0));
async function command(page, text, { until = null } = {}) {
  const before = await lastSaid(page);
  await page.locator('#blind-command').focus();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await page.waitForFunction(([n, source]) => [...document.querySelectorAll('.blind-log p')]
    .some((p) => Number(p.dataset.n) > n && (!source || new RegExp(source).test(p.textContent))), [before, until?.source ?? null]);
  return heardSince(page, before);
}
// The answers numbered after `before`, as the accessibility tree gives them to a screen reader.
// The tree may trail the page by a frame, and more answers may come meanwhile (a bot accepting
// the count as the player asks for it): each answer the page showed is looked for in the tree,
// frame after frame, until every one is there.
const spaced = (s) => s.replace(/\s+/g, ' ').trim();
async function heardSince(page, before) {
  for (let frame = 0; ; frame++) {
    const all = (await answers(page)).map(spaced);
    const shown = await page.evaluate((n) => [...document.querySelectorAll('.blind-log p')]
      .filter((p) => Number(p.dataset.n) > n).map((p) => p.textContent), before);
    const heard = shown.map(spaced).map((s) => all.findLast((a) => a === s));
    if (heard.every((a) => a !== undefined)) return heard;
    assert.ok(frame < 300, `the accessibility tree never said ${JSON.stringify(shown)}`);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
  }
}
// A command whose answer may cross an event's announcement (the bot accepting the count as the
// player asks for it): the answer matching `pattern`.
async function ask(page, text, pattern) {
  return (await command(page, text, { until: pattern })).filter((a) => pattern.test(a)).at(-1);
}
// The newest answer matching `pattern`, waited for (the bot's moves come when they come).
async function heard(page, pattern) {
  await page.waitForFunction((source) => [...document.querySelectorAll('.blind-log p')].some((p) => new RegExp(source).test(p.textContent)), pattern.source);
  const found = (await answers(page)).filter((a) => pattern.test(a));
  assert.ok(found.length, `the accessibility tree says ${pattern}`);
  return found[found.length - 1];
}

let exitCode = 0;
try {
  step('a player turns blind mode on from the link at the top of the page, by keyboard');
  const page = await newPage('reader');
  await registerIn(page, url, 'reader');
  await page.goto(`${url}/#/`);
  await page.reload();  // a fresh page: the keyboard starts at its top
  await page.locator('.play-bot li', { hasText: 'gnugo-easy' }).waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'blind-link');
  assert.equal(await page.locator('#blind-link').textContent(), 'Blind mode: play by screen reader');
  await page.keyboard.press('Enter');
  await page.locator('#blind-link.on', { hasText: 'Leave blind mode' }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.blind), 'on');
  assert.equal(await page.locator('#display-blind').inputValue(), 'on', 'the Display menu says so too');
  await assertAccessible(page, 'the lobby in blind mode');

  step('the lobby by keyboard: quick match and a challenge; the focus stays put while others come and go');
  const activeKey = () => page.evaluate(() => document.activeElement?.dataset.key ?? document.activeElement?.tagName);
  await page.locator('.quick-match button', { hasText: '13×13' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('.quick-match button[aria-pressed=true]', { hasText: '13×13' }).waitFor();
  assert.equal(await activeKey(), 'size-13', 'the choice redrawn keeps the focus');
  const sighted = await newPage('sighted');
  await registerIn(sighted, url, 'sighted');
  await page.locator('.lobby-online li', { hasText: 'sighted' }).waitFor();
  assert.equal(await activeKey(), 'size-13', 'somebody coming online does not move the focus');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await activeKey(), 'size-9');
  await page.keyboard.press('Enter');
  await page.locator('.quick-match button[aria-pressed=true]', { hasText: '9×9' }).waitFor();
  await page.locator('.quick-match button', { hasText: 'Find an opponent' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('.quick-match .seeking').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'the focus moves to what undoes it');
  await page.keyboard.press('Enter');
  await page.locator('.quick-match .seeking').waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Find an opponent');
  await page.locator('.challenge-form button[type=submit]').focus();
  await page.keyboard.press('Enter');
  await page.locator('.challenge.mine').waitFor();
  await page.locator('.challenge.mine button', { hasText: 'Cancel' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('.challenge.mine').waitFor({ state: 'detached' });

  step('a 9×9 game against gnugo-easy, started from the keyboard; the focus lands in the command box');
  await page.locator('.play-bot li', { hasText: 'gnugo-easy' }).locator('button', { hasText: '9×9' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/#\/game\/\d+$/);
  const gameUrl = page.url();
  await page.locator('.blind-console').waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'blind-command');
  assert.equal(await page.locator('.blind-form button').textContent(), 'Send');
  const greeting = await heard(page, /^Black: reader/);
  assert.match(greeting, /^Black: reader( \([^)]*\))?\. White: gnugo-easy \(.*bot\)\. You are Black\. Black to move\.$/);
  assert.match((await answers(page))[0], /^reader vs gnugo-easy, 9×9/);
  await heard(page, /^Make your first move within \d+ s, or the game is cancelled\.$/);

  step('help, then the first move; the bot\'s answer is announced with "Your move."');
  const help = await command(page, 'help');
  assert.match(help.at(-1), /^Commands: play, pass, board, point, liberties, chain, last, captures, clock, score, mark, accept, resume, ko, who, say, nigiri, undo, allow, refuse, abort, resign, help\./);
  assert.equal((await command(page, 'help liberties')).at(-1), 'liberties: The liberties of the chain on a point, like liberties D4.');
  await command(page, 'e5', { until: /^You played E5\./ });
  const reply = await heard(page, /^White [A-J]\d\..* Your move\.$/);
  const white = /^White ([A-J]\d)\./.exec(reply)[1];
  console.log(`gnugo-easy answered ${white}`);

  step('questions about the board, each answered in one sentence');
  assert.match((await command(page, 'point e5')).at(-1), /^E5: Black, a single stone, [1-4] libert(y|ies)\.$/);
  assert.match((await command(page, `point ${white.toLowerCase()}`)).at(-1), new RegExp(`^${white}: White, a single stone`));
  assert.match((await command(page, 'liberties E5')).at(-1), /^Black chain at E5: [1-4] libert(y|ies), [A-J]\d(, [A-J]\d)*\.$/);
  assert.equal((await command(page, 'chain e5')).at(-1), 'Black chain at E5: 1 stone, E5.');
  const board = (await command(page, 'board')).at(-1);
  assert.match(board, /Row 5: black E[;.]/);
  assert.match(board, new RegExp(`Row ${white.slice(1)}: .*white ${white[0]}`));
  assert.match((await command(page, 'board top left')).at(-1), /^Rows? /);
  assert.match((await command(page, 'last 2')).at(-1), new RegExp(`^Move 1: Black E5\\. Move 2: White ${white}\\.$`));
  assert.equal((await command(page, 'captures')).at(-1), 'Prisoners: Black has taken 0, White 0.');
  assert.match((await command(page, 'clock')).at(-1),
    /^Black, reader: \d+ minutes?( \d+ seconds?)? of main time, then 5 periods of 30 seconds\. White, gnugo-easy: .* Black's clock is running\.$/);
  assert.equal((await command(page, 'ko')).at(-1), 'There is no ko to wait for now.');
  assert.equal((await command(page, 'score')).at(-1), 'The game is not being counted. The count comes after two passes in a row.');
  assert.equal((await command(page, 'e5')).at(-1), 'E5 is taken: play on an empty point.');
  assert.equal((await command(page, 'z9')).at(-1), 'Z9 is not a point on this board.');
  assert.equal((await command(page, 'xyzzy')).at(-1), 'I do not know “xyzzy”. Type help for the commands.');
  assert.equal((await command(page, 'resign')).at(-1), 'Really resign? Type resign again to resign; anything else does not.');
  assert.match((await command(page, 'who')).at(-1), /^Black: reader/, 'another command: no resignation');

  step('time warnings: the page\'s clock moved on, the player\'s time is said at 30 and 20 seconds and each period');
  {
    // A second page of the same player, its clock under the test's control (Playwright's clock);
    // the server's time is untouched, so nothing is flagged.
    const clocked = await browser.newContext({ viewport: { width: 1200, height: 900 }, storageState: await page.context().storageState() });
    const timed = await clocked.newPage();
    timed.setDefaultTimeout(TIMEOUT_MS);
    timed.on('pageerror', (e) => failures.push(`timed: ${e.message}`));
    await timed.clock.install();
    await timed.goto(gameUrl);
    await timed.locator('.blind-console').waitFor();
    await timed.locator('.player.black.clock-running').waitFor();
    const left = async () => Number(await timed.evaluate(() => {
      const [m, s] = document.querySelector('.player.black .clock-main').textContent.split(':').map(Number);
      return m * 60 + s;
    }));
    const said = async (text) => {
      await timed.waitForFunction((t) => document.querySelector('.blind-alert')?.textContent === t, text);
      const alert = await spoken(timed, 'alert', null);
      assert.ok(alert?.includes(text), `the alert says "${text}" in the accessibility tree (${JSON.stringify(alert)})`);
    };
    await timed.clock.fastForward((await left() - 25) * 1000);
    await said('30 seconds left.');
    await timed.clock.fastForward(6000);
    await said('20 seconds left.');
    await timed.clock.fastForward(20000);  // main time gone: the first period runs
    await timed.clock.fastForward(21000);
    await said('10 seconds left.');
    await timed.clock.fastForward(10000);
    await said('4 periods left.');
    await clocked.close();
  }

  step('another move, then passes until the bot passes too and the count begins');
  for (const v of ['c3', 'g7', 'c7', 'g3', 'e3', 'e7']) {
    const answer = (await command(page, v)).at(-1);
    if (/^You played/.test(answer)) break;
  }
  for (let passes = 0; passes < 40; passes++) {
    const state = await (await page.waitForFunction(() => {
      const texts = [...document.querySelectorAll('.blind-log p')].map((p) => p.textContent);
      if (texts.some((t) => t.startsWith('Both passed'))) return 'counting';
      return texts.at(-1).endsWith('Your move.') ? 'move' : null;
    })).jsonValue();
    if (state === 'counting') break;
    await command(page, 'pass');
  }
  const counting = await heard(page, /^Both passed: the game is counted\./);
  assert.match(counting, /^Both passed: the game is counted\. (No stones are marked dead\.|Marked dead: .+\.) (White|Black) ahead by [\d.]+\. Type score for the count, mark D4 to change a group, accept to agree, resume to play on\.$/);

  step('the count read aloud, accepted; the result said in the player\'s words');
  const score = await ask(page, 'score', /^Count:/);
  assert.match(score, /^Count: Black \d+, White [\d.]+\. White ahead by [\d.]+\. Black: territory \d+, prisoners \d+\. White: territory \d+, prisoners \d+, komi [\d.]+\. (No stones are marked dead\.|Marked dead: .+\.)$/);
  const counted = await ask(page, 'board', /^Rows? /);
  assert.equal(/\(dead\)/.test(counted), /Marked dead:/.test(score), `the board says which stones are dead: ${counted}`);
  assert.match(counted, /white territory [A-J]/, `the board says where the territory is: ${counted}`);
  await heard(page, /^gnugo-easy accepted the count\.$/);
  await command(page, 'accept', { until: /^Game over:/ });
  const over = await heard(page, /^Game over:/);
  assert.match(over, /^Game over: gnugo-easy won by [\d.]+ points\.$/);
  await page.locator('.result-banner').waitFor();
  console.log(`heard: ${over}`);
  assert.match((await command(page, 'score')).at(-1), /^Count: Black \d+, White [\d.]+\. gnugo-easy won by [\d.]+ points\. Black: /);
  await page.screenshot({ path: join(artifacts, 'blind-game.png') });
  await assertAccessible(page, 'a finished game in blind mode');
  assert.equal(await page.locator('.toast').count(), 0, 'no toast in the whole game');

  step('against a person: their moves announced with captures and ataris, a ko, a take-back allowed, resigning');
  const { challenge } = await commandIn(sighted, { type: 'create_challenge', opponent: 'reader', settings: { width: 9, color: 'white' } });
  const { game } = await commandIn(page, { type: 'accept_challenge', challenge });
  await page.goto(`${url}/#/game/${game}`);
  await heard(page, /^Black: reader.*White: sighted.*You are Black\. Black to move\.$/);
  const their = (vertex) => commandIn(sighted, { type: 'play', game, vertex });
  // Black surrounds D4 on three sides, White E4 on three; White's D4 then has one liberty.
  for (const [mine, theirs] of [['c4', 'F4'], ['d5', 'E5'], ['d3', 'E3'], ['g7', 'D4']]) {
    await command(page, mine, { until: /^You played/ });
    await their(theirs);
  }
  assert.equal(await heard(page, /^White D4\./), 'White D4. White stone at D4 in atari, last liberty E4. Your move.');
  await command(page, 'e4', { until: /^You played E4/ });
  assert.equal(await heard(page, /^You played E4/), 'You played E4. Took 1 stone: D4. Black stone at E4 in atari, last liberty D4.');
  assert.equal((await command(page, 'ko')).at(-1), 'Ko: White may not take back at D4 on this move.');
  assert.equal((await command(page, 'captures')).at(-1), 'Prisoners: Black has taken 1, White 0.');
  assert.equal((await command(page, 'last 2')).at(-1), 'Move 8: White D4. Move 9: Black E4. Took 1 stone: D4.');
  assert.equal((await command(page, 'd4')).at(-1), "It is sighted's move.");
  await their('G3');
  await heard(page, /^White G3\. Your move\.$/);
  assert.equal((await command(page, 'ko')).at(-1), 'There is no ko to wait for now.');
  assert.equal((await command(page, 'say Good luck!')).at(-1), 'You said: Good luck!');
  await commandIn(sighted, { type: 'chat', game, text: 'thanks' });
  await heard(page, /^sighted says: thanks$/);
  await commandIn(sighted, { type: 'undo_request', game });
  assert.equal(await heard(page, /asks to take back/), 'sighted asks to take back their last move: type allow or refuse.');
  await command(page, 'allow', { until: /allowed|took back|undo/i });
  await page.waitForFunction(() => document.querySelector('.game')?.dataset.moves === '9');
  assert.equal((await command(page, 'last')).at(-1), 'Move 9: Black E4. Took 1 stone: D4.');
  assert.equal((await command(page, 'refuse')).at(-1), 'Your opponent has not asked to take back a move.');
  await command(page, 'resign');
  await command(page, 'resign', { until: /^Game over:/ });
  assert.equal(await heard(page, /^Game over:/), 'Game over: sighted won by resignation.');

  step('a nigiri by command: the accepter guesses, the colours are said; the game aborted');
  {
    const { challenge: drawn } = await commandIn(sighted, { type: 'create_challenge', opponent: 'reader', settings: { width: 9, color: 'nigiri', rated: false } });
    const { game: third } = await commandIn(page, { type: 'accept_challenge', challenge: drawn });
    await page.goto(`${url}/#/game/${third}`);
    await heard(page, /^Nigiri: sighted holds a handful of white stones, reader guesses odd or even; a right guess takes Black\. Type nigiri odd or nigiri even\.$/);
    assert.equal((await command(page, 'nigiri')).at(-1), 'Type nigiri odd or nigiri even.');
    assert.equal((await command(page, 'e5')).at(-1), 'The colours are not drawn yet: type nigiri.');
    await command(page, 'nigiri odd');
    await commandIn(sighted, { type: 'nigiri', game: third, seed: 'holder-seed' });
    const colours = await heard(page, /^Black: .*\. White: .*\. You are (Black|White)\./);
    assert.match(colours, /^Black: (reader|sighted)\. White: (sighted|reader)\. You are (Black|White)\.( Your move\.)?$/);
    await command(page, 'abort', { until: /^Game over:/ });
    const aborted = await heard(page, /^Game over:/);
    console.log(`heard: ${aborted}`);
    assert.equal(aborted, 'Game over: No result (void).');
    assert.equal((await command(page, 'abort')).at(-1), 'The game can be aborted only by its players, before both have moved.');
  }

  step('every page in blind mode: axe, and at 200% zoom nothing runs off the side');
  const pages = [['#/', 'the lobby'], ['#/login', 'the account page'], ['#/games', 'finished games'], ['#/tournaments', 'tournaments'], ['#/learn', 'the rules course'],
    ['#/user/reader', 'the profile'], [new URL(gameUrl).hash, 'the game']];
  for (const [hash, name] of pages) {
    await page.goto(`${url}/${hash}`);
    await page.locator('#view > *').first().waitFor();
    await page.locator('#view h1').first().waitFor({ state: 'attached' });
    assert.equal(await page.locator('h1').count(), 1, `${name}: one h1, where a screen reader's list of headings starts`);
    await assertAccessible(page, `${name} in blind mode`);
  }
  // 200%: the same window with every CSS pixel twice as large (a 1200×900 window seen at 600×450).
  const zoomed = await newPage('zoomed', { viewport: { width: 600, height: 450 }, deviceScaleFactor: 2, storageState: await page.context().storageState() });
  await zoomed.addInitScript(() => localStorage.setItem('tengen-blind', 'on'));
  for (const [hash, name] of pages) {
    await zoomed.goto(`${url}/${hash}`);
    await zoomed.locator('#view > *').first().waitFor();
    if (hash.startsWith('#/game/')) await zoomed.locator('.blind-log p').first().waitFor();
    const overflow = await zoomed.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `${name} at 200%: ${overflow} px run off the side`);
    await assertAccessible(zoomed, `${name} at 200% zoom`);
  }
  await zoomed.screenshot({ path: join(artifacts, 'blind-game-200.png'), fullPage: true });

  step('the review of the game, by keyboard, in blind mode');
  await page.goto(gameUrl);
  await page.locator('button.open-review').focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/#\/review\/\d+$/);
  await page.locator('.review-room').waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'blind-command');
  assert.equal(await heard(page, /captures: Black \d+, White \d+\.$/), 'The start, Black to play, captures: Black 0, White 0.');
  assert.equal((await command(page, 'back')).at(-1), 'There is no move that way.');
  assert.match((await command(page, 'end')).at(-1), /^Move \d+, (Black|White) passes, (Black|White) to play, captures: Black \d+, White \d+\.$/);
  assert.equal((await command(page, 'first')).at(-1), 'The start, Black to play, captures: Black 0, White 0.');
  assert.equal((await command(page, 'next')).at(-1), 'Move 1, Black E5, White to play, captures: Black 0, White 0.');
  assert.equal((await command(page, 'point e5')).at(-1), 'E5: Black, a single stone, 4 liberties.');
  assert.match((await command(page, 'ko')).at(-1), /^“ko” does not work on this page\./);
  // The review's owner has control: a typed point plays a stone there (a new variation).
  assert.equal((await command(page, 'a1', { until: /^Move 2/ })).at(-1), 'Move 2, White A1, Black to play, captures: Black 0, White 0.');
  assert.equal((await command(page, 'e5')).at(-1), 'Occupied: there is already a stone on E5.');
  await assertAccessible(page, 'a review in blind mode');

  step('low vision: a high-contrast board, shapes on the stones, large coordinates');
  await page.evaluate(() => {
    localStorage.setItem('tengen-board', 'contrast');
    localStorage.setItem('tengen-stones', 'marked');
    localStorage.setItem('tengen-coords', 'large');
  });
  await page.goto(gameUrl);
  await page.reload();
  await page.locator('.board .stone.white').first().waitFor();
  const look = await page.evaluate(() => ({
    board: getComputedStyle(document.querySelector('.board .wood')).fill,
    black: getComputedStyle(document.querySelector('.board .stone.black .body')).fill,
    mark: getComputedStyle(document.querySelector('.board .stone.white .shape-mark')).display,
    coords: parseFloat(getComputedStyle(document.querySelector('.board .coords text')).fontSize),
  }));
  assert.deepEqual(look, { board: 'rgb(255, 255, 255)', black: 'rgb(0, 0, 0)', mark: 'inline', coords: 0.54 });
  await page.locator('.board').screenshot({ path: join(artifacts, 'blind-contrast-board.png') });
  await assertAccessible(page, 'the high-contrast board');

  step('blind mode off again, from the same link');
  await page.locator('#blind-link').focus();
  await page.keyboard.press('Enter');
  await page.locator('#blind-link:not(.on)').waitFor({ state: 'attached' });
  assert.equal(await page.locator('.blind-console').count(), 0);
  assert.equal(await page.evaluate(() => localStorage.getItem('tengen-blind')), 'off');

  assert.deepEqual(failures, [], 'no page errors');
  console.log('blind mode: a whole game by command box, every answer read from the accessibility tree');
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
