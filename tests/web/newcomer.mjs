// A newcomer's first game, end to end: the real server binary with its own bots (GNU Go through
// tengen-gtp-bridge, as ./scripts/serve starts them), Debian's chromium driven by playwright-core.
// A guest is welcomed; on a 390×844 phone with touch they create an account, play gnugo-easy on
// 9×9 by tapping (a first tap shows the stone, a second plays it), pass until the bot passes,
// accept the count and read the result in their own words. On a desktop, two players find each
// other by quick match. Nothing sleeps: every wait is for something on the page.
//
//   node tests/web/newcomer.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('newcomer');
const TIMEOUT_MS = 30000;  // GNU Go answers in well under a second on 9×9 at level 1
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'on'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options) => openPage(browser, failures, label, { expected: /401/, timeout: TIMEOUT_MS, ...options });
const register = (page, name) => registerIn(page, url, name);
const axeChecked = [];
async function accessible(page, name) {
  await assertAccessible(page, name);
  axeChecked.push(name);
}
// Whether an element lies wholly inside the viewport (no scrolling needed to see it).
// Found and measured in one step in the page: a panel re-rendered meanwhile (the bot's acceptance
// redraws the scoring panel) has replaced its buttons, and an element found first and measured
// after is then a detached one, with no box.
async function inView(page, selector, text = '') {
  return page.evaluate(([selector, text]) => {
    const el = [...document.querySelectorAll(selector)].find((e) => e.textContent.includes(text));
    const box = el?.getBoundingClientRect();
    return !!box && box.width > 0 && box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
  }, [selector, text]);
}

