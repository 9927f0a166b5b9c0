// A return visit costs almost nothing (docs/web-client.md, "Caching"): a guest opens the lobby,
// then opens it again in a new tab of the same browser. The second time the page is revalidated
// (304) and every script, stylesheet and catalog comes from the browser's cache without asking;
// what crosses the network for HTTP stays under 10 KiB. A game's page, loaded on demand, works.
// Chromium counts the bytes (the DevTools protocol); nothing sleeps.
//
//   node tests/web/caching.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, browserTestArgs, openPage } from './harness.mjs';

const { serverBinary, webRoot, dir } = browserTestArgs('caching');
const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off'] });
const url = `http://127.0.0.1:${port}/`;
const browser = await launchBrowser();
const failures = [];
try {
  // The browser's HTTP cache alone: the service worker (which answers a return visit from its own
  // cache, tests/web/offline.mjs) is kept out of this context.
  const first = await openPage(browser, failures, 'first', { serviceWorkers: 'block' });
  const context = first.context();

  // Opens the lobby in `page` and returns what went over the network: [url, status, bytes].
  async function visit(page) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const seen = new Map();
    cdp.on('Network.responseReceived', (e) => {
      seen.set(e.requestId, { url: e.response.url, status: e.response.status, cached: e.response.fromDiskCache || e.response.fromMemoryCache, bytes: 0 });
    });
    cdp.on('Network.loadingFinished', (e) => { const r = seen.get(e.requestId); if (r) r.bytes = e.encodedDataLength; });
    // The status on the wire (a revalidated page shows as 200 from the cache in responseReceived).
    const wire = new Map();
    cdp.on('Network.responseReceivedExtraInfo', (e) => wire.set(e.requestId, e.statusCode));
    await page.goto(url);
    await page.locator('.lobby-challenges').waitFor();
    await page.locator('#net[data-state=open]').waitFor();
    await page.waitForLoadState('networkidle');
    return [...seen.entries()].map(([id, r]) => ({ ...r, status: wire.get(id) ?? r.status }));
  }

  const firstSeen = await visit(first);
  const assets = firstSeen.filter((r) => /\/v\/[0-9a-f]+\//.test(r.url));
  assert.ok(assets.length >= 10, `the page loads its assets under its version: ${JSON.stringify(firstSeen.map((r) => r.url))}`);
  assert.ok(firstSeen.some((r) => /\/v\/[0-9a-f]+\/locales\/en\.json$/.test(r.url)), 'the catalog beside the modules');

  const again = await context.newPage();
  const againSeen = await visit(again);
  const fetched = againSeen.filter((r) => !r.cached);
  const page = fetched.find((r) => r.url === url);
  assert.equal(page?.status, 304, `the page is revalidated: ${JSON.stringify(fetched)}`);
  const assetsFetched = fetched.filter((r) => /\/v\//.test(r.url));
  assert.deepEqual(assetsFetched, [], 'no asset is asked for again');
  const bytes = againSeen.reduce((sum, r) => sum + r.bytes, 0);
  assert.ok(bytes <= 10 * 1024, `a return visit moves ${bytes} bytes`);
  console.log(`first visit: ${firstSeen.length} responses, ${(firstSeen.reduce((s, r) => s + r.bytes, 0) / 1024).toFixed(1)} KiB; ` +
    `return visit: ${fetched.length} over the network, ${(bytes / 1024).toFixed(1)} KiB`);

  // A page loaded when first opened: the course (no account needed) draws its board.
  await again.goto(`${url}#/learn/liberties`);
  await again.locator('svg').first().waitFor();
  assert.deepEqual(failures, []);
} finally {
  await browser.close();
  await stopServer(server);
}
