// Pair Go in the browser (docs/events.md, "Pair Go"): the real server binary; hana announces a
// pair Go game on a desktop; four players join its two teams from their pages (amy in Dutch,
// dora on a phone), a fifth is refused a full team in words; hana starts it and the four pages go
// to the game. The partners play in turn: bob, out of turn, is told in words by his page and by
// the server (a program's move), and nothing changes; the moves go B1 W1 B2 W2 from the four
// pages. The team chat: what amy writes to her team reaches bob and never carl, dora or a
// spectator. The game's title and cards name both teams; its SGF names all four. White resigns:
// the pair Go page and the list say finished, with the result. Accessible; nothing sleeps.
//
//   node tests/web/pair_go.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('pair_go');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', ...options });
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

try {
  step('hana announces a pair Go game on 9×9');
  const hana = await newPage('hana');
  await registerIn(hana, url, 'hana');
  await hana.click('nav a[data-nav=pairgo]');
  await hana.locator('.simul-list .empty').waitFor();
  await hana.locator('details.simul-new summary').click();
  await hana.fill('#pf-name', 'Friday pair Go');
  await hana.selectOption('#pf-size', '9');
  await hana.selectOption('#pf-time', 'none');
  assert.equal(await hana.locator('#pf-time option[value=correspondence]').count(), 0, 'pair Go is played live');
  // The form offers 2 to 4 a team; the server says so in words to a program that asks for 5.
  const refused = await hana.evaluate(async () => {
    const r = await fetch('/api/v1/pairgo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'x', team_size: 5, settings: {} }) });
    return [r.status, (await r.json()).error.message];
  });
  assert.deepEqual(refused, [400, "field 'team_size' must be 2 (pair Go), 3 or 4 (rengo)"]);
  await hana.click('form.pair-form button[type=submit]');
  await hana.waitForURL(/#\/pairgo\/\d+$/);
  const pairUrl = hana.url();
  const pair = Number(/#\/pairgo\/(\d+)/.exec(pairUrl)[1]);
  await hana.locator('.simul-head h1', { hasText: 'Friday pair Go' }).waitFor();
  assert.equal(await hana.locator('.simul-head button', { hasText: 'Start the game' }).isDisabled(), true);
  assert.equal(await hana.locator('.pair-seats li.empty').count(), 4);

  step('four players join the two teams; a fifth finds Black full');
  const players = {};
  const seats = [['amy', 'black', { locale: 'nl-NL' }], ['carl', 'white', {}], ['bob', 'black', {}], ['dora', 'white', phone]];
  for (const [name, team, options] of seats) {
    const page = await newPage(name, options);
    await registerIn(page, url, name);
    await page.goto(pairUrl);
    const join = page.locator(`.pair-team[data-team=${team}] button`);
    if (options.hasTouch) await join.tap(); else await join.click();
    await page.locator('.simul-head .simul-joined').waitFor();
    players[name] = { page, team };
  }
  await players.amy.page.locator('.simul-joined', { hasText: 'Je speelt in het zwarte team' }).waitFor();
  const eve = await newPage('eve', { expected: /40[019]/ });  // the Black team is full: 409
  await registerIn(eve, url, 'eve');
  await eve.goto(pairUrl);
  assert.equal(await eve.locator('.pair-team[data-team=black] button').count(), 0, 'no Join on a full team');
  const full = await eve.evaluate(async (id) => {
    const r = await fetch(`/api/v1/pairgo/${id}/join`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ team: 'black' }) });
    return [r.status, (await r.json()).error.message];
  }, pair);
  assert.deepEqual(full, [409, 'the black team has 2 players, as many as a team has']);
  // The teams in their order of play, as the host sees them (read again while players join).
  await hana.locator('.pair-team[data-team=white] .pair-seats li', { hasText: 'dora' }).waitFor();
  assert.deepEqual(await hana.locator('.pair-team[data-team=black] .pair-seats li').allInnerTexts(), ['B1 amy 10k?', 'B2 bob 10k?']);
  assert.deepEqual(await hana.locator('.pair-team[data-team=white] .pair-seats li').allInnerTexts(), ['W1 carl 10k?', 'W2 dora 10k?']);
  await hana.screenshot({ path: join(artifacts, 'pair-open.png'), fullPage: true });
  await assertAccessible(hana, 'an open pair Go game, for its host');
  await players.dora.page.screenshot({ path: join(artifacts, 'pair-open-phone.png'), fullPage: true });
  assert.equal(await players.dora.page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling on a phone');

  step('hana starts it: the four pages go to the game');
  await hana.locator('.simul-head button', { hasText: 'Start the game' }).click();
  let game = 0;
  for (const p of Object.values(players)) {
    await p.page.waitForURL(/#\/game\/\d+$/);
    p.game = Number(/#\/game\/(\d+)/.exec(p.page.url())[1]);
    game ||= p.game;
    assert.equal(p.game, game, 'one game for all four');
  }
  await hana.locator('.simul-head a', { hasText: 'Watch the game' }).waitFor();
  const { amy, bob, carl, dora } = players;
  await bob.page.locator('.player.black .name', { hasText: 'amy & bob' }).waitFor();
  const title = await bob.page.title();
  assert.match(title, /amy & bob/);
  assert.match(title, /carl & dora/);
  await bob.page.locator('.player.black .player-note', { hasText: 'next: amy' }).waitFor();

  step('bob, out of turn, is told in words; so is a program; nothing changes');
  await bob.page.locator('.status', { hasText: "Your partner amy's move." }).waitFor();
  await bob.page.click('.board [data-vertex="C3"]');
  await bob.page.locator('.board-hint', { hasText: "It is your partner amy's move: in pair Go the partners play in turn." }).waitFor();
  await assert.rejects(command(bob.page, { type: 'play', game, vertex: 'C3' }),
    /it is your partner amy's move for black: in pair Go the partners play in turn/);
  assert.equal(await bob.page.locator('.board .stone').count(), 0, 'no stone was played');

  step('the moves go B1 W1 B2 W2, each from its player\'s page');
  await amy.page.locator('.status', { hasText: 'Jij bent aan zet' }).waitFor();
  await amy.page.click('.board [data-vertex="E5"]');
  await carl.page.locator('.board .stone.black[data-stone="E5"]').waitFor();
  await dora.page.locator('.status', { hasText: "Your partner carl's move." }).waitFor();
  await carl.page.click('.board [data-vertex="D4"]');
  await bob.page.locator('.status', { hasText: 'Your move' }).waitFor();
  await amy.page.locator('.status', { hasText: 'Je partner bob is aan zet' }).waitFor();
  await bob.page.click('.board [data-vertex="C3"]');
  await dora.page.locator('.board .stone.black[data-stone="C3"]').waitFor();
  await dora.page.locator('.status', { hasText: 'Your move' }).waitFor();
  // On the phone by touch: a finger's tap shows the stone, Play confirms it.
  await dora.page.locator('.board [data-vertex="F6"]').tap();
  await dora.page.locator('.confirm-bar button.primary').tap();
  await amy.page.locator('.board .stone.white[data-stone="F6"]').waitFor();
  await amy.page.locator('.status', { hasText: 'Jij bent aan zet' }).waitFor();

  step('the team chat stays with the team');
  const watcher = await newPage('watcher');
  await registerIn(watcher, url, 'watcher');
  await watcher.goto(`${url}/#/game/${game}`);
  await watcher.locator('.board .stone.white[data-stone="F6"]').waitFor();
  await amy.page.locator('.chat-form .team-chat').click();  // her box: "alleen aan mijn team"
  await amy.page.fill('.chat-form input[name=chat]', 'neem de hoek');
  await amy.page.press('.chat-form input[name=chat]', 'Enter');
  await bob.page.locator('.chat-line', { hasText: 'neem de hoek' }).locator('.channel.team').waitFor();
  await carl.page.fill('.chat-form input[name=chat]', 'good luck all');
  await carl.page.press('.chat-form input[name=chat]', 'Enter');
  await bob.page.locator('.chat-line', { hasText: 'good luck all' }).waitFor();
  for (const p of [carl.page, dora.page]) {
    await p.locator('.chat-line', { hasText: 'good luck all' }).waitFor();  // after amy's line
    assert.equal(await p.locator('.chat-line', { hasText: 'neem de hoek' }).count(), 0, 'the other team never reads it');
  }
  await dora.page.reload();  // nor in a snapshot
  await dora.page.locator('.chat-line', { hasText: 'good luck all' }).waitFor();
  assert.equal(await dora.page.locator('.chat-line', { hasText: 'neem de hoek' }).count(), 0);
  assert.equal(await watcher.locator('.chat-line', { hasText: 'neem de hoek' }).count(), 0, 'nor a spectator');
  assert.equal(await watcher.locator('.chat-form .team-chat').isHidden(), true, 'a spectator has no team chat');
  await bob.page.screenshot({ path: join(artifacts, 'pair-game.png'), fullPage: true });
  await assertAccessible(bob.page, 'a pair Go game, for a player');
  await dora.page.screenshot({ path: join(artifacts, 'pair-game-phone.png'), fullPage: true });
  await assertAccessible(dora.page, 'a pair Go game on a phone');

  step('in blind mode the teams and the next player are said');
  await watcher.locator('#blind-link').focus();  // shown when focused, as a keyboard reaches it
  await watcher.keyboard.press('Enter');
  await watcher.locator('#blind-link.on').waitFor();
  await watcher.locator('.blind-console').waitFor();
  // The console says the game once its snapshot is in (before, it answers "still loading").
  await watcher.locator('.blind-log p', { hasText: 'amy & bob vs carl & dora' }).first().waitFor();
  const said = await watcher.evaluate(() => document.querySelectorAll('.blind-log p').length);
  await watcher.locator('#blind-command').fill('who');
  await watcher.locator('#blind-command').press('Enter');
  await watcher.locator('.blind-log p').nth(said).waitFor();
  const who = await watcher.locator('.blind-log p').last().textContent();
  assert.match(who, /amy & bob/);
  assert.match(who, /carl & dora/);
  assert.match(who, /Next for that colour: amy\./);

  step('White resigns: the SGF names the four; the pair Go page says finished');
  await command(dora.page, { type: 'resign', game });
  await hana.locator('.simul-head .simul-state', { hasText: 'finished' }).waitFor();
  await hana.locator('.pair-result', { hasText: 'Black wins by resignation' }).waitFor();
  const sgf = await hana.evaluate(async (id) => (await fetch(`/api/v1/games/${id}.sgf`)).text(), game);
  assert.match(sgf, /PB\[amy & bob\]/);
  assert.match(sgf, /PW\[carl & dora\]/);
  // In every player's list of games, not only the two who sit as Black and White.
  const listed = await hana.evaluate(async (id) => (await (await fetch('/api/v1/users/dora/games')).json()).games.map((g) => g.id), game);
  assert.ok(listed.includes(game), `dora's games list the pair Go game: ${listed}`);
  await hana.goto(`${url}/#/user/dora`);
  await hana.locator(`tr[data-game="${game}"]`, { hasText: 'amy & bob' }).waitFor();
  await hana.locator(`tr[data-game="${game}"]`, { hasText: 'carl & dora' }).waitFor();
  await hana.click('nav a[data-nav=pairgo]');
  await hana.locator(`.simul-row[data-pair="${pair}"][data-state=finished]`).waitFor();
  await hana.locator('details.simul-new summary').click();
  await hana.screenshot({ path: join(artifacts, 'pair-list.png'), fullPage: true });
  await assertAccessible(hana, 'the pair Go list with the form to announce a game');

  assert.deepEqual(failures, []);
  console.log('pair_go: ok');
} finally {
  await browser.close();
  stopServer(server);
}
