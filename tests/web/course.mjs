// The web client in English, Dutch and German, and the rules course solved in each: the real
// server binary and Debian's chromium (playwright-core). The browser's language chooses the
// page's (a context per locale); every lesson's exercises are answered on the board and judged
// by the server's rules engine — a wrong move first, where it says so; refusals (suicide, ko)
// are the server's reasons in the page's words. A game, the lobby and a lesson are photographed
// in each language; no catalog key may show as text; the Display menu switches the language and
// it is remembered. Nothing sleeps: every wait is for something on the page.
//
//   node tests/web/course.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn } from './harness.mjs';
import { LESSONS, GLOSSARY } from '../../web/js/course.js';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('course');
const step = (text) => console.log(`--- ${text}`);
const LOCALES = { en: 'en-GB', nl: 'nl-NL', de: 'de-DE' };
const catalogs = Object.fromEntries(Object.keys(LOCALES).map((code) =>
  [code, JSON.parse(readFileSync(join(webRoot, 'locales', `${code}.json`), 'utf8'))]));
// A message as the page shows it ({places} filled by the caller's values, numbers as Intl says).
function say(code, key, params = {}) {
  let m = catalogs[code][key];
  if (typeof m === 'object') m = m[new Intl.PluralRules(code).select(params.n ?? 0)] ?? m.other;
  return m.replace(/\{(\w+)\}/g, (w, name) => (name in params ? String(params[name]) : w));
}
// Any catalog key showing as text means a missing t() or a typo.
const PREFIXES = [...new Set(Object.keys(catalogs.en).map((k) => k.split('.')[0]))];
const RAW_KEY = new RegExp(`\\b(?:${PREFIXES.join('|')})\\.[a-z][\\w-]*(?:\\.[\\w-]+)*\\b`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];

const newPage = (code, label, options = {}) =>
  openPage(browser, failures, label, { locale: LOCALES[code], expected: /40[01]|422/, ...options });
async function noRawKeys(page, where) {
  const text = await page.locator('body').innerText();
  const found = RAW_KEY.exec(text);
  assert.equal(found, null, `a catalog key shows on ${where}: ${found?.[0]}`);
}
const register = (page, name) => registerIn(page, url, name);

// Clicks and waits for the exercise's verdict (the state is cleared first: a second wrong
// answer must be told again).
async function answer(section, click) {
  const feedback = section.locator('.exercise-feedback');
  await feedback.evaluate((el) => { el.dataset.state = ''; el.textContent = ''; });
  await click();
  await section.locator('.exercise-feedback:not([data-state=""])').waitFor();
  return { state: await feedback.getAttribute('data-state'), text: await feedback.innerText() };
}

async function solveCourse(page, code) {
  await page.goto(`${url}/#/learn`);
  await page.locator('.course-intro h1', { hasText: say(code, 'course.title') }).waitFor();
  for (const term of GLOSSARY) {
    assert.equal(await page.locator(`.glossary dt[data-term="${term}"]`).innerText(), say(code, `glossary.${term}`));
  }
  await noRawKeys(page, `${code} course index`);
  for (const lesson of LESSONS) {
    await page.goto(`${url}/#/learn/${lesson.id}`);
    await page.locator(`.lesson[data-lesson="${lesson.id}"] h1`, { hasText: say(code, `course.${lesson.id}.title`) }).waitFor();
    for (const [i, ex] of lesson.exercises.entries()) {
      const section = page.locator(`[data-exercise="${lesson.id}.${i + 1}"]`);
      if (ex.kind !== 'nigiri') await section.locator('.board .stone').first().waitFor();
      if (ex.kind === 'play') {
        if (lesson.id === 'liberties') {  // a move that captures nothing is said so, and the board set back
          const wrong = await answer(section, () => section.locator('[data-vertex="A1"]').click());
          assert.equal(wrong.state, 'wrong');
          assert.ok(wrong.text.includes(say(code, 'course.captures_nothing')), wrong.text);
        }
        const verdict = await answer(section, () => section.locator(`[data-vertex="${ex.solution}"]`).click());
        assert.equal(verdict.state, 'solved', `${code} ${lesson.id}.${i + 1}: ${verdict.text}`);
        // The server refused the move, and the page says why in its own words.
        if (ex.goal.refused) {
          const reason = lesson.id === 'suicide' ? 'suicide' : 'ko';
          assert.ok(verdict.text.includes(say(code, `error.illegal_move.${reason}`)), `${code}: ${verdict.text}`);
        }
      } else if (ex.kind === 'mark') {
        const unmarked = await answer(section, () => section.locator('.exercise-extra button').click());
        assert.equal(unmarked.state, 'wrong', 'counting with nothing marked');
        for (const v of ex.solution) {
          await section.locator(`[data-vertex="${v}"]`).click();
          await section.locator(`.stone.dead[data-stone="${v}"]`).waitFor();
        }
        const verdict = await answer(section, () => section.locator('.exercise-extra button').click());
        assert.equal(verdict.state, 'solved', `${code} ${lesson.id}: ${verdict.text}`);
      } else {  // choose, nigiri: the options in order until one is right
        let verdict = null;
        for (const option of ex.options) {
          verdict = await answer(section, () => section.locator(`[data-option="${option}"]`).click());
          if (verdict.state === 'solved') break;
          assert.equal(verdict.state, 'wrong', verdict.text);
        }
        assert.equal(verdict.state, 'solved', `${code} ${lesson.id}.${i + 1}: no option was right`);
        assert.equal(await section.locator('.choice[aria-pressed="true"]').count(), 1, 'the right answer stays marked');
      }
    }
    await page.locator('.lesson-nav.ready, .course-end').first().waitFor();
    await noRawKeys(page, `${code} lesson ${lesson.id}`);
    if (lesson.id === 'ko') await page.screenshot({ path: join(artifacts, `course-ko-${code}.png`), fullPage: true });
  }
  await page.locator('.course-end .play-nine, .course-end a[href="#/register"]').first().waitFor();
  await page.goto(`${url}/#/learn`);
  await page.locator('.lesson-link').first().waitFor();  // the course's module loads on demand
  assert.equal(await page.locator('.lesson-link.complete').count(), LESSONS.length, 'every lesson marked done');
}

