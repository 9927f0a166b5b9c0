// A club championship played half at the club and half online (docs/tournaments.md, "Results
// from the players" and "Hybrid rounds"), as people do it in the browser: a round robin over the
// board of four members, round 1 with one table put on the server by the director, the players
// of the other tables reporting their results on their phones (the same result twice: it counts),
// then in round 2 two players who disagree, the dispute shown to them and to the director, who
// decides. The real server binary and Debian's chromium; nothing sleeps.
//
//   node tests/web/hybrid.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('hybrid');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

try {
  step('the director creates an over-the-board round robin');
  const td = await openPage(browser, failures, 'director', { expected: /40[01]|409/ });
  await registerIn(td, url, 'director');
  await td.click('[data-nav=tournaments]');
  const tf = td.locator('form.tournament-form');
  await tf.locator('#tf-name').fill('Club championship');
  await tf.locator('#tf-system').selectOption('round_robin');
  await tf.locator('#tf-otb').check();
  await tf.locator('#tf-country').fill('NL');
  await tf.locator('#tf-city').fill('Delft');
  await tf.locator('button[type=submit]').click();
  await td.waitForURL(/#\/tournament\/\d+$/);
  const tournamentUrl = td.url();
  const id = Number(tournamentUrl.split('/').pop());

  step('four members register: two on phones (one in Dutch), two at a desk');
  const pages = {};
  for (const [name, options] of [['wim', { ...phone, locale: 'nl-NL' }], ['kim', phone], ['zoe', {}], ['lou', {}]]) {
    const page = await openPage(browser, failures, name, options);
    await registerIn(page, url, name);
    await page.goto(tournamentUrl);
    await page.click('.tournament-actions button.primary');
    await td.locator('.entrants a', { hasText: name }).waitFor();
    pages[name] = page;
  }
  const view = () => td.evaluate(async (path) => (await fetch(path)).json(), `/api/v1/tournaments/${id}`);

  step('round 1: table 1 is played on the server, table 2 at the club');
  await td.click('.director button:has-text("Start now")');
  await td.locator('.director button', { hasText: 'Publish round 1' }).waitFor();
  await td.click('.online-tables summary');
  await td.locator('.online-tables label', { hasText: /^ ?Table 1: / }).locator('input').check();
  // The page redraws on every change (here the round paired again): the tick stays.
  await td.click('.director button:has-text("Pair round 1 again")');
  await td.locator('.audit summary', { hasText: '(7)' }).waitFor();
  assert.ok(await td.locator('.online-tables[open] label', { hasText: /^ ?Table 1: / }).locator('input').isChecked());
  await td.screenshot({ path: join(artifacts, 'hybrid-publish.png'), fullPage: true });
  await td.click('.director button:has-text("Publish round 1")');
  await td.locator('.result-grid h3', { hasText: 'Results of round 1' }).waitFor();
  let round = (await view()).round_list[0];
  const online = round.games[0];
  const club = round.games[1];
  assert.equal(typeof online.game, 'number', 'table 1 has a game on the server');
  assert.equal(club.game, null, 'table 2 is played on a physical board');
  // Table 1's players are taken to their game, as in an online tournament; its row in the
  // director's grid says "online".
  for (const side of ['black', 'white']) await pages[online[side].name].waitForURL(new RegExp(`#/game/${online.game}$`));
  await td.locator('.result-grid tbody tr').first().locator('.players-say a', { hasText: 'online' }).waitFor();
  // Back on the tournament page, the table links to the game and asks for no report.
  const back = pages[online.white.name];
  await back.goto(tournamentUrl);
  await back.locator('.my-game a.button').waitFor();
  assert.equal(await back.locator('.my-game a.button').getAttribute('href'), `#/game/${online.game}`);
  assert.equal(await back.locator('.report-result').count(), 0, 'no report for a game on the server');
  await commandIn(pages[online.black.name], { type: 'resign', game: online.game });
  await td.locator('.round[data-round="1"] tbody tr').first().locator('td', { hasText: 'White wins' }).waitFor();
  await pages[online.black.name].goto(tournamentUrl);

  // Table 2: Black says "I won", White "I lost": it counts.
  const black = pages[club.black.name];
  const white = pages[club.white.name];
  await black.locator('.report-buttons button').first().click();
  await black.locator('.report-status', { hasText: new RegExp(club.white.name) }).waitFor();
  await td.locator('.result-grid tbody tr').nth(1).locator('.players-say', { hasText: 'Black: Black wins' }).waitFor();
  await black.screenshot({ path: join(artifacts, 'hybrid-reported.png'), fullPage: true });
  await assertAccessible(black, 'a player\'s report of their result');
  await white.locator('.report-buttons button').nth(1).click();
  // Both results in: round 2 is paired; the round's table shows the result to everyone.
  await td.locator('.director button', { hasText: 'Publish round 2' }).waitFor();
  await pages.wim.locator('.round[data-round="1"] tbody tr').nth(1).locator('td', { hasText: 'Zwart wint' }).waitFor();

  step('round 2, all at the club: one table agrees, the other disagrees and the director decides');
  await td.click('.director button:has-text("Publish round 2")');
  await td.locator('.result-grid h3', { hasText: 'Results of round 2' }).waitFor();
  round = (await view()).round_list[1];
  const [agree, dispute] = round.games;
  await pages[agree.black.name].locator('.report-buttons button').nth(2).click();  // jigo
  await pages[agree.white.name].locator('.report-buttons button').nth(2).click();
  await td.locator('.round[data-round="2"] tbody tr').first().locator('td', { hasText: 'Jigo' }).waitFor();
  await pages[dispute.black.name].locator('.report-buttons button').first().click();  // "I won"
  await pages[dispute.white.name].locator('.report-buttons button').first().click();  // "I won" too
  for (const name of [dispute.black.name, dispute.white.name]) await pages[name].locator('.report-result.disputed .report-status').waitFor();
  const disputedRow = td.locator('.result-grid tbody tr.disputed');
  await disputedRow.locator('.dispute-tag', { hasText: 'disputed' }).waitFor();
  assert.match(await disputedRow.locator('.players-say').innerText(), /Black: Black wins · White: White wins/);
  await td.screenshot({ path: join(artifacts, 'hybrid-dispute-director.png'), fullPage: true });
  await assertAccessible(td, 'the results grid with a dispute');
  const wimDisputes = [dispute.black.name, dispute.white.name].includes('wim');
  const disputer = pages[wimDisputes ? 'wim' : dispute.black.name];
  if (wimDisputes) await disputer.locator('.report-status', { hasText: 'de wedstrijdleider beslist' }).waitFor();
  await disputer.screenshot({ path: join(artifacts, 'hybrid-dispute-phone.png'), fullPage: true });
  // Nothing on the page is wider than the phone: a wide table scrolls in its own box.
  assert.equal(await pages.wim.evaluate(() => document.documentElement.scrollWidth), 390);
  // Everyone sees the table is disputed, not just waiting.
  await pages[agree.black.name].locator('.round[data-round="2"] tbody tr').nth(1).locator('td', { hasText: /disputed|betwist/ }).waitFor();
  await disputedRow.locator('button', { hasText: 'White wins' }).click();
  await td.locator('.director button', { hasText: 'Publish round 3' }).waitFor();
  // The player's page learns of the decision a moment after the director's does.
  await pages[dispute.black.name].locator('.report-result').first().waitFor({ state: 'detached' });
  assert.equal(await pages[dispute.black.name].locator('.report-result').count(), 0, 'decided: nothing left to report');

  step('the audit log says who reported what');
  const t = await view();
  const reported = t.audit.filter((a) => a.kind === 'reported');
  assert.equal(reported.length, 6);
  assert.deepEqual(new Set(reported.map((a) => a.by)), new Set(['wim', 'kim', 'zoe', 'lou']));
  assert.equal(t.audit.filter((a) => a.kind === 'result' && a.record.confirmed).length, 2);
  await td.click('.audit summary');
  await td.locator('.audit-log li', { hasText: /reported by \w+: round 2, table 2, White says: White wins/ }).waitFor();

  assert.deepEqual(failures, []);
  console.log('hybrid: ok');
} finally {
  await browser.close();
  await stopServer(server);
}
