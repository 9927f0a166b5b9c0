// The installable web app (docs/web-client.md, "Offline"), on a phone's screen with touch, under
// the server's own security policy (no bypass: the engine must compile as WebAssembly under it):
//  - Chromium finds the page installable (the DevTools protocol's installability check), with
//    the manifest's icons in every size and a maskable one;
//  - the service worker keeps the shell: with the network cut (context.setOffline, a real cut:
//    nothing leaves the browser), the page opens again, says "Offline" and what still works;
//  - offline, the local board plays a game judged by the rules engine compiled to WebAssembly:
//    a refused move in words, a capture, two passes, the count with the engine's guess at the
//    dead stones, a stone marked by a tap, the result; kept across a reload;
//  - offline, the rules course's exercise is judged the same way;
//  - online, the engine in the browser answers what the server answers (POST /api/v1/positions),
//    the same JSON, refusals included;
//  - a new version of the client on the server is found behind the kept page and offered;
//  - a push message is said in the page's language by the service worker when no page of
//    Tengen is in front of the player, and not at all when one is.
// The server serves a copy of the web client, so that the test can change a file.
//
//   node tests/web/offline.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import assert from 'node:assert/strict';
import { cpSync, appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, stopServer, launchProfile, browserTestArgs } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('offline');
const web = join(dir, 'web');
cpSync(webRoot, web, { recursive: true, dereference: true, filter: (p) => !p.includes('node_modules') });
assert.ok(existsSync(join(web, 'wasm', 'engine.wasm')),
  'web/wasm/engine.wasm is missing: build with Emscripten (scripts/install-deps installs it; TENGEN_WASM)');
