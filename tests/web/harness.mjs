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

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
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
