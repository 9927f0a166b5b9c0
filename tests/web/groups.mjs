// Groups (clubs) in the browser (docs/groups.md): the real server binary, a club made on a desktop
// in English, asked to join from a phone with touch in Dutch and approved live, joined by
// invitation link on a desktop in German; the chat live between them, a line deleted and one
// reported; a challenge for the members only, seen by members and not by an outsider, accepted
// from the group's page; the club closed with its members told. Accessible; nothing sleeps.
//
//   node tests/web/groups.mjs SERVER_BINARY WEB_ROOT ARTIFACT_DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { startServer, stopServer, launchBrowser, assertAccessible, browserTestArgs, openPage, registerIn, commandIn as command } from './harness.mjs';

const { serverBinary, webRoot, artifacts, dir } = browserTestArgs('groups');
const step = (text) => console.log(`--- ${text}`);

const { child: server, port } = await startServer({ binary: serverBinary, webRoot, dir, extra: ['--bots', 'off', '--ladder-check-seconds', '1'] });
const url = `http://127.0.0.1:${port}`;
const browser = await launchBrowser();
const failures = [];
const newPage = (label, options = {}) => openPage(browser, failures, label, { locale: 'en-GB', ...options });

try {
  step('ann makes a club whose members she approves');
  const ann = await newPage('ann');
  await registerIn(ann, url, 'ann');
  await ann.click('nav a[data-nav=groups]');
  await ann.locator('.group-list td.empty').waitFor();
  await ann.fill('#gf-name', 'Kyoto <Club>');
  await ann.fill('#gf-description', 'We meet on Tuesdays at seven.\nBeginners welcome.');
  await ann.selectOption('#gf-joining', 'request');
  await ann.click('form.group-form button[type=submit]');
  await ann.locator('form.group-form .form-error', { hasText: /letters, digits, spaces/ }).waitFor();  // a bad name, said in words
  await ann.fill('#gf-name', 'Kyoto Go Club');
  await ann.click('form.group-form button[type=submit]');
  await ann.locator('.group-head h1', { hasText: 'Kyoto Go Club' }).waitFor();
  assert.match(await ann.locator('.group-head').innerText(), /1 member · owner ann/);
  assert.match(await ann.locator('.group-description').innerText(), /Tuesdays at seven\.\nBeginners welcome\./);
  await ann.locator('.group-chat .chat-line', { hasText: 'Nothing said yet.' }).waitFor();
  await assertAccessible(ann, 'a new group\'s page, for its owner');

  step('bob, on a phone in Dutch, asks to join; ann sees the request at once and approves it');
  const bob = await newPage('bob', { locale: 'nl-NL', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await registerIn(bob, url, 'bob');
  const group = Number(/#\/group\/(\d+)/.exec(ann.url())[1]);
  await bob.goto(`${url}/#/group/${group}`);
  await bob.locator('.group-head button', { hasText: 'Vragen om lid te worden' }).tap();
  await bob.locator('.group-head [role=status]', { hasText: 'Je hebt gevraagd' }).waitFor();
  assert.equal(await bob.locator('.group-chat').isHidden(), true, 'the chat is for members');
  await ann.locator('.group-members h2 .tag', { hasText: '1 request' }).waitFor();
  await ann.locator(`tr[data-member] button[data-key$="-approve"]`).click();
  await bob.locator('.group-chat').waitFor();
  await bob.locator('.group-head .tag', { hasText: 'Jij: lid' }).waitFor();
  await bob.screenshot({ path: join(artifacts, 'groups-phone-nl.png'), fullPage: true });
  await assertAccessible(bob, 'a group\'s page on a phone, for a member');

  step('ann makes an invitation link; cyd, in German, joins with it');
  await ann.locator('.group-admin button', { hasText: 'New invitation link' }).click();
  await ann.locator('#ga-link').waitFor();  // shown once made
  const link = await ann.locator('#ga-link').inputValue();
  assert.match(link, new RegExp(`#/group/${group}/invite/[\\w-]{24}$`));
  const cyd = await newPage('cyd', { locale: 'de-DE' });
  await registerIn(cyd, url, 'cyd');
  await cyd.goto(link);
  await cyd.locator('.group-head button', { hasText: 'Beitreten' }).click();
  await cyd.locator('.group-head .tag', { hasText: 'Du: Mitglied' }).waitFor();
  await ann.locator('.group-head', { hasText: '3 members' }).waitFor();

  step('the chat: bob\'s line reaches ann and cyd as it is said; ann deletes one, cyd reports one');
  await bob.fill('#group-chat-input', 'Zullen we dinsdag een toernooi spelen?');
  await bob.locator('.group-chat form button[type=submit]').tap();
  await ann.locator('.group-chat .chat-line', { hasText: 'dinsdag een toernooi' }).waitFor();
  await cyd.locator('.group-chat .chat-line', { hasText: 'dinsdag een toernooi' }).waitFor();
  await bob.fill('#group-chat-input', 'spam spam spam');
  await bob.locator('.group-chat form button[type=submit]').tap();
  const spam = ann.locator('.group-chat .chat-line', { hasText: 'spam spam spam' });
  await spam.waitFor();
  ann.once('dialog', (d) => d.accept());
  await spam.locator('button.delete-line').click();
  await bob.locator('.group-chat .chat-line .chat-deleted').waitFor();
  await cyd.locator('.group-chat .chat-line', { hasText: 'dinsdag een toernooi' }).locator('button.report-line').click();
  await cyd.locator('dialog.report-dialog blockquote', { hasText: 'dinsdag een toernooi' }).waitFor();
  await cyd.locator('dialog.report-dialog button[type=submit]').click();
  await cyd.locator('.toast', { hasText: 'bob' }).waitFor();
  await ann.screenshot({ path: join(artifacts, 'groups-desktop.png'), fullPage: true });

  step('ann challenges the members from the group\'s page; dee, not a member, never sees it; bob accepts');
  const dee = await newPage('dee');
  await registerIn(dee, url, 'dee');
  await ann.locator('details.group-new-challenge summary').click();
  await ann.selectOption('.group-new-challenge #cf-size', '9');
  await ann.locator('.group-new-challenge button[type=submit]').click();
  await ann.locator('.group-challenges li.challenge.mine').waitFor();
  const offered = bob.locator('.group-challenges li.challenge', { hasText: 'ann' });
  await offered.waitFor();
  await cyd.locator('.group-challenges li.challenge', { hasText: 'ann' }).waitFor();
  // In cyd's lobby it carries the club's name.
  await cyd.goto(`${url}/#/`);
  await cyd.locator('.lobby-challenges a.group-tag', { hasText: 'Kyoto Go Club' }).waitFor();
  await dee.goto(`${url}/#/`);
  await dee.locator('.lobby-challenges li.empty').waitFor();
  await offered.locator('button.primary').tap();
  await bob.waitForURL(/#\/game\/\d+$/);
  await ann.waitForURL(/#\/game\/\d+$/);
  assert.equal(await dee.locator('.lobby-challenges li.challenge').count(), 0, 'dee was never shown it');

  step('a ladder: ann makes it, three join, cyd challenges ann two rungs up, ann accepts and resigns, the rungs swap');
  await ann.goto(`${url}/#/group/${group}`);
  await ann.locator('details.group-new-ladder summary').click();
  await ann.fill('#lf-name', 'Club ladder');
  await ann.selectOption('#lf-size', '9');
  await ann.selectOption('#lf-time', 'none');
  await ann.fill('#lf-reach', '2');
  await ann.click('form.ladder-form button[type=submit]');
  await ann.waitForURL(/#\/ladder\/\d+$/);
  const ladderUrl = ann.url();
  await ann.locator('.ladder-head button', { hasText: 'Join the ladder' }).click();
  await ann.locator('.ladder-head .tag', { hasText: 'You: rung 1' }).waitFor();
  await bob.goto(ladderUrl);
  await bob.locator('.ladder-head button', { hasText: 'Meedoen' }).tap();
  await bob.locator('.ladder-head .tag', { hasText: 'Jij: trede 2' }).waitFor();
  await cyd.goto(ladderUrl);
  await cyd.locator('.ladder-head button', { hasText: 'Mitmachen' }).click();
  await cyd.locator('.ladder-head .tag', { hasText: 'Du: Sprosse 3' }).waitFor();
  await ann.locator('.ladder-table tr[data-player]').nth(2).waitFor();  // live: the others joined
  await cyd.locator('.ladder-table tr[data-player]').first().locator('button', { hasText: 'Herausfordern' }).click();
  const offer = ann.locator('.ladder-challenge-list li[data-state=open] button', { hasText: 'Accept and play' });
  await offer.waitFor();
  await bob.screenshot({ path: join(artifacts, 'ladder-phone-nl.png'), fullPage: true });
  await assertAccessible(ann, 'a ladder with a challenge waiting');
  await offer.click();
  await ann.waitForURL(/#\/game\/\d+$/);
  const ladderGame = Number(/#\/game\/(\d+)/.exec(ann.url())[1]);
  await ann.locator('.game').waitFor();
  await command(ann, { type: 'resign', game: ladderGame });
  // The server finds the game over within a second or so and moves the rungs; bob's ladder page,
  // open all along, follows by itself; cyd, whose page went to the game, comes back to it.
  await bob.locator('.ladder-events li', { hasText: 'cyd versloeg ann en neemt trede 1.' }).waitFor();
  assert.equal(await bob.locator('.ladder-table tr[data-player]').first().getAttribute('data-player'), '3');
  await cyd.goto(ladderUrl);
  await cyd.locator('.ladder-head .tag', { hasText: 'Du: Sprosse 1' }).waitFor();
  await cyd.locator('.ladder-events li', { hasText: 'cyd hat ann geschlagen und nimmt Sprosse 1.' }).waitFor();
  assert.equal(await cyd.locator('.ladder-table tr[data-player]').last().locator('td a').innerText(), 'ann', 'ann on the bottom rung');
  await cyd.screenshot({ path: join(artifacts, 'ladder-desktop-de.png'), fullPage: true });

  step('ann closes the club: bob is told wherever he is');
  await ann.goto(`${url}/#/group/${group}`);
  ann.once('dialog', (d) => d.accept());
  await ann.locator('.group-admin button', { hasText: 'Close the group' }).click();
  await bob.locator('.toast', { hasText: 'De groep Kyoto Go Club is door de eigenaar gesloten.' }).waitFor();
  await ann.locator('.group-head .tag', { hasText: 'closed' }).waitFor();
  await ann.goto(`${url}/#/groups`);
  await ann.locator('.group-list tr[data-group] .tag', { hasText: 'closed' }).waitFor();
  await assertAccessible(ann, 'the list of groups');
  await ann.screenshot({ path: join(artifacts, 'groups-list.png'), fullPage: true });

  assert.deepEqual(failures, []);
  console.log('groups: ok');
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}
