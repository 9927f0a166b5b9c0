// A director takes over an event run in OpenGotha and changes a pairing by hand before publishing
// it (docs/tournaments.md, "OpenGotha" and "Changing a pairing by hand"), as done in the browser:
// the file (ISO-8859-1, as OpenGotha 3.48 saves it) imported from the tournaments page, the last
// result of its round 2 typed in, round 3's pairing changed — colours swapped, a table removed,
// the save refused while a player is left out, then the rest paired by the system — published,
// and a forfeit entered. The real server binary and Debian's chromium; nothing sleeps.
//
//   node tests/web/pairing.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('pairing');
const step = (text) => console.log(`--- ${text}`);
const fixture = fileURLToPath(new URL('../fixtures/opengotha/club-mcmahon-latin1.xml', import.meta.url));

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];

try {
  step("the director imports OpenGotha's file from the tournaments page");
  const td = await openPage(browser, failures, 'director', { expected: /40[01]|409|422/ });
  await registerIn(td, url, 'anna');
  await td.click('[data-nav=tournaments]');
  await td.locator('.import-tournament button[type=submit]').click();  // no file chosen yet
  await td.locator('.import-tournament .form-error', { hasText: 'Choose the file first.' }).waitFor();
  await td.setInputFiles('#ti-file', { name: 'broken.xml', mimeType: 'application/xml', buffer: Buffer.from('<Tournament>') });
  await td.locator('.import-tournament button[type=submit]').click();
  await td.locator('.import-tournament .form-error', { hasText: 'not XML' }).waitFor();
  await td.screenshot({ path: join(artifacts, 'pairing-import.png'), fullPage: true });
  await td.setInputFiles('#ti-file', fixture);
  await td.locator('.import-tournament button[type=submit]').click();
  await td.waitForURL(/#\/tournament\/\d+$/);
  const id = Number(td.url().split('/').pop());
  const view = () => td.evaluate(async (path) => (await fetch(path)).json(), `/api/v1/tournaments/${id}`);
  await td.locator('.tournament-head h1', { hasText: 'Club McMahon "Autumn"' }).waitFor();
  await td.locator('.entrants', { hasText: 'Dupré Clémence' }).waitFor();  // Latin-1 read as such
  await td.locator('.round[data-round="1"]', { hasText: "O'Brien Seán" }).waitFor();

  step("round 2's last result typed in: round 3 is paired, waiting to be published");
  await td.fill('#td-quick', '2b');
  await td.press('#td-quick', 'Enter');
  await td.locator('.director button', { hasText: 'Publish round 3' }).waitFor();
  assert.equal((await view()).round_list[2].games.length, 3);

  step('two late players from a spreadsheet (CSV): all or none, then round 3 paired again');
  await td.click('.player-list summary');
  const csv = (text) => ({ name: 'late.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await td.setInputFiles('#tl-file', csv('Surname;First name;Grade;Country\nNovak;Eva;4 kyu;CZ\nLate;Lena;8k;NL\n'));
  await td.click('#tl-send');
  await td.locator('.tournament-page > .form-error', { hasText: "line 3: 'Late Lena' is registered already" }).waitFor();
  assert.equal((await view()).entrants.length, 6, 'nobody added');
  await td.setInputFiles('#tl-file', csv('Surname;First name;Grade;Country\nNovak;Eva;4 kyu;CZ\n"Ó Súilleabháin";Aoife;6k;IE\n'));
  await td.click('#tl-send');
  await td.locator('.list-done', { hasText: '2 players registered.' }).waitFor();
  await td.locator('.entrants', { hasText: 'Novak Eva' }).waitFor();
  assert.equal(await td.locator('.tournament-page > .form-error').textContent(), '', 'the page redrew without a fault');
  await td.locator('.entrants', { hasText: 'Ó Súilleabháin Aoife' }).waitFor();
  let round = (await view()).round_list[2];
  assert.equal(round.games.length, 4, 'eight players: four tables');

  step('a player not playing round 3: the round paired again without them, then with them');
  await td.click('.absence summary');
  await td.selectOption('#ta-player', 'Novak Eva');
  await td.selectOption('#ta-round', '3');
  await td.locator('#ta-set', { hasText: 'Not playing round 3' }).waitFor();
  await td.click('#ta-set');
  await td.locator('.round[data-round="3"]', { hasText: 'Not playing: Novak Eva' }).waitFor();
  await td.locator('.entrants', { hasText: 'not playing round 3' }).waitFor();
  round = (await view()).round_list[2];
  assert.equal(round.games.length, 3, 'seven players: three tables and a bye');
  assert.equal(round.byes.length, 1);
  assert.ok(!JSON.stringify(round).includes('Novak Eva'), 'not seated in round 3');
  // The choice stays across the redraw, and the button now offers the way back.
  assert.equal(await td.inputValue('#ta-player'), 'Novak Eva');
  await td.locator('#ta-set', { hasText: 'Plays round 3 after all' }).waitFor();
  await assertAccessible(td, 'a player not playing a round');
  await td.screenshot({ path: join(artifacts, 'pairing-absent.png'), fullPage: true });
  await td.click('#ta-set');
  await td.locator('.round[data-round="3"]', { hasText: 'Not playing' }).waitFor({ state: 'detached' });
  round = (await view()).round_list[2];
  assert.equal(round.games.length, 4, 'eight players again: four tables');
  assert.ok((await view()).audit.some((a) => a.kind === 'absence' && a.by === 'anna' && !a.record.absent));

  step("a registration corrected: a misspelt name and a club");
  await td.click('.edit-player summary');
  await td.selectOption('#te-player', 'Novak Eva');
  assert.equal(await td.inputValue('#te-family_name'), 'Novak', 'the fields follow the player chosen');
  assert.equal(await td.inputValue('#te-country'), 'CZ');
  await td.fill('#te-family_name', 'Nováková');
  await td.fill('#te-club', 'Brno');
  await td.click('#te-save');
  await td.locator('.entrants', { hasText: 'Nováková Eva' }).waitFor();
  assert.equal(await td.inputValue('#te-player'), 'Nováková Eva', 'the list stays on the player renamed');
  assert.equal(await td.inputValue('#te-club'), 'Brno');
  const eva = (await view()).entrants.find((e) => e.name === 'Nováková Eva');
  assert.equal(eva.club, 'Brno');
  assert.equal(eva.country, 'CZ');
  assert.ok(JSON.stringify((await view()).round_list[2]).includes('Nováková Eva'), 'renamed in the pairing');
  await td.fill('#te-family_name', 'Ó Súilleabháin');
  await td.fill('#te-given_name', 'Aoife');
  await td.click('#te-save');
  await td.locator('.tournament-page > .form-error', { hasText: "'Ó Súilleabháin Aoife' is registered already" }).waitFor();
  await td.screenshot({ path: join(artifacts, 'pairing-edit-player.png'), fullPage: true });
  round = (await view()).round_list[2];

  step("the pairing changed by hand: colours swapped, a table removed, the rest by the system");
  await td.click('.pair-by-hand summary');
  await td.locator('.pairing-editor tbody tr').nth(2).waitFor();
  await td.locator('.pair-status', { hasText: 'Every player is seated.' }).waitFor();
  const [b0, w0] = [String(round.games[0].black.id), String(round.games[0].white.id)];
  await td.click('#tp-s-0');
  assert.equal(await td.inputValue('#tp-b-0'), w0, 'swapped');
  assert.equal(await td.inputValue('#tp-w-0'), b0);
  assert.equal(await td.evaluate(() => document.activeElement.id), 'tp-s-0', 'the keyboard stays on the button');
  // Seating table 1's player at table 2 too is shown at once, before anything is sent.
  const table2Black = await td.inputValue('#tp-b-1');
  await td.selectOption('#tp-b-1', w0);
  await td.locator('.pair-status.warn', { hasText: 'Seated twice:' }).waitFor();
  await td.selectOption('#tp-b-1', table2Black);
  await td.selectOption('#tp-h-0', '1');
  await td.locator('.pairing-editor tbody tr').nth(2).locator('button', { hasText: 'Remove' }).click();
  await td.locator('.pair-status.warn', { hasText: 'Not seated:' }).waitFor();
  await td.screenshot({ path: join(artifacts, 'pairing-editor.png'), fullPage: true });
  await assertAccessible(td, 'the pairing editor');
  await td.click('#tp-save');  // two players left out, and the system not asked: refused in words
  await td.locator('.tournament-page > .form-error', { hasText: 'is not paired: seat them at a table' }).waitFor();
  assert.equal(JSON.stringify((await view()).round_list[2]), JSON.stringify(round), 'nothing changed');
  await td.check('#tp-rest');
  const events = (await view()).audit.length;
  await td.click('#tp-save');
  await td.locator('.audit summary', { hasText: `(${events + 1})` }).waitFor();
  const t = await view();
  round = t.round_list[2];
  assert.equal(round.games.length, 4, 'the two left out paired by the system at table 4');
  assert.equal(String(round.games[0].black.id), w0);
  assert.equal(String(round.games[0].white.id), b0);
  assert.equal(round.games[0].handicap, 1);
  const last = t.audit[t.audit.length - 1];
  assert.equal(last.kind, 'paired');
  assert.equal(last.by, 'anna');
  assert.equal(last.record.by_hand, true);
  await td.locator('.pair-status', { hasText: 'Every player is seated.' }).waitFor();  // a new draft

  step('round 3 published; a no-show at table 3 entered as a forfeit');
  await td.click('.director button:has-text("Publish round 3")');
  await td.locator('.result-grid h3', { hasText: 'Results of round 3' }).waitFor();
  assert.equal(await td.locator('.pair-by-hand').count(), 0, 'a published round is not changed');
  await td.selectOption('#td-board', '3/3');
  await td.selectOption('#td-result', 'white');
  await td.check('#td-forfeit');
  await td.locator('.director .field-row', { has: td.locator('#td-forfeit') }).locator('button', { hasText: 'Set result' }).click();
  await td.locator('.round[data-round="3"] tbody tr').nth(2).locator('td', { hasText: 'White wins (forfeit)' }).waitFor();
  assert.equal((await view()).round_list[2].games[2].forfeit, true);
  await td.screenshot({ path: join(artifacts, 'pairing-forfeit.png'), fullPage: true });

  assert.deepEqual(failures, []);
  console.log('pairing: ok');
} finally {
  await browser.close();
  await stopServer(server);
}
