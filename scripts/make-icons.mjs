// Renders the web app's icons (web/icons/*.png, committed) from their two drawings in headless
// Chromium: icon.svg at every size a home screen or a store asks for, maskable.svg (everything
// inside the middle 80%, the safe zone a launcher's mask keeps) at the two a manifest needs.
// Run again after changing a drawing: node scripts/make-icons.mjs (from the repository's root,
// after tests/web's npm install, which brings playwright-core).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../tests/web/package.json', import.meta.url));
const { chromium } = require('playwright-core');
const dir = new URL('../web/icons/', import.meta.url);
const jobs = [
  ...[48, 72, 96, 144, 180, 192, 256, 384, 512].map((n) => ['icon.svg', n, `icon-${n}.png`]),
  ...[192, 512].map((n) => ['maskable.svg', n, `maskable-${n}.png`]),
];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage();
for (const [drawing, n, out] of jobs) {
  const svg = readFileSync(new URL(drawing, dir), 'utf8');
  await page.setViewportSize({ width: n, height: n });
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block;width:${n}px;height:${n}px}</style>${svg}`);
  writeFileSync(new URL(out, dir), await page.screenshot({ omitBackground: true }));
}
await browser.close();
