// What the browser tests share: the real server binary on a loopback port, and Debian's chromium.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { chownSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

// A browser test's command line, `node NAME.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR`: the three
// paths (the artifact folder made), and a fresh temporary folder for the server's files.
export function browserTestArgs(name) {
  const [serverBinary, webRoot, artifacts] = process.argv.slice(2);
  if (!serverBinary || !webRoot || !artifacts) {
    console.error(`usage: ${name}.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR`);
    process.exit(2);
  }
  mkdirSync(artifacts, { recursive: true });
  return { serverBinary, webRoot, artifacts, dir: mkdtempSync(join(tmpdir(), `tengen-${name}-`)) };
}

// Starts the server on a fresh or kept SQLite file in `dir` and resolves with {child, port} once
// it listens (it writes the port to a FIFO). `extra`: more options (e.g. ['--bots', 'on']).
export function startServer({ binary, webRoot, dir, port = 0, extra = [] }) {
  const fifo = join(dir, `port-${Date.now()}`);
  execFileSync('mkfifo', [fifo]);
  const child = spawn(binary, [
    '--port', String(port), '--address', '127.0.0.1', '--port-file', fifo,
    '--database', join(dir, 'tengen.sqlite3'), '--web-root', webRoot,
    '--insecure-fast-password-hashing', 'yes', '--log-level', 'warn',
    '--registrations-per-address', '0',
    // The house analysis worker only where a test asks for it (`extra`).
    '--analysis-worker', 'off', ...extra,
  ], { stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const stream = createReadStream(fifo, { encoding: 'utf8' });
    stream.on('data', (d) => { text += d; });
    stream.on('end', () => resolve({ child, port: Number(text.trim()) }));
    stream.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
}

// SIGTERM, and the exit code once it has stopped (at once if it is not running).
export function stopServer(child) {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

// A PostgreSQL of the test's own (Debian's postgresql-15): initdb and pg_ctl into `dir`/pg, on a
// Unix socket in `dir` only, with an empty database `name`. Returns its URI for --database and
// pg_ctl itself (pgCtl('-m', 'immediate', 'stop'), pgCtl('start')). PostgreSQL refuses to run as
// root: as root, it runs as the Debian package's postgres account.
export function startPostgres(dir, name) {
  const bin = '/usr/lib/postgresql/15/bin';
  const root = process.getuid() === 0;
  const pgDir = join(dir, 'pg');
  const asPostgres = (command, args) => (root
    ? execFileSync('/usr/sbin/runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' })
    : execFileSync(command, args, { stdio: 'pipe' }));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  asPostgres(`${bin}/initdb`, ['-D', pgDir, '-A', 'trust', '-U', 'tengen', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const pgCtl = (...args) => asPostgres(`${bin}/pg_ctl`, ['-D', pgDir, '-l', join(dir, 'pg.log'), '-w',
    '-o', `-c listen_addresses='' -k ${dir} -c fsync=off`, ...args]);
  pgCtl('start');
  execFileSync('/usr/bin/psql', ['-q', '-h', dir, '-U', 'tengen', '-d', 'postgres', '-c', `CREATE DATABASE ${name}`]);
  return { uri: `postgresql://tengen@/${name}?host=${dir}`, pgCtl };
}

// A NATS server (Debian's nats-server) on 127.0.0.1 and a port it picks, which it writes into a
// file in `dir`: resolves with {child, url} once that file is whole.
export function startNats(dir) {
  const child = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', '-1', '--ports_file_dir', dir],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  const file = join(dir, `nats-server_${child.pid}.ports`);
  return new Promise((resolve, reject) => {
    const tryRead = () => {
      if (!existsSync(file)) return false;
      try {
        const url = JSON.parse(readFileSync(file, 'utf8')).nats[0];
        watcher.close();
        resolve({ child, url });
        return true;
      } catch {
        return false;  // written in part: the next change finishes it
      }
    };
    const watcher = watch(dir, () => tryRead());
    child.on('exit', (code) => { watcher.close(); reject(new Error(`nats-server exited (${code})`)); });
    tryRead();
  });
}

// A page in a context of its own (its own cookies: one player), at a desktop's size unless
// `options` say otherwise. Page errors are collected in `failures` (the test asserts none);
// console errors are printed, except for HTTP statuses the test provokes on purpose (`expected`).
// bypassCSP: the server's policy forbids inline scripts, and axe-core is injected as one.
export async function openPage(browser, failures, label,
  { expected = /40[01]/, timeout = 15000, ...options } = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options, bypassCSP: true });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  page.on('pageerror', (e) => { console.error(`[${label}] page error: ${e.message}`); failures.push(`${label}: ${e.message}`); });
  page.on('console', (m) => { if (m.type() === 'error' && !expected.test(m.text())) console.error(`[${label}] console: ${m.text()}`); });
  return page;
}

// Creates an account from the page's sign-up form and waits until it is logged in and connected.
export async function registerIn(page, url, name, password = 'correct horse battery') {
  await page.goto(`${url}/#/login`);
  await page.fill('#register-username', name);
  await page.fill('#register-password', password);
  await page.click('form.register button[type=submit]');
  await page.locator('.account .me', { hasText: name }).waitFor();
  await page.locator('#net[data-state=open]').waitFor();
}

// A command over a WebSocket of the page's own (its login's cookie), as a program would send it:
// the ack, or the error as an exception.
export function commandIn(page, message) {
  // Each command its own cid: the server answers a repeated one as the retry it would be.
  const cid = `test-${++commandsSent}`;
  return page.evaluate(([m, id]) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws/v1`);
    ws.onopen = () => ws.send(JSON.stringify({ v: 1, cid: id, ...m }));
    ws.onmessage = (e) => {
      const answer = JSON.parse(e.data);
      if (answer.cid !== id) return;
      ws.close();
      if (answer.type === 'ack') resolve(answer); else reject(new Error(e.data));
    };
  }), [message, cid]);
}
let commandsSent = 0;

const chromiumOptions = {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
};

export function launchBrowser() {
  return chromium.launch(chromiumOptions);
}

// A browser with a profile of its own in `profileDir` (not incognito, as every launchBrowser
// context is): what Chromium asks of a page it would install. One context: the returned one.
export function launchProfile(profileDir, contextOptions = {}) {
  return chromium.launchPersistentContext(profileDir, { ...chromiumOptions, ...contextOptions });
}

// axe-core (npm, pinned) on the page as it is: no serious or critical violation of WCAG 2.x A/AA.
// The page's context needs bypassCSP: the server's policy forbids inline scripts, and axe-core is
// injected as one.
const axePath = join(dirname(fileURLToPath(import.meta.url)), 'node_modules', 'axe-core', 'axe.min.js');
export async function assertAccessible(page, name) {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], `accessibility of ${name}`);
}

// Every WebSocket a page opens, the resyncs it is told and the sockets that close (the cluster's
// tests: a page that keeps its socket through a fault).
export function watchSockets(page) {
  const seen = { sockets: 0, resyncs: 0, closed: 0 };
  page.on('websocket', (ws) => {
    ++seen.sockets;
    ws.on('framereceived', (f) => { if (String(f.payload).includes('"type":"resync"')) ++seen.resyncs; });
    ws.on('close', () => { ++seen.closed; });
  });
  return seen;
}

// Two players of a cluster's nodes in a 9×9 game, their pages on it: Black (ann, a desktop in
// English) on the node at `blackUrl` challenges; White (bob, a phone in Dutch, by touch) accepts
// on the node at `whiteUrl`. Their sockets are watched from the start.
export async function twoPlayersOnTwoNodes(browser, failures, blackUrl, whiteUrl) {
  const ann = await openPage(browser, failures, 'ann', { locale: 'en-GB' });
  const bob = await openPage(browser, failures, 'bob',
    { locale: 'nl-NL', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const annSeen = watchSockets(ann);
  const bobSeen = watchSockets(bob);
  await registerIn(ann, blackUrl, 'ann');
  await registerIn(bob, whiteUrl, 'bob');
  const created = await commandIn(ann, { type: 'create_challenge', settings: { width: 9, color: 'black' } });
  const accepted = await commandIn(bob, { type: 'accept_challenge', challenge: created.challenge });
  const game = accepted.game;
  await ann.goto(`${blackUrl}/#/game/${game}`);
  await bob.goto(`${whiteUrl}/#/game/${game}`);
  return { ann, bob, annSeen, bobSeen, game };
}