let exitCode = 0;
try {
  step('a guest on a phone is welcomed and told how to start');
  const phone = await newPage('phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  await phone.goto(`${url}/`);
  await phone.locator('.welcome h2', { hasText: 'Welcome to Tengen' }).waitFor();
  await phone.screenshot({ path: join(artifacts, 'newcomer-guest-phone.png') });
  await accessible(phone, 'the lobby, as a guest on a phone');
  await phone.locator('.welcome a', { hasText: 'Create an account' }).tap();
  await phone.waitForURL(/#\/register$/);
  await phone.locator('#register-username').waitFor();
  // The form they came for comes first (it once opened on Log in), with the focus on the page.
  assert.equal(await phone.locator('.account-form').first().getAttribute('class'), 'card account-form register');
  assert.equal(await phone.evaluate(() => document.activeElement?.id), 'view');
  await accessible(phone, 'the sign-up page');

  step('they create an account and find the bots in the lobby');
  await register(phone, 'newcomer');
  await phone.locator('.play-bot li', { hasText: 'gnugo-easy' }).waitFor();
  for (const bot of ['gnugo-medium', 'gnugo-strong']) await phone.locator('.play-bot li', { hasText: bot }).waitFor();
  await phone.screenshot({ path: join(artifacts, 'newcomer-lobby-phone.png') });
  await accessible(phone, 'the lobby with the bots, on a phone');

  step('one tap starts a 9×9 game against gnugo-easy; the board fills the screen, the controls are in view');
  await phone.locator('.play-bot li', { hasText: 'gnugo-easy' }).locator('button', { hasText: '9×9' }).tap();
  await phone.waitForURL(/#\/game\/\d+$/);
  await phone.locator('.status', { hasText: 'Your move.' }).waitFor();
  assert.match(await phone.title(), /^● Your move · newcomer vs gnugo-easy/);
  assert.equal(await phone.locator('link[rel=icon]').getAttribute('href'), 'favicon-turn.svg');
  await phone.locator('.first-move', { hasText: 'Make your first move within' }).waitFor();
  const board = await phone.locator('.board').boundingBox();
  assert.ok(board.width >= 370, `the board is ${board.width} px wide on a 390 px screen`);
  for (const [what, text] of [['.controls button', 'Pass'], ['.controls button', 'Resign'], ['.player.black .clock'], ['.player.white .clock']]) {
    assert.ok(await inView(phone, what, text), `${what} ${text ?? ''} is visible without scrolling`);
  }
  await phone.locator('.chat-line.bot-note', { hasText: 'gnugo-easy is a program (a bot)' }).waitFor();

  step('a first tap shows the stone, a second plays it; the bot answers');
  const tapPoint = (vertex) => phone.locator(`.board .hits [data-vertex="${vertex}"]`).tap();
  await tapPoint('E5');
  await phone.locator('.board .pending[data-pending="E5"]').waitFor();
  await phone.locator('.confirm-bar button', { hasText: 'Play E5' }).waitFor();
  assert.equal(await phone.locator('.board [data-stone="E5"]').count(), 0, 'one tap does not play');
  await phone.screenshot({ path: join(artifacts, 'newcomer-confirm-phone.png') });
  await accessible(phone, 'a game on a phone, a stone waiting for its second tap');
  await tapPoint('D5');  // changed their mind: the stone moves
  await phone.locator('.board .pending[data-pending="D5"]').waitFor();
  await tapPoint('D5');
  await phone.locator('.board .stone.black[data-stone="D5"]').waitFor();
  await phone.locator('.board .stone.white').first().waitFor();  // GNU Go's reply
  await phone.locator('.first-move').waitFor({ state: 'hidden' });
  await tapPoint('D5');  // taken: said under the board, nothing sent
  await phone.locator('.board-hint', { hasText: 'D5 is taken' }).waitFor();
  assert.equal(await phone.locator('.toast').count(), 0);
  await phone.screenshot({ path: join(artifacts, 'newcomer-game-phone.png') });

  step('the newcomer plays the Play button once, then passes until the bot passes too');
  await phone.locator('.status', { hasText: 'Your move.' }).waitFor();
  const empty = async () => {
    for (const v of ['C3', 'G7', 'C7', 'G3', 'E3', 'E7', 'C5', 'G5', 'B2', 'H8']) {
      if (await phone.locator(`.board [data-stone="${v}"]`).count() === 0) return v;
    }
    return null;
  };
  const next = await empty();
  await tapPoint(next);
  await phone.locator('.confirm-bar button', { hasText: `Play ${next}` }).tap();
  await phone.locator(`.board .stone.black[data-stone="${next}"]`).waitFor();
  for (let passes = 0; passes < 40; passes++) {
    const where = await (await phone.waitForFunction(() => {
      if (document.querySelector('.panel.scoring:not([hidden])')) return 'scoring';
      const pass = [...document.querySelectorAll('.controls button')].find((b) => b.textContent === 'Pass');
      return pass && !pass.disabled && document.querySelector('.status')?.textContent.includes('Your move.') ? 'move' : null;
    })).jsonValue();
    if (where === 'scoring') break;
    const moves = Number(await phone.locator('.game').getAttribute('data-moves'));
    // The bot's pass and the scoring phase come as two messages: between them it looked like our move.
    const scoring = phone.locator('.panel.scoring').waitFor().then(() => 'scoring');
    if (await Promise.race([phone.locator('.controls button', { hasText: 'Pass' }).tap().catch(() => 'gone'), scoring]) === 'scoring') break;
    // The pass is in (the bot may answer at once: then "Your move." again means its reply).
    await phone.waitForFunction((n) => Number(document.querySelector('.game')?.dataset.moves) > n || document.querySelector('.panel.scoring:not([hidden])'), moves);
  }
  await phone.locator('.panel.scoring').waitFor();

  step('counting: the bot accepts its marking, the newcomer accepts, the result is in their words');
  const accept = phone.locator('.scoring button', { hasText: 'Accept score' });
  assert.ok(await inView(phone, '.scoring button', 'Accept score'), 'the scoring buttons are visible without scrolling');
  await phone.locator('.acceptances .accepted', { hasText: 'gnugo-easy' }).waitFor();
  await accept.tap();
  const banner = phone.locator('.result-banner');
  await banner.waitFor();
  const words = await banner.textContent();
  const result = await banner.getAttribute('data-result');
  console.log(`result: ${result} (${words})`);
  assert.match(result, /^W\+\d+(\.5)?$/, 'GNU Go wins a game its opponent passed away');
  assert.match(words, /^gnugo-easy won by \d+(\.5)? points\.$/);
  assert.equal(await phone.title(), `newcomer vs gnugo-easy · Tengen`);
  // A pass that crossed the bot's (the game was already being counted) is said under the board.
  assert.equal(await phone.locator('.toast').count(), 0, 'no toast in the whole game');
  await phone.screenshot({ path: join(artifacts, 'newcomer-result-phone.png') });
  await accessible(phone, 'a finished game with its count, on a phone');

  step('on a desktop, two players find each other by quick match');
  // ann's system prefers dark colours: the page follows.
  const ann = await newPage('ann', { viewport: { width: 1280, height: 860 }, colorScheme: 'dark' });
  const ben = await newPage('ben', { viewport: { width: 1280, height: 860 } });
  await register(ann, 'ann');
  await register(ben, 'ben');
  // A newcomer's quick match is 9×9 until they choose otherwise.
  assert.equal(await ann.locator('.quick-match .choice[aria-pressed=true]').first().innerText(), '9×9');
  for (const p of [ann, ben]) {
    await p.locator('.quick-match .choice', { hasText: '9×9' }).click();
    await p.locator('.quick-match .choice', { hasText: 'Blitz' }).click();
  }
  await ann.locator('.quick-match button', { hasText: 'Find an opponent' }).click();
  await ann.locator('.quick-match .seeking', { hasText: 'Looking for an opponent for 9×9 blitz' }).waitFor();
  await ann.screenshot({ path: join(artifacts, 'quick-match-seeking.png') });
  await accessible(ann, 'the lobby while waiting for a quick match, on a desktop');
  await ben.locator('.quick-match button', { hasText: 'Find an opponent' }).click();
  for (const p of [ann, ben]) {
    await p.waitForURL(/#\/game\/\d+$/);
    await p.locator('.game-settings', { hasText: '9×9' }).waitFor();
    await p.locator('.game-settings', { hasText: 'rated' }).waitFor();
  }
  assert.equal(ann.url(), ben.url(), 'the same game');
  await ann.locator('.status', { hasText: /Your move|to move/ }).waitFor();
  await ben.locator('.status', { hasText: /Your move|to move/ }).waitFor();
  const black = (await ann.locator('.status').textContent()).includes('Your move.') ? ann : ben;
  await black.locator('.board .hits [data-vertex="E5"]').click();
  for (const p of [ann, ben]) await p.locator('.board .stone.black[data-stone="E5"]').waitFor();
  assert.equal(await ann.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(28, 25, 21)', 'dark, as the system prefers');
  await ann.screenshot({ path: join(artifacts, 'game-dark.png') });
  await accessible(ann, 'a game in play, in dark colours, on a desktop');

  step('ben chooses a slate board and flat stones in the Display menu; the choice outlives a reload');
  await ben.locator('#display-menu summary').click();
  await ben.locator('#display-board').selectOption('slate');
  await ben.locator('#display-stones').selectOption('flat');
  await ben.locator('#display-theme').selectOption('dark');
  await ben.reload();
  await ben.locator('.board .stone').first().waitFor();
  assert.deepEqual(await ben.evaluate(() => ({ ...document.documentElement.dataset })), { theme: 'dark', board: 'slate', stones: 'flat' });
  assert.equal(await ben.locator('.board rect.wood').first().evaluate((r) => getComputedStyle(r).fill), 'rgb(91, 103, 112)');
  await ben.screenshot({ path: join(artifacts, 'game-slate-flat.png') });
  for (const [path, ready, name] of [['#/games', '.game-list', 'the finished games'], ['#/user/newcomer', '.profile', 'a profile'],
    ['#/tournaments', '.tournament-list', 'the tournaments']]) {
    await ben.goto(`${url}/${path}`);
    await ben.locator(ready).first().waitFor();
    await accessible(ben, name);
  }
  console.log(`axe-core: no serious or critical violations on ${axeChecked.length} pages: ${axeChecked.join('; ')}`);

  if (failures.length) throw new Error(`errors in the pages: ${failures.join('; ')}`);
  console.log('newcomer e2e: passed');
} catch (err) {
  exitCode = 1;
  console.error(err);
  for (const [c, ctx] of browser.contexts().entries()) {
    for (const [i, page] of ctx.pages().entries()) {
      await page.screenshot({ path: join(artifacts, `newcomer-failure-${c}-${i}.png`), fullPage: true }).catch(() => {});
    }
  }
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
