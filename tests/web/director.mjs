// A tournament director's evening (docs/tournaments.md, "Over the board"), as a person does it in
// the browser: an over-the-board McMahon created from the form, players without accounts added
// from the keyboard, the first round published with its tables, results typed as "table and
// result" or clicked, a player on a phone watching the standings follow live, and the EGD file
// downloaded. The real server binary and Debian's chromium; nothing sleeps.
//
//   node tests/web/director.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('director');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

try {
  step('the director creates an over-the-board McMahon from the form');
  const td = await openPage(browser, failures, 'director', { expected: /40[01]|409/ });
  const watcher = await openPage(browser, failures, 'watcher', { ...phone, locale: 'nl-NL' });
  await registerIn(td, url, 'director');
  await registerIn(watcher, url, 'wim');
  await td.click('[data-nav=tournaments]');
  const tf = td.locator('form.tournament-form');
  await tf.locator('#tf-name').fill('Leiden club championship');
  await tf.locator('#tf-rounds').fill('3');
  assert.ok(await tf.locator('#tf-country').isHidden(), 'the place is asked only over the board');
  await tf.locator('#tf-otb').check();
  await tf.locator('#tf-country').fill('nl');
  await tf.locator('#tf-city').fill('Leiden');
  assert.ok(await tf.locator('#tf-no_show').isHidden(), 'no no-show time on physical boards');
  await tf.locator('button[type=submit]').click();
  await td.waitForURL(/#\/tournament\/\d+$/);
  const tournamentUrl = td.url();
  const id = Number(tournamentUrl.split('/').pop());
  await td.locator('.otb-note', { hasText: 'Over the board · Leiden, NL' }).waitFor();

  step('six players without accounts, typed in one after another');
  const players = [['de Vries', 'Anna', '3d', 'Leid', 'NL', '12345678'], ['Müller', 'Jonas', '1k', 'Bonn', 'DE', ''],
    ['Peeters', 'Lotte', '5k', 'Gent', 'BE', ''], ['Jansen', 'Piet', '8k', 'Leid', 'NL', ''],
    ['Bakker', 'Sanne', '12k', 'Amst', 'NL', ''], ['Smit', 'Tom', '15k', '', '', '']];
  for (const [family, given, rank, club, country, pin] of players) {
    await td.fill('#ta-family_name', family);
    await td.fill('#ta-given_name', given);
    await td.locator('#ta-rank').selectOption(rank);
    await td.fill('#ta-club', club);
    await td.fill('#ta-country', country);
    await td.fill('#ta-egd_pin', pin);
    await td.press('#ta-egd_pin', 'Enter');
    await td.locator('.entrants', { hasText: `${family} ${given}` }).waitFor();
    // The form is ready for the next one.
    await td.waitForFunction(() => document.activeElement?.id === 'ta-family_name' && !document.getElementById('ta-family_name').value);
  }
  await td.locator('.entrants', { hasText: 'de Vries Anna 3d (Leid, NL)' }).waitFor();
  // A name registered twice is refused in words.
  await td.fill('#ta-family_name', 'Smit');
  await td.fill('#ta-given_name', 'Tom');
  await td.press('#ta-given_name', 'Enter');
  await td.locator('.tournament-page .form-error', { hasText: "'Smit Tom' is registered already" }).waitFor();
  await td.screenshot({ path: join(artifacts, 'director-registration.png'), fullPage: true });
  await assertAccessible(td, 'registration over the board');

  step('the watcher (a phone, Dutch) follows the tournament page');
  await watcher.goto(tournamentUrl);
  await watcher.locator('.entrants', { hasText: 'Smit Tom' }).waitFor();
  // Players without accounts have no profile to link to.
  assert.equal(await watcher.locator('.entrants a', { hasText: 'Smit Tom' }).count(), 0);
  // A player with an account registers on the page, as for any tournament: seven players.
  await watcher.click('.tournament-actions button.primary');
  await td.locator('.entrants a', { hasText: 'wim' }).waitFor();

  step('start: round 1 is paired but not published until the director says so');
  await td.click('.director button:has-text("Start now")');
  await td.locator('.round h3', { hasText: 'paired, not published yet' }).waitFor();
  await watcher.locator('.round h3', { hasText: 'ingedeeld, nog niet bekendgemaakt' }).waitFor();
  await td.click('.director button:has-text("Publish round 1")');
  // On his phone, wim reads where he sits.
  await watcher.locator('.my-table', { hasText: /^Ronde 1: je speelt (zwart|wit) aan tafel [123] tegen / }).waitFor();
  await td.locator('.result-grid h3', { hasText: 'Results of round 1' }).waitFor();
  await td.locator('.round th', { hasText: 'Table' }).first().waitFor();

  step('results: typed as table and result, a mistake refused, one clicked');
  const quick = td.locator('#td-quick');
  await quick.fill('9b');
  await quick.press('Enter');
  await td.locator('.tournament-page .form-error', { hasText: '“9b” is not a table of this round' }).waitFor();
  await quick.fill('1b');
  await quick.press('Enter');
  await td.locator('.result-grid tbody tr.entered').first().waitFor();
  await td.waitForFunction(() => document.activeElement?.id === 'td-quick' && !document.getElementById('td-quick').value);  // ready for the next
  await watcher.locator('.round tbody tr').first().locator('td', { hasText: 'Zwart wint' }).waitFor();  // live on the phone
  await quick.fill('2 j');
  await quick.press('Enter');
  await td.locator('.result-grid tbody tr.entered').nth(1).waitFor();
  await td.screenshot({ path: join(artifacts, 'director-results.png'), fullPage: true });
  await assertAccessible(td, 'the results grid');
  await td.locator('.result-grid tbody tr').nth(2).locator('button', { hasText: 'White wins' }).click();
  // All in: round 2 is paired, waiting to be published; the grid goes.
  await td.locator('.director button', { hasText: 'Publish round 2' }).waitFor();
  assert.equal(await td.locator('.result-grid').count(), 0);
  await watcher.locator('.standings-table tbody tr').nth(5).waitFor();
  await watcher.screenshot({ path: join(artifacts, 'director-phone-standings.png'), fullPage: true });

  step('a late player, between rounds: round 2 is paired again with her');
  await td.fill('#ta-family_name', 'Laat');
  await td.fill('#ta-given_name', 'Lies');
  await td.locator('#ta-rank').selectOption('6k');
  await td.press('#ta-given_name', 'Enter');
  await td.locator('.entrants', { hasText: 'Laat Lies 6k' }).waitFor();
  await td.locator('.round[data-round="2"] td', { hasText: 'Laat Lies' }).waitFor();
  await watcher.locator('.round[data-round="2"] td', { hasText: 'Laat Lies' }).waitFor();  // live

  step('the EGD file: linked, and what it holds');
  const link = td.locator('.director a', { hasText: 'Download the EGD results file (.h9)' });
  assert.equal(await link.getAttribute('href'), `/api/v1/tournaments/${id}/egd.h9`);
  assert.equal(await td.locator('.director a', { hasText: 'Download the AGA results file' }).getAttribute('href'), `/api/v1/tournaments/${id}/aga.txt`);
  const aga = await td.evaluate(async (path) => (await fetch(path)).text(), `/api/v1/tournaments/${id}/aga.txt`);
  assert.match(aga, /^TOURNEY Leiden club championship, Leiden, NL$/m);
  assert.match(aga, /^ *9000001 de Vries, Anna +3d {2}# no AGA ID/m);
  const h9 = await td.evaluate(async (path) => (await fetch(path)).text(), `/api/v1/tournaments/${id}/egd.h9`);
  assert.match(h9, /^; EV\[Leiden club championship\]$/m);
  assert.match(h9, /^; PC\[NL,Leiden\]$/m);
  assert.match(h9, /de_Vries\s+Anna\s+3d NL Leid /);
  assert.match(h9, /; EGD PIN 12345678/);
  assert.match(h9, /Smit\s+Tom\s+15k -- -\s/);
  assert.equal(h9.split('\n').filter((l) => l && !l.startsWith(';')).length, 8);
  assert.match(h9, /Laat\s+Lies\s+6k -- -\s+\S+\s+\S+\s+\S+\s+0-\s/);  // round 1: not yet there
  assert.match(h9, /wim\s+-\s+10k -- -\s/);  // an account: its name, no given name
  // OpenGotha's file: every player, with OpenGotha's keys in the games.
  assert.equal(await td.locator('.director a', { hasText: 'Download for OpenGotha (.xml)' }).getAttribute('href'), `/api/v1/tournaments/${id}/opengotha.xml`);
  const og = await td.evaluate(async (path) => {
    const doc = new DOMParser().parseFromString(await (await fetch(path)).text(), 'application/xml');
    return { players: [...doc.querySelectorAll('Players > Player')].map((p) => `${p.getAttribute('name')}|${p.getAttribute('firstName')}|${p.getAttribute('rank')}|${p.getAttribute('participating').slice(0, 2)}`),
      games: [...doc.querySelectorAll('Games > Game')].map((g) => `${g.getAttribute('roundNumber')}/${g.getAttribute('tableNumber')} ${g.getAttribute('blackPlayer')} ${g.getAttribute('whitePlayer')} ${g.getAttribute('result')}`),
      error: doc.querySelector('parsererror')?.textContent ?? null };
  }, `/api/v1/tournaments/${id}/opengotha.xml`);
  assert.equal(og.error, null);
  assert.equal(og.players.length, 8);
  assert.ok(og.players.includes('de Vries|Anna|3D|11'), og.players.join('\n'));
  assert.ok(og.players.includes('Laat|Lies|6K|01'), 'the late player: not in round 1, paired in round 2');
  assert.equal(og.games.filter((g) => g.startsWith('1/')).length, 3);
  assert.ok(og.games.some((g) => / DEVRIESANNA /.test(` ${g} `)), og.games.join('\n'));

  step('printed pages: round 2 published, its pairings, result slips and the standings as A4 PDFs');
  await td.click('.director button:has-text("Publish round 2")');
  await td.locator('.result-grid h3', { hasText: 'Results of round 2' }).waitFor();
  // A PDF as Chromium prints it, its text (pdftotext) and its pages as images (pdftoppm).
  const printed = async (kind, expect) => {
    await td.goto(`${tournamentUrl}/print/${kind}`);
    await td.locator('.print-sheet table, .print-sheet .slips').first().waitFor();
    assert.ok(await td.locator('.print-bar button', { hasText: 'Print' }).isVisible());
    await assertAccessible(td, `printed ${kind}`);
    const pdf = join(artifacts, `director-${kind}.pdf`);
    await td.pdf({ path: pdf, format: 'A4', printBackground: true });
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    for (const e of expect) assert.match(text, e, `${kind}: ${e}`);
    assert.doesNotMatch(text, /Tournaments|Log out|Online/, `${kind}: only the page is printed`);
    execFileSync('pdftoppm', ['-r', '60', '-png', pdf, join(artifacts, `director-${kind}`)]);
    return readdirSync(artifacts).filter((f) => f.startsWith(`director-${kind}-`) && f.endsWith('.png')).length;
  };
  const pairingPages = await printed('pairings', [/Leiden club championship/, /Round 2 · Leiden, NL/, /Find your table/, /Smit Tom\s+\d\s+(Black|White)/]);
  assert.equal(pairingPages, 2, 'the pairings by table, then the list to find one\'s table on a page of its own');
  const slipPages = await printed('slips', [/Table 1 · Round 2/, /Table 3 · Round 2/, /Leiden club championship/, /Black's initials/]);
  assert.equal(slipPages, 1, 'three slips fit on one page');
  const standingPages = await printed('standings', [/Standings after round 1/, /de Vries Anna\s+3d\s+Leid NL/]);
  assert.equal(standingPages, 1);

  assert.deepEqual(failures, []);
  console.log('director: ok');
} finally {
  await browser.close();
  await stopServer(server);
}
