// The lobby's first and return visits on a slow phone network, measured in Debian's Chromium
// (docs/performance.md, "The web client on a slow network"):
//
//   node bench/web_visits.mjs SERVER_BINARY WEB_ROOT [ROUNDS] [--no-worker]
//
// Throttled as DevTools' "Slow 4G" (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) with the
// CPU slowed four times, as Lighthouse's mobile profile. "Usable": the lobby drawn and its
// WebSocket open, timed from the navigation's start. A first visit starts with an empty cache;
// a return visit opens the lobby again in a new tab of the same browser profile (its cache kept,
// and its service worker's, unless --no-worker keeps the worker out: the HTTP cache alone).
// Bytes are what crossed the network for HTTP (headers and bodies, as Chromium counts them).
import { launchBrowser, startServer, stopServer } from '../tests/web/harness.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const noWorker = process.argv.includes('--no-worker');
const [binary, webRoot, roundsArg] = process.argv.slice(2).filter((a) => a !== '--no-worker');
if (!binary || !webRoot) {
  console.error('usage: node bench/web_visits.mjs SERVER_BINARY WEB_ROOT [ROUNDS]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 3);

async function visit(context, url) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 150, downloadThroughput: (1.6e6 / 8), uploadThroughput: (750e3 / 8),
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let requests = 0;
  let bytes = 0;
  let cached = 0;
  cdp.on('Network.requestWillBeSent', (e) => { if (!e.request.url.startsWith('data:')) requests += 1; });
  cdp.on('Network.requestServedFromCache', () => { cached += 1; });
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('.lobby-challenges').waitFor({ timeout: 60000 });
  await page.locator('#net[data-state=open]').waitFor({ timeout: 60000 });
  const usable = await page.evaluate(() => performance.now());
  await page.waitForLoadState('networkidle');
  // The service worker (web/sw.js) has kept the shell before the next visit, as it has on a
  // phone that stayed on the page a few seconds; with --no-worker there is none.
  const worker = noWorker ? false : await page.evaluate(() => navigator.serviceWorker.ready.then((r) => !!r.active));
  await page.close();
  return { usable: Math.round(usable), requests, fromCache: cached, kib: +(bytes / 1024).toFixed(1), worker };
}

const dir = mkdtempSync(join(tmpdir(), 'tengen-visits-'));
const { child, port } = await startServer({ binary, webRoot, dir });
const browser = await launchBrowser();
try {
  const url = `http://127.0.0.1:${port}/`;
  for (let round = 1; round <= rounds; round += 1) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: noWorker ? 'block' : 'allow' });
    const first = await visit(context, url);
    const again = await visit(context, url);
    console.log(`round ${round}: first visit usable ${first.usable} ms, ${first.requests} requests, ${first.kib} KiB; ` +
      `return visit usable ${again.usable} ms, ${again.requests} requests (${again.fromCache} from the cache), ${again.kib} KiB` +
      (first.worker ? ' (the service worker in charge)' : ''));
    await context.close();
  }
} finally {
  await browser.close();
  await stopServer(child);
  rmSync(dir, { recursive: true, force: true });
}
