// Games on every node in Chromium (docs/cluster.md, "Games on every node"): three real server
// processes with --games every-node over a PostgreSQL and a NATS of the test's own, the first the
// hub. Black (desktop, English) on the second node challenges; White (a phone in Dutch, by touch)
// accepts on the third, which then plays the game. Between moves they find each other by quick
// match, White's seek last: that rated game is White's node's too, and the hub rates it (Black's
// profile shows it). The hub is killed: the game goes on at once,
// neither page opening or closing a socket, and Black's list of games still shows it. Then the
// game's own node is killed: the hub adopts the game, Black's page is told to resync on its
// socket and plays on; White comes back through Black's node. Nothing sleeps: every wait is for
// what the page shows.
//
//   node tests/web/every_node.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import {
  startServer, stopServer, launchBrowser, browserTestArgs, startPostgres, startNats, twoPlayersOnTwoNodes,
  commandIn,
} from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('every-node');
const step = (text) => console.log(`--- ${text}`);

const { uri, pgCtl } = startPostgres(dir, 'every_node');
const nats = await startNats(dir);
const browser = await launchBrowser();  // first: its start can hold both cores (cluster.mjs)
const nodes = [];
for (const name of ['a', 'b', 'c']) {
  nodes.push(await startServer({
    binary: serverBinary, webRoot, dir,
    extra: ['--bots', 'off', '--database', uri, '--bus', nats.url, '--node', name, '--lease-ttl', '3000',
      '--games', 'every-node'],
  }));
}
const urlOf = (i) => `http://127.0.0.1:${nodes[i].port}`;
const health = async (i) => (await fetch(`${urlOf(i)}/healthz`)).json();
const failures = [];
// On the phone by touch: a finger's tap shows the stone, Play confirms it.
async function tapMove(page, vertex) {
  await page.locator(`.board [data-vertex="${vertex}"]`).tap();
  await page.locator('.confirm-bar button.primary').tap();
}

