// The database goes away in the middle of a game (docs/operations.md, "When the database goes
// away"): the server on a PostgreSQL of the test's own (Debian's postgresql-15, initdb and pg_ctl
// into a temporary folder), two players in Chromium. PostgreSQL is stopped as a crash stops it
// (pg_ctl stop -m immediate): both pages say that moves cannot be saved now, in words and in the
// indicator; a move clicked meanwhile waits; PostgreSQL starts again and the move is played, both
// pages back to "Online", nothing reloaded. Nothing sleeps: every wait is for what the page shows.
//
//   node tests/web/faults.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, browserTestArgs, openPage, registerIn, commandIn as command, startPostgres } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('faults');
const step = (text) => console.log(`--- ${text}`);

const { uri, pgCtl } = startPostgres(dir, 'faults');

const { child: server, port } = await startServer({
  binary: serverBinary, webRoot, dir,
  extra: ['--bots', 'off', '--database', uri, '--lease-ttl', '1000'],
});
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
// The upgrades refused while the database is away are expected (503).
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', expected: /40[01]|503/, ...options });

try {
  step('two players in a 9×9 game');
  const ann = await newPage('ann');
  const bob = await newPage('bob', { locale: 'nl-NL', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await registerIn(ann, url, 'ann');
  await registerIn(bob, url, 'bob');
  const created = await command(ann, { type: 'create_challenge', settings: { width: 9, color: 'black' } });
  const accepted = await command(bob, { type: 'accept_challenge', challenge: created.challenge });
  const game = accepted.game;
  await ann.goto(`${url}/#/game/${game}`);
  await bob.goto(`${url}/#/game/${game}`);
  await ann.click('.board [data-vertex="E5"]');
  await bob.locator('.board .stone.black[data-stone="E5"]').waitFor();
  await bob.click('.board [data-vertex="C3"]');
  await ann.locator('.board .stone.white[data-stone="C3"]').waitFor();

  step('PostgreSQL stops as a crash stops it: both pages say that moves cannot be saved now');
  pgCtl('-m', 'immediate', 'stop');
  await ann.locator('#net[data-state=degraded]', { hasText: 'Cannot save moves right now' }).waitFor();
  await ann.locator('.toast', { hasText: 'The server cannot save moves right now.' }).waitFor();
  await bob.locator('#net[data-state=degraded]', { hasText: 'Zetten kunnen nu niet worden opgeslagen' }).waitFor();
  const health = await ann.evaluate(() => fetch('/healthz').then((r) => r.status));
  assert.equal(health, 503, '/healthz says not ready');

  step('a move clicked meanwhile waits, unacknowledged');
  await ann.click('.board [data-vertex="G7"]');
  await ann.screenshot({ path: join(artifacts, 'faults-database-away.png') });
  await bob.screenshot({ path: join(artifacts, 'faults-database-away-phone.png') });
  assert.equal(await bob.locator('.board .stone[data-stone="G7"]').count(), 0, 'not shown before it is stored');

  step('PostgreSQL starts again: the move is played, both pages online, nothing reloaded');
  pgCtl('start');
  await bob.locator('.board .stone.black[data-stone="G7"]').waitFor();
  await ann.locator('#net[data-state=open]').waitFor();
  await bob.locator('#net[data-state=open]').waitFor();
  await bob.click('.board [data-vertex="C7"]');
  await ann.locator('.board .stone.white[data-stone="C7"]').waitFor();
  await ann.screenshot({ path: join(artifacts, 'faults-database-back.png') });

  assert.deepEqual(failures, [], 'no page errors');
  assert.equal(await stopServer(server), 0, 'the server stops cleanly');
  console.log('faults: all steps passed');
} finally {
  await browser.close();
  await stopServer(server);
  try { pgCtl('-m', 'immediate', 'stop'); } catch { /* stopped already */ }
  rmSync(dir, { recursive: true, force: true });
}
