// The hub of a cluster dies under two players in Chromium (docs/cluster.md, "Failover"): three
// real server processes over a PostgreSQL and a NATS of the test's own, the first the hub, Black
// on the second and White on the third. The hub is killed with SIGKILL just as Black clicks a
// move; another node becomes the hub. Neither page reconnects: each keeps the one WebSocket it
// had, is told to resync on it, joins its game again and sends the move again (played once); the
// indicator never leaves "Online"; the game goes on. Then the front node one of them is on is
// killed and not started again: the other page shows that player has left, with the countdown to
// claiming the game. Nothing sleeps: every wait is for what the page shows.
//
//   node tests/web/cluster.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import {
  startServer, stopServer, launchBrowser, browserTestArgs, startPostgres, startNats, twoPlayersOnTwoNodes,
} from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('cluster');
const step = (text) => console.log(`--- ${text}`);

const { uri, pgCtl } = startPostgres(dir, 'cluster');
const nats = await startNats(dir);
// The browser first: its start, and the pages' first loads (the engine's WebAssembly compiled),
// can hold both of this machine's cores for a second or more. A node's liveness lasts 3 s, so
// that such a moment never passes for a dead hub (with 1 s, 1 run in 4 failed so on 2 cores).
const browser = await launchBrowser();
const nodes = [];
for (const name of ['a', 'b', 'c']) {  // one after another: the first is the hub
  nodes.push(await startServer({
    binary: serverBinary, webRoot, dir,
    // Every game on the hub: the hub's own failover (every_node.mjs has games on every node).
    extra: ['--bots', 'off', '--database', uri, '--bus', nats.url, '--node', name, '--lease-ttl', '3000',
      '--games', 'hub'],
  }));
}
const urlOf = (i) => `http://127.0.0.1:${nodes[i].port}`;
const failures = [];

try {
  const roles = await Promise.all([0, 1, 2].map(async (i) => (await (await fetch(`${urlOf(i)}/healthz`)).json()).role));
  assert.deepEqual(roles, ['hub', 'front', 'front']);

  step('Black on the second node, White (a phone, in Dutch) on the third, in a 9×9 game');
  const { ann, bob, annSeen, bobSeen, game } =
    await twoPlayersOnTwoNodes(browser, failures, urlOf(1), urlOf(2));
  await ann.click('.board [data-vertex="E5"]');
  await bob.locator('.board .stone.black[data-stone="E5"]').waitFor();
  await bob.click('.board [data-vertex="C3"]');
  await ann.locator('.board .stone.white[data-stone="C3"]').waitFor();
  const before = { ann: annSeen.sockets, bob: bobSeen.sockets, closed: annSeen.closed + bobSeen.closed };

  step('the hub is killed as Black clicks a move: both pages keep their sockets and resync');
  nodes[0].child.kill('SIGKILL');
  await ann.click('.board [data-vertex="G7"]');
  await bob.locator('.board .stone.black[data-stone="G7"]').waitFor();
  await ann.locator('.board .stone.black[data-stone="G7"]').waitFor();
  const after = await Promise.all([1, 2].map(async (i) => (await (await fetch(`${urlOf(i)}/healthz`)).json()).role));
  assert.deepEqual(after.sort(), ['front', 'hub'], 'one of the two took over');
  assert.ok(annSeen.resyncs >= 1 && bobSeen.resyncs >= 1, `both told to resync (${annSeen.resyncs}, ${bobSeen.resyncs})`);
  assert.equal(annSeen.sockets, before.ann, 'Black opened no new socket');
  assert.equal(bobSeen.sockets, before.bob, 'White opened no new socket');
  assert.equal(annSeen.closed + bobSeen.closed, before.closed, 'no socket closed');
  await ann.locator('#net[data-state=open]').waitFor();
  await bob.locator('#net[data-state=open]').waitFor();

  step('the game goes on; the move was played once');
  await bob.click('.board [data-vertex="C7"]');
  await ann.locator('.board .stone.white[data-stone="C7"]').waitFor();
  const record = await (await fetch(`${urlOf(2)}/api/v1/games/${game}.sgf`)).text();
  assert.equal((record.match(/;B\[gc\]/g) ?? []).length, 1, `G7 once in the record: ${record}`);
  assert.match(record, /;B\[ee\].*;W\[cg\].*;B\[gc\].*;W\[cc\]/s, 'in the order played');
  await ann.screenshot({ path: join(artifacts, 'cluster-after-the-hub-died.png') });
  await bob.screenshot({ path: join(artifacts, 'cluster-after-the-hub-died-phone.png') });

  // The node that is a front node now is killed and never started again: the hub, finding it
  // dead for a lease, lets go of its player, and the other page is told they left, with the
  // countdown to claiming the game on the leaver's move.
  step("a front node is killed and not started again: the other player sees its player leave");
  const front = (await (await fetch(`${urlOf(1)}/healthz`)).json()).role === 'front' ? 1 : 2;
  const [stayer, stayerSeen, color] = front === 1 ? [bob, bobSeen, 'black'] : [ann, annSeen, 'white'];
  const stayerSockets = { opened: stayerSeen.sockets, closed: stayerSeen.closed };
  nodes[front].child.kill('SIGKILL');
  if (color === 'white') {  // Black to move: Black moves, and the countdown runs on White's move
    await ann.click('.board [data-vertex="E3"]');
    await ann.locator('.board .stone.black[data-stone="E3"]').waitFor();
  }
  await stayer.locator(`[data-claim="${color}"]`).waitFor({ timeout: 30000 });
  assert.deepEqual({ opened: stayerSeen.sockets, closed: stayerSeen.closed }, stayerSockets,
    'the other page kept its socket');
  await stayer.locator('#net[data-state=open]').waitFor();
  await stayer.screenshot({ path: join(artifacts, `cluster-${color}-left${stayer === bob ? '-phone' : ''}.png`) });

  assert.deepEqual(failures, [], 'no page errors');
  assert.equal(await stopServer(nodes[3 - front].child), 0, 'the node left stops cleanly');
  console.log('cluster: all steps passed');
} finally {
  await browser.close();
  for (const n of nodes) await stopServer(n.child);
  nats.child.kill('SIGTERM');
  try { pgCtl('-m', 'immediate', 'stop'); } catch { /* stopped already */ }
  rmSync(dir, { recursive: true, force: true });
}
