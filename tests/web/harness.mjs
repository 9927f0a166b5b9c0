// What the browser tests share: the real server binary on a loopback port, and Debian's chromium.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync } from 'node:fs';
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
    '--registrations-per-address', '0', ...extra,
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
    if (!child || child.exitCode !== null) return resolve();
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
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