try {
  step('Black on the second node, White (a phone, in Dutch) accepts on the third');
  const { ann, bob, annSeen, bobSeen, game } =
    await twoPlayersOnTwoNodes(browser, failures, urlOf(1), urlOf(2));
  await ann.click('.board [data-vertex="E5"]');
  await bob.locator('.board .stone.black[data-stone="E5"]').waitFor();
  await tapMove(bob, 'C3');
  await ann.locator('.board .stone.white[data-stone="C3"]').waitFor();
  const c = await health(2);
  const metrics = await (await fetch(`${urlOf(2)}/metrics`)).text();
  assert.match(metrics, /\ntengen_games_active 1\n/, `the third node plays it (node ${c.node_id})`);

  step("a rated quick match: Black seeks first, White (by touch, in Dutch) makes the pair; it is played on White's node and rated by the hub");
  // The hub's word that the game is rated (`ratings_changed`), as each page's socket receives it:
  // listened for from the pages' next load.
  const toldRated = (p) => new Promise((resolve) => {
    p.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
      if (String(payload).includes('"type":"ratings_changed"')) resolve(JSON.parse(payload));
    }));
  });
  const told = { ann: toldRated(ann), bob: toldRated(bob) };
  await ann.goto(`${urlOf(1)}/#/`);
  await bob.goto(`${urlOf(2)}/#/`);
  await ann.reload();
  await bob.reload();
  // The rank beside each name in the top bar, its rating in the title (newcomers: 1500).
  const topRank = async (p) => {
    const rank = p.locator('.me .rank');
    await p.waitForFunction(() => document.querySelector('.me .rank')?.title);
    return { text: await rank.textContent(), title: await rank.getAttribute('title') };
  };
  const ranksBefore = { ann: await topRank(ann), bob: await topRank(bob) };
  for (const p of [ann, bob]) {
    await p.locator('.quick-match .choice', { hasText: '9×9' }).first().click();
    await p.locator('.quick-match .choice', { hasText: 'Blitz' }).click();
  }
  await ann.locator('.quick-match button', { hasText: 'Find an opponent' }).click();
  await ann.locator('.quick-match .seeking').waitFor();
  await bob.locator('.quick-match button', { hasText: 'Zoek een tegenstander' }).tap();
  for (const p of [ann, bob]) await p.waitForURL(/#\/game\/\d+$/);
  await ann.locator('.game-settings', { hasText: 'rated' }).waitFor();
  const matched = Number(ann.url().match(/#\/game\/(\d+)$/)[1]);
  assert.notEqual(matched, game, 'a new game');
  assert.equal(bob.url().endsWith(`/game/${matched}`), true, 'the same game');
  await ann.locator('.status', { hasText: /Your move|to move/ }).waitFor();
  assert.match(await (await fetch(`${urlOf(2)}/metrics`)).text(), /\ntengen_games_active 2\n/,
    "the quick match is played on White's node too");
  const annIsBlack = (await ann.locator('.status').textContent()).includes('Your move.');
  if (annIsBlack) await ann.click('.board [data-vertex="D4"]'); else await tapMove(bob, 'D4');
  await (annIsBlack ? bob : ann).locator('.board .stone.black[data-stone="D4"]').waitFor();
  await commandIn(annIsBlack ? bob : ann, { type: 'resign', game: matched });
  await ann.locator('.result-banner').waitFor();
  await bob.locator('.result-banner').waitFor();
  // The hub says so to both pages once it has rated the game, and the top bar follows the new
  // ratings without a reload (the page asks again; also, should the word be lost, until its
  // players' count of rated games has grown).
  for (const name of ['ann', 'bob']) {
    let timer;
    const said = await Promise.race([told[name], new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no ratings_changed for ${name}`)), 10000);
    })]);
    clearTimeout(timer);
    assert.equal(said.users.length, 2, JSON.stringify(said));
  }
  for (const [name, p] of [['ann', ann], ['bob', bob]]) {
    await p.waitForFunction((before) => {
      const title = document.querySelector('.me .rank')?.title;
      return title && title !== before;
    }, ranksBefore[name].title);
  }
  const ranksAfter = { ann: await topRank(ann), bob: await topRank(bob) };
  const winner = annIsBlack ? 'ann' : 'bob';
  const loser = annIsBlack ? 'bob' : 'ann';
  const ratingIn = (r) => Number(r.title.match(/\d+/)[0]);
  assert.ok(ratingIn(ranksAfter[winner]) > ratingIn(ranksBefore[winner]), JSON.stringify({ ranksBefore, ranksAfter }));
  assert.ok(ratingIn(ranksAfter[loser]) < ratingIn(ranksBefore[loser]), JSON.stringify({ ranksBefore, ranksAfter }));
  await ann.screenshot({ path: join(artifacts, 'every-node-quick-match-over.png') });
  // The hub rates it a moment after its end: the profile shows it once it has.
  await ann.goto(`${urlOf(1)}/#/user/ann`);
  for (;;) {
    const text = await ann.locator('.profile .profile-rating').textContent();
    if (/1 rated game/.test(text)) {
      const rating = Number(text.match(/Rating (\d+)/)[1]);
      assert.ok(annIsBlack ? rating > 1500 : rating < 1500, text);
      break;
    }
    await ann.reload();
    await ann.locator('.profile .profile-rating').waitFor();
  }
  await ann.screenshot({ path: join(artifacts, 'every-node-rated-profile.png') });
  await ann.goto(`${urlOf(1)}/#/game/${game}`);
  await bob.goto(`${urlOf(2)}/#/game/${game}`);
  await ann.locator('.board .stone.white[data-stone="C3"]').waitFor();
  await bob.locator('.board .stone.white[data-stone="C3"]').waitFor();

  step('the hub is killed: the game goes on at once, on the same sockets');
  const before = { ann: annSeen.sockets, bob: bobSeen.sockets, closed: annSeen.closed + bobSeen.closed };
  nodes[0].child.kill('SIGKILL');
  await ann.click('.board [data-vertex="G7"]');
  await bob.locator('.board .stone.black[data-stone="G7"]').waitFor();
  await tapMove(bob, 'C7');
  await ann.locator('.board .stone.white[data-stone="C7"]').waitFor();
  assert.equal(annSeen.sockets, before.ann, 'Black opened no new socket');
  assert.equal(bobSeen.sockets, before.bob, 'White opened no new socket');
  assert.equal(annSeen.closed + bobSeen.closed, before.closed, 'no socket closed');
  for (;;) {  // a new hub, for what is not the game's (the lobby, the list of games)
    const roles = [(await health(1)).role, (await health(2)).role].sort();
    if (roles[0] === 'front' && roles[1] === 'hub') break;
  }
  const listed = await ann.evaluate(() => new Promise((resolve) => {
    const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/ws/v1`);
    ws.onopen = () => ws.send(JSON.stringify({ v: 1, type: 'my_games', cid: 'list' }));
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'my_games') { ws.close(); resolve(m.games.map((g) => g.game)); }
    };
  }));
  assert.deepEqual(listed, [game], "Black's list of games, asked of the node that plays it");
  await ann.locator('#net[data-state=open]').waitFor();
  await ann.screenshot({ path: join(artifacts, 'every-node-after-the-hub-died.png') });
  await bob.screenshot({ path: join(artifacts, 'every-node-after-the-hub-died-phone.png') });

  step("the game's node is killed: the hub adopts it, Black resyncs and plays on; White comes back");
  const resyncs = annSeen.resyncs;
  nodes[2].child.kill('SIGKILL');
  await ann.click('.board [data-vertex="E3"]');
  await ann.locator('.board .stone.black[data-stone="E3"]').waitFor({ timeout: 30000 });
  assert.ok(annSeen.resyncs > resyncs, 'Black told to resync on the socket it had');
  await bob.goto(`${urlOf(1)}/#/game/${game}`);
  await bob.locator('.board .stone.black[data-stone="E3"]').waitFor();
  await tapMove(bob, 'G3');
  await ann.locator('.board .stone.white[data-stone="G3"]').waitFor();
  const record = await (await fetch(`${urlOf(1)}/api/v1/games/${game}.sgf`)).text();
  assert.match(record, /;B\[ee\];W\[cg\];B\[gc\];W\[cc\];B\[eg\];W\[gg\]/, `every move once: ${record}`);
  await ann.screenshot({ path: join(artifacts, 'every-node-after-its-node-died.png') });
  await bob.screenshot({ path: join(artifacts, 'every-node-after-its-node-died-phone.png') });

  assert.deepEqual(failures, [], 'no page errors');
  console.log('every node: all steps passed');
} finally {
  await browser.close();
  for (const n of nodes) await stopServer(n.child);
  nats.child.kill('SIGTERM');
  try { pgCtl('-m', 'immediate', 'stop'); } catch { /* stopped already */ }
  rmSync(dir, { recursive: true, force: true });
}
