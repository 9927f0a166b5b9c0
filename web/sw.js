// Tengen's service worker (docs/web-client.md, "Offline"): it keeps the client's shell, so that
// the page opens at once on a return visit and with no network at all, and the rules course and
// the local board work offline. Served at /sw.js (never cached, so the browser sees a new one).
//
// What it keeps: the page ("/") and every file of the client under /v/<version>/ (the server's
// /shell.json lists them), in one cache per version. The page is answered from the cache and
// asked for again behind it; when the server's page names a new version, that version's files
// are fetched and kept, the old cache dropped, and the open pages told ("a new version is
// ready"). Files under /v/ never change, so they are answered from the cache. Nothing else (the
// API, the WebSocket, this worker, /shell.json) is touched.
//
// Push (docs/web-client.md, "Push"): a message from the server names what happened (its kind,
// the game, the opponent); the worker says it in the language the page last told it, with the
// words of the kept catalog, unless a page of Tengen is open and visible (then nothing is
// shown: the page says it). A click on the notification opens or focuses the game.
const PREFIX = 'tengen-v-';

async function keep(version, files) {
  const cache = await caches.open(PREFIX + version);
  await cache.addAll(['/', ...files.map((f) => `/v/${version}/${f}`)]);
  return cache;
}

// The shell the server has now, kept; its version. Older versions' caches go once it is kept.
async function update() {
  const response = await fetch('/shell.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`/shell.json: ${response.status}`);
  const shell = await response.json();
  if (!(await caches.has(PREFIX + shell.version))) await keep(shell.version, shell.files);
  opened.clear();
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== PREFIX + shell.version) await caches.delete(name);
  }
  return shell.version;
}

self.addEventListener('install', (event) => {
  event.waitUntil(update().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

async function newestCache() {
  const names = (await caches.keys()).filter((n) => n.startsWith(PREFIX));
  return names.length ? caches.open(names[names.length - 1]) : null;
}

const versionOf = (html) => /\/v\/([0-9a-f]+)\//.exec(html)?.[1] ?? null;

// The page: from the cache when kept (a return visit costs no round trip), and from the server
// behind it; a new version found there is kept, and the open pages told.
let checking = Promise.resolve();  // the last look behind a kept page, until it is done
async function page(event) {
  const cache = await newestCache();
  const kept = cache ? await cache.match('/') : null;
  const copy = kept?.clone();  // the page itself goes to the page, read or not by then
  const fresh = fetch('/', { cache: 'no-cache' }).then(async (response) => {
    if (!response.ok || !copy) return response;
    const [now, before] = await Promise.all([response.clone().text(), copy.text()]);
    if (versionOf(now) && versionOf(now) !== versionOf(before)) {
      await update();
      for (const client of await self.clients.matchAll()) client.postMessage({ type: 'update-ready' });
    }
    return response;
  });
  if (!kept) return fresh;
  checking = fresh.catch(() => null);  // offline: the kept page is all there is
  event.waitUntil(checking);
  return kept;
}

const SETTINGS = 'tengen-settings';  // what the page tells the worker (its language)

// The words of `language`'s catalog, from the newest kept version (English if it is not kept).
async function words() {
  const settings = await caches.open(SETTINGS);
  const language = (await (await settings.match('/language'))?.text()) || 'en';
  const names = (await caches.keys()).filter((n) => n.startsWith(PREFIX));
  const version = names.at(-1)?.slice(PREFIX.length);
  for (const code of [language, 'en']) {
    const kept = version ? await caches.match(`/v/${version}/locales/${code}.json`) : null;
    if (kept) return { catalog: await kept.json(), version };
  }
  return { catalog: {}, version };
}

const ENGLISH = {
  your_move: ['Your move', 'Against {opponent}, game {game}'],
  game_start: ['Your game has started', 'Against {opponent}, game {game}'],
  round_start: ['Round {round} has started', 'Your game against {opponent}'],
  opponent_back: ['{opponent} is back', 'Game {game} goes on'],
  test: ['Notifications work', 'This device will be told when it is your move.'],
};

async function notify(data) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (windows.some((w) => w.visibilityState === 'visible')) return;  // the page says it
  const kind = ENGLISH[data.kind] ? data.kind : 'test';
  const { catalog, version } = await words();
  const say = (key, fallback) => (catalog[key] ?? fallback).replace(/\{(\w+)\}/g, (_, name) => String(data[name] ?? ''));
  const url = data.game ? `/#/game/${data.game}` : '/';
  await self.registration.showNotification(say(`push.${kind}_title`, ENGLISH[kind][0]), {
    body: say(`push.${kind}_body`, ENGLISH[kind][1]),
    tag: data.game ? `game-${data.game}` : `tengen-${kind}`,
    renotify: true,
    icon: version ? `/v/${version}/icons/icon-192.png` : undefined,
    data: { url },
  });
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data?.json() ?? {};
  } catch {
    data = {};
  }
  self.lastPush = notify(data);  // what the browser test waits for
  event.waitUntil(self.lastPush);
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/', self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
    if (open) {
      await open.focus();
      return open.navigate(url);
    }
    return self.clients.openWindow(url);
  })());
});

// A page asks which version is kept (once its own listener is there: a message sent before then
// would be lost), after the look behind its own load.
self.addEventListener('message', (event) => {
  if (event.data?.type === 'language' && /^[a-z]{2,3}$/.test(event.data.code ?? '')) {
    event.waitUntil(caches.open(SETTINGS).then((c) => c.put('/language', new Response(event.data.code))));
    return;
  }
  if (event.data?.type !== 'version?') return;
  event.waitUntil(checking.then(async () => {
    const names = (await caches.keys()).filter((n) => n.startsWith(PREFIX));
    event.source.postMessage({ type: 'version', version: names.at(-1)?.slice(PREFIX.length) ?? null });
  }));
});

// A file under /v/<version>/: from that version's cache when it is kept (and kept there when it was
// missing), else from the server.
const opened = new Map();  // cache name → its Cache, opened once (a page asks for 30 files at once)
async function open(name) {
  if (!opened.has(name)) opened.set(name, caches.has(name).then((kept) => (kept ? caches.open(name) : null)));
  return opened.get(name);
}

async function file(request) {
  const own = await open(PREFIX + new URL(request.url).pathname.split('/')[2]);
  if (!own) return fetch(request);  // a version not kept: as if there were no worker
  const hit = await own.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await own.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && (url.pathname === '/' || url.pathname === '/index.html')) {
    event.respondWith(page(event));
  } else if (url.pathname.startsWith('/v/')) {
    event.respondWith(file(request));
  }
});
