// What players hit at the edges (issue "Private stays private, and the edges players hit"), each
// as a person meets it in the browser: a review of a private game seen only by its players and
// whom they invite; a declined challenge that says who declined and why. The real server binary
// with its GNU Go house bots, and Debian's chromium; nothing sleeps.
//
//   node tests/web/edges.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('edges');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'on'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', expected: /40[0134]|429/, ...options });
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

try {
  step('a private game between alice and bob ends; alice opens a review board of it');
  const alice = await newPage('alice');
  const bob = await newPage('bob');
  const carol = await newPage('carol', phone);
  const guest = await newPage('guest');
  await registerIn(alice, url, 'alice');
  await registerIn(bob, url, 'bob');
  await registerIn(carol, url, 'carol');
  const { challenge } = await command(alice, { type: 'create_challenge', opponent: 'bob', settings: { width: 9, color: 'black', private: true } });
  const { game } = await command(bob, { type: 'accept_challenge', challenge });
  await command(alice, { type: 'play', game, vertex: 'E5' });
  await command(bob, { type: 'play', game, vertex: 'C3' });
  await command(alice, { type: 'resign', game });
  await alice.goto(`${url}/#/game/${game}`);
  // A British browser: times as the British write them (once "05:41 PM"), in the chat.
  const stamp = await alice.locator('.chat-time').first().innerText();
  assert.match(stamp, /^\d\d:\d\d$/, `en-GB time: ${stamp}`);
  await alice.click('.open-review');
  await alice.waitForURL(/#\/review\/\d+$/);
  const reviewUrl = alice.url();
  const privacy = alice.locator('.review-room .privacy');
  await privacy.locator('text=only alice and bob').waitFor();

  step('a guest\'s page asks nothing it will be refused (no 401 in the console on every visit)');
  const refusals = [];
  guest.on('console', (m) => { if (m.type() === 'error' && /401/.test(m.text())) refusals.push(m.text()); });
  await guest.goto(`${url}/#/`);
  await guest.locator('.welcome h2').waitFor();
  await guest.reload();
  await guest.locator('.welcome h2').waitFor();
  assert.deepEqual(refusals, []);
  await alice.reload();  // a signed-in page still finds its login
  await alice.locator('.account .me', { hasText: 'alice' }).waitFor();
  // A login made before the marker cookie existed: the WebSocket's welcome says who it is.
  await alice.context().clearCookies({ name: 'tengen_signed_in' });
  await alice.reload();
  await alice.locator('.account .me', { hasText: 'alice' }).waitFor();
  assert.ok((await alice.context().cookies()).some((c) => c.name === 'tengen_signed_in' && c.value === '1'), 'marked again');

  step('nobody else sees it: not in the lobby, not by its address, not its file');
  for (const p of [carol, guest]) {
    await p.goto(`${url}/#/`);
    await p.locator('.lobby-reviews .empty', { hasText: 'No reviews right now.' }).waitFor();
    await p.goto(reviewUrl);
    await p.locator('.review-room .board-holder .empty', { hasText: 'no open review' }).waitFor();
  }
  const id = reviewUrl.match(/review\/(\d+)/)[1];
  assert.equal((await fetch(`${url}/api/v1/reviews/${id}.sgf`)).status, 404);

  step('alice invites carol: carol finds it in her lobby, marked private, and follows it on her phone');
  await privacy.locator('input[name=invite]').fill('carol');
  await privacy.locator('button', { hasText: 'Invite' }).click();
  await privacy.locator('.invited li', { hasText: 'carol' }).waitFor();
  await alice.screenshot({ path: join(artifacts, 'edges-private-review.png'), fullPage: true });
  await assertAccessible(alice, 'a private review, its owner inviting');
  await privacy.locator('input[name=invite]').fill('nobody');
  await privacy.locator('button', { hasText: 'Invite' }).click();
  await alice.locator('.review-room .analysis-error', { hasText: "no user named 'nobody'" }).waitFor();
  await carol.goto(`${url}/#/`);
  // Every link of the bar within the phone's width (it once cut "My g…" and hid Admin).
  const mine = await carol.locator('#nav-mine').boundingBox();
  assert.ok(mine && mine.x >= 0 && mine.x + mine.width <= 390, `My games at ${JSON.stringify(mine)}`);
  const listed = carol.locator('.lobby-reviews li', { hasText: 'alice vs bob' });
  await listed.locator('.tag', { hasText: 'Private' }).waitFor();
  await listed.locator('a').click();
  await carol.locator('.review-room .privacy .invited li', { hasText: 'carol' }).waitFor();
  assert.equal(await carol.locator('.review-room .privacy input[name=invite]').count(), 0, 'an invitee does not invite');
  await carol.screenshot({ path: join(artifacts, 'edges-private-review-phone.png'), fullPage: true });
  await assertAccessible(carol, 'a private review, followed on a phone');

  step('bob, the other player, takes the invitation back: carol is told, and it is gone for her');
  await bob.goto(reviewUrl);
  await bob.locator('.review-room .privacy .invited li', { hasText: 'carol' }).getByRole('button').click();
  await carol.locator('[role=alert]', { hasText: 'You are no longer invited to this review.' }).waitFor();
  await alice.locator('.review-room .privacy p', { hasText: 'Invited:' }).waitFor({ state: 'detached' });
  await carol.goto(`${url}/#/`);
  await carol.locator('.lobby-reviews .empty', { hasText: 'No reviews right now.' }).waitFor();

  step('a declined challenge says who declined it, and why when they say');
  await alice.goto(`${url}/#/`);
  const toBob = await command(alice, { type: 'create_challenge', opponent: 'bob', settings: { width: 9, color: 'black' } });
  await bob.goto(`${url}/#/`);
  await bob.locator('.challenges li', { hasText: 'alice' }).getByRole('button', { name: 'Decline' }).click();
  await alice.locator('.toast', { hasText: 'bob declined your challenge.' }).waitFor();
  assert.ok(toBob.challenge > 0);
  // The house bots read weakest to strongest, each ranked from its level.
  await alice.locator('.play-bot li', { hasText: 'gnugo-strong' }).locator('.rank', { hasText: '8k?' }).waitFor();
  const names = await alice.locator('.play-bot li a').allInnerTexts();
  const ranks = await alice.locator('.play-bot li .rank').allInnerTexts();
  assert.deepEqual(names.map((n, k) => `${n} ${ranks[k]}`), ['gnugo-easy 14k? · bot', 'gnugo-medium 11k? · bot', 'gnugo-strong 8k? · bot']);
  // A correspondence challenge to a house bot, which plays live games only.
  await command(alice, { type: 'create_challenge', opponent: 'gnugo-easy', settings: { width: 9, color: 'black', time: { system: 'correspondence', per_move_ms: 86400000 } } });
  const declined = alice.locator('.toast', { hasText: 'gnugo-easy declined your challenge: ' });
  await declined.waitFor();
  console.log(`    told: ${await declined.innerText()}`);
  await alice.screenshot({ path: join(artifacts, 'edges-declined.png') });

  assert.deepEqual(failures, []);
  console.log('edges: every step passed');
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}