try {
  for (const code of Object.keys(LOCALES)) {
    step(`${code}: the lobby in the browser's language`);
    const guest = await newPage(code, `${code} guest`);
    await guest.goto(`${url}/#/`);
    await guest.locator('[data-nav=learn]', { hasText: say(code, 'nav.learn') }).waitFor();
    assert.equal(await guest.getAttribute('html', 'lang'), code);
    await guest.locator('.welcome h2', { hasText: say(code, 'welcome.title') }).waitFor();
    await noRawKeys(guest, `${code} lobby`);
    await guest.screenshot({ path: join(artifacts, `lobby-${code}.png`) });

    step(`${code}: the rules course, every exercise`);
    await solveCourse(guest, code);

    step(`${code}: a server error in the page's words`);
    await guest.goto(`${url}/#/login`);
    await guest.fill('#register-username', `weak${code}`);
    await guest.fill('#register-password', '12345678');
    await guest.click('form.register button[type=submit]');
    const problem = guest.locator('form.register .form-error');
    await problem.filter({ hasText: /./ }).waitFor();
    if (code !== 'en') assert.equal(await problem.innerText(), say(code, 'error.weak_password'));

    step(`${code}: a game`);
    const black = await newPage(code, `${code} black`);
    const white = await newPage('en', `${code} white`);
    await register(black, `black${code}`);
    await register(white, `white${code}`);
    await black.goto(`${url}/#/`);
    await black.selectOption('#cf-color', 'black');
    await black.selectOption('#cf-size', '9');
    await black.fill('#cf-opponent', `white${code}`);
    await black.click('.challenge-form button[type=submit]');
    await white.goto(`${url}/#/`);
    await white.locator('.challenge.for-me button.primary').click();
    await black.waitForURL(/#\/game\/\d+$/);
    await black.locator('.board [data-vertex="E5"]').click();
    await black.locator('.status', { hasText: say(code, 'game.played', { name: say(code, 'common.black'), vertex: 'E5' }) }).waitFor();
    assert.equal(await black.locator('.controls button').first().innerText(), say(code, 'game.pass'));
    await black.locator('.game-title', { hasText: say(code, 'common.vs', { black: `black${code}`, white: `white${code}` }) }).waitFor();
    await noRawKeys(black, `${code} game`);
    await black.screenshot({ path: join(artifacts, `game-${code}.png`) });
    await black.context().close();
    await white.context().close();

    step(`${code}: a lesson and the glossary on a phone, and their accessibility`);
    const phone = await newPage(code, `${code} phone`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(`${url}/#/learn/dead`);
    await phone.locator('[data-exercise="dead.1"] .board .stone').first().waitFor();
    await phone.locator('[data-exercise="dead.1"] [data-vertex="B5"]').tap();
    await phone.locator('[data-exercise="dead.1"] .stone.dead[data-stone="B5"]').waitFor();
    // The verdict is brought into view (it was below the fold, under the board).
    const verdict = '[data-exercise="dead.1"] .exercise-feedback[data-state]';
    await phone.locator(verdict).waitFor();
    await phone.waitForFunction((sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }, verdict);
    await assertAccessible(phone, `${code} lesson on a phone`);
    await phone.screenshot({ path: join(artifacts, `course-dead-phone-${code}.png`), fullPage: true });
    await phone.goto(`${url}/#/learn`);
    await phone.locator('.glossary dt').first().waitFor();
    await assertAccessible(phone, `${code} course index on a phone`);
    await phone.screenshot({ path: join(artifacts, `course-index-phone-${code}.png`), fullPage: true });

    step(`${code}: the local board on a phone, in the page's words, and its accessibility`);
    await phone.goto(`${url}/#/local`);
    await phone.locator('form.local-setup').waitFor();
    await assertAccessible(phone, `${code} local board's setup`);
    await phone.locator('form.local-setup button[type=submit]').tap();
    await phone.locator('.local .status', { hasText: say(code, 'local.black_to_play') }).waitFor();
    await phone.locator('.local-board [data-vertex="C3"]').tap();
    await phone.locator('.local .status', { hasText: say(code, 'local.white_to_play') }).waitFor();
    await noRawKeys(phone, `${code} local board`);
    await assertAccessible(phone, `${code} local board`);
    await phone.screenshot({ path: join(artifacts, `local-phone-${code}.png`), fullPage: true });
    await phone.context().close();

    if (code === 'nl') {
      step('nl: the Display menu switches to German, and it is remembered');
      await guest.goto(`${url}/#/`);
      await guest.click('#display-menu summary');
      await Promise.all([guest.waitForEvent('load'), guest.selectOption('#display-language', 'de')]);
      await guest.locator('[data-nav=learn]', { hasText: say('de', 'nav.learn') }).waitFor();
      await guest.reload();
      await guest.locator('[data-nav=learn]', { hasText: say('de', 'nav.learn') }).waitFor();
      assert.equal(await guest.getAttribute('html', 'lang'), 'de');
    }
    await guest.context().close();
  }
  assert.deepEqual(failures, [], 'errors on the pages');
  step('passed');
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await browser.close();
  const code = await stopServer(server);
  if (code !== 0 && code !== null) {
    console.error(`the server exited with ${code}`);
    process.exitCode = 1;
  }
  rmSync(dir, { recursive: true, force: true });
}