const { child: server, port } = await startServer({ binary: serverBinary, webRoot: web, dir, extra: ['--bots', 'off'] });
const url = `http://127.0.0.1:${port}/`;
// A profile of its own: Chromium does not install from an incognito window (every newContext is one).
const context = await launchProfile(join(dir, 'profile'), {
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
});
const failures = [];
try {
  const page = context.pages()[0] ?? await context.newPage();
  page.setDefaultTimeout(20000);
  page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/ERR_INTERNET_DISCONNECTED|Failed to load resource|WebSocket/.test(m.text())) failures.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  await page.locator('.lobby-challenges').waitFor();
  await page.locator('#net[data-state=open]').waitFor();

  // Installable: the manifest, its icons, the worker in control.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, [], 'Chromium finds the page installable');
  const manifest = await cdp.send('Page.getAppManifest');
  assert.deepEqual(manifest.errors, [], 'the manifest parses');
  const parsed = JSON.parse(manifest.data);
  assert.ok(parsed.icons.some((i) => i.purpose === 'maskable' && i.sizes === '512x512'), 'a maskable icon');
  for (const size of ['192x192', '512x512']) assert.ok(parsed.icons.some((i) => i.sizes === size && i.purpose === 'any'), `an icon ${size}`);
  const iconUrl = new URL(parsed.icons.find((i) => i.sizes === '512x512').src, manifest.url).href;
  const icon = await page.request.get(iconUrl);
  assert.equal(icon.headers()['content-type'], 'image/png');

  // The engine in the browser answers as the server does, byte for byte.
  const queries = [
    { width: 5, height: 5, black: ['B3', 'C4', 'D4', 'E3', 'C2'], white: ['C3', 'D3'], moves: [{ color: 'black', vertex: 'D2' }] },
    { width: 9, height: 9, ruleset: 'chinese', black: ['C3'], white: ['D4'], moves: [], dead: ['D4'] },
    { width: 4, height: 4, black: ['A2', 'B1'], white: ['B2', 'C1'], moves: [{ color: 'white', vertex: 'A1' }, { color: 'black', vertex: 'pass' }, { color: 'white', vertex: 'pass' }, { color: 'black', vertex: 'B1' }] },
    { width: 9, height: 9, moves: [{ color: 'black', vertex: 'E5' }, { color: 'white', vertex: 'E5' }] },
    { width: 9, height: 9, moves: [{ color: 'black', vertex: 'Z9' }] },
    { width: 30, moves: [] },
  ];
  const compared = await page.evaluate(async (list) => {
    const src = document.querySelector('link[rel=modulepreload][href$="/js/app.js"]').href;
    const { enginePosition } = await import(new URL('engine.js', src).href);
    const out = [];
    for (const body of list) {
      const server = await fetch('/api/v1/positions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const serverText = await server.text();
      let local;
      try {
        local = JSON.stringify(await enginePosition(body));
      } catch (e) {
        local = `${e.status} ${JSON.stringify(e.detail)}`;
      }
      out.push({ server: server.ok ? JSON.stringify(JSON.parse(serverText)) : `${server.status} ${JSON.stringify(JSON.parse(serverText).error)}`, local });
    }
    return out;
  }, queries);
  for (const [i, { server, local }] of compared.entries()) assert.equal(local, server, `query ${i}: the same answer`);

  // Offline: the page opens from the worker's cache, and says so.
  await context.setOffline(true);
  await page.reload();
  await page.locator('#net[data-state=offline]').waitFor();
  await page.locator('.lobby-offline:not([hidden])').waitFor();
  await page.screenshot({ path: join(artifacts, 'offline-lobby.png') });

  // The local board, offline.
  await page.locator('.lobby-offline a[href="#/local"]').tap();
  await page.locator('form.local-setup').waitFor();
  await page.selectOption('#local-size', '9');
  await page.locator('form.local-setup button[type=submit]').tap();
  const status = page.locator('.local .status');
  await status.filter({ hasText: 'Black to play' }).waitFor();
  const tap = (v) => page.locator(`.local-board [data-vertex="${v}"]`).tap();
  await tap('E5');
  await status.filter({ hasText: 'White to play' }).waitFor();
  await tap('E5');  // taken: refused in words, nothing changes
  await page.locator('.local .board-hint', { hasText: 'There is already a stone there.' }).waitFor();
  await status.filter({ hasText: 'White to play' }).waitFor();
  await tap('A1');
  await tap('B1');
  await tap('G7');
  await tap('A2');  // Black takes A1
  await page.locator('.local-score', { hasText: 'Black 1' }).waitFor();
  assert.equal(await page.locator('.local-board [data-stone="A1"]').count(), 0, 'A1 was taken off');
  await page.locator('.local .controls button', { hasText: 'Pass' }).tap();  // White
  await page.locator('.local .controls button', { hasText: 'Pass' }).tap();  // Black
  await status.filter({ hasText: 'Both passed' }).waitFor();
  const totals = page.locator('.local-totals');
  await totals.waitFor();
  const before = await totals.textContent();
  await tap('G7');  // the lone white stone: marked dead, and counted so
  await page.locator('.local-board .stone.dead[data-stone="G7"], .local-board [data-stone="G7"].dead').waitFor();
  await page.waitForFunction((b) => document.querySelector('.local-totals')?.textContent !== b, before);
  await page.screenshot({ path: join(artifacts, 'offline-local-scoring.png') });
  await page.locator('.local .controls button', { hasText: 'Done' }).tap();
  await status.filter({ hasText: 'Game over' }).waitFor();
  const result = await status.textContent();
  assert.match(result, /Black wins by/, result);
  await page.reload();  // kept in the browser
  await status.filter({ hasText: 'Game over' }).waitFor();

  // The rules course, offline: the first exercise judged by the engine here.
  await page.goto(`${url}#/learn/liberties`);
  const exercise = page.locator('[data-exercise="liberties.1"]');
  await exercise.locator('[data-vertex="D2"]').tap();
  await exercise.locator('.exercise-feedback[data-state=solved]').waitFor();

  // Back online: connected again.
  await context.setOffline(false);
  await page.goto(url);
  await page.locator('#net[data-state=open]').waitFor();

  // A new version on the server: found behind the kept page, kept, and offered.
  appendFileSync(join(web, 'style.css'), '\n/* a new version */\n');
  await page.reload();
  await page.locator('.toast.update button').waitFor();
  await page.locator('.toast.update button').click();
  await page.locator('.lobby-challenges').waitFor();
  const versions = await page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('tengen-v-')));
  assert.equal(versions.length, 1, `one version kept: ${versions}`);
  const served = await page.evaluate(() => document.querySelector('link[rel=stylesheet]').href);
  assert.ok(served.includes(versions[0].slice('tengen-v-'.length)), 'the page is the new version');

  // A push message (delivered as the push service would, through the DevTools protocol): said in
  // the page's language when no page of Tengen is in front of the player, and not at all when one
  // is (the page says it).
  await context.grantPermissions(['notifications'], { origin: url.replace(/\/$/, '') });
  await page.evaluate(() => navigator.serviceWorker.controller.postMessage({ type: 'language', code: 'nl' }));
  const sw = context.serviceWorkers()[0];
  await page.waitForFunction(async () => (await (await caches.open('tengen-settings')).match('/language'))?.text().then((x) => x === 'nl'));
  const worker = await context.newCDPSession(page);
  const registrations = new Promise((resolve) => worker.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    const mine = e.registrations.find((r) => r.scopeURL === url && !r.isDeleted);
    if (mine) resolve(mine.registrationId);
  }));
  await worker.send('ServiceWorker.enable');
  const registrationId = await registrations;
  const deliver = async (data) => {
    await worker.send('ServiceWorker.deliverPushMessage', { origin: url.replace(/\/$/, ''), registrationId, data: JSON.stringify(data) });
    await sw.evaluate(() => self.lastPush);
    return sw.evaluate(async () => (await self.registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, url: n.data?.url })));
  };
  assert.deepEqual(await deliver({ kind: 'your_move', game: 7, opponent: 'bob', moves: 3 }), [], 'the page is in front: nothing shown');
  await page.goto('about:blank');
  assert.deepEqual(await deliver({ kind: 'your_move', game: 7, opponent: 'bob', moves: 3 }),
    [{ title: 'Je bent aan zet', body: 'Tegen bob, partij 7', url: '/#/game/7' }]);
  assert.deepEqual(failures, []);
} finally {
  await context.close();
  await stopServer(server);
}
