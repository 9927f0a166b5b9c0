// Tengen's web client: one page, views chosen by the URL's hash, one WebSocket shared by all
// of them. No build step: the browser loads these ES modules as they are.
import { h, fill } from './util.js';
import { Connection } from './connection.js';
import { currentUser, logout, fetchJson } from './api.js';
import { mountLobby } from './lobby.js';
import { mountAccount } from './account.js';
import { mountReviewRoom } from './review_room.js';
import { rankTag, refreshRanks } from './ranks.js';
import { mountDisplaySettings } from './display.js';
import { blindOn, setBlind } from './blind.js';
import { mountVerify, mountReset, mountUnsubscribe } from './mail.js';
import { t, startLanguage, formatDateTime, currentLanguage } from './i18n.js';
import { Enum, Message } from './wire.js';

const view = document.getElementById('view');
const net = document.getElementById('net');
const account = document.getElementById('account');
const toasts = document.getElementById('toasts');
const navMine = document.getElementById('nav-mine');
const navAdmin = document.getElementById('nav-admin');
const navClasses = document.getElementById('nav-classes');

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/v1`;

const ctx = {
  conn: new Connection(wsUrl),
  user: null,
  // seeking: {seek, waiting, since} while this player waits for a quick match.
  lobby: { challenges: new Map(), online: new Map(), onlineCount: 0, seeking: null },
  events: new EventTarget(),  // 'lobby' (detail: 'game' when a game started)
  toast,
  navigate: (hash) => { location.hash = hash; },
  signedIn(user) {
    setUser(user);
    ctx.conn.restart();  // the WebSocket learns who we are at the upgrade
    ctx.navigate(sessionStorage.getItem('tengen-return') || '#/');
    sessionStorage.removeItem('tengen-return');
  },
};

function toast(message, { kind = 'error', link = null, ms = 7000 } = {}) {
  const item = h('div', { class: `toast ${kind}` }, message, link ? h('a', { href: link.href }, link.text) : '');
  toasts.append(item);
  setTimeout(() => item.remove(), ms);
}

function setUser(user) {
  ctx.user = user;
  navMine.hidden = !user;
  navAdmin.hidden = !user?.admin;
  showClasses(user);
  if (user) navMine.href = `#/user/${encodeURIComponent(user.name)}`;
  if (user) {
    fill(account, h('a', { href: navMine.href, class: 'me' }, user.name, rankTag(user)),
      h('button', { class: 'link', onclick: signOut }, t('nav.log_out')));
  } else {
    fill(account, h('a', { href: '#/login', class: 'login-link' }, t('nav.log_in')));
  }
}

// Teachers see "Classes" (docs/classes.md); a student sees "My class", the class's page.
async function showClasses(user) {
  navClasses.hidden = true;
  ctx.myClass = null;
  if (!user) return;
  try {
    const answer = await fetchJson('/api/v1/me/class');
    if (ctx.user !== user) return;
    ctx.myClass = answer.student ?? null;
    if (answer.teacher) {
      navClasses.href = '#/classes';
      navClasses.dataset.i18n = 'nav.classes';  // translatePage keeps it in the page's language
      navClasses.textContent = t('nav.classes');
      navClasses.hidden = false;
    } else if (answer.student) {
      navClasses.href = `#/group/${answer.student.class}`;
      navClasses.dataset.i18n = 'nav.my_class';
      navClasses.textContent = t('nav.my_class');
      navClasses.hidden = false;
    }
  } catch { /* offline, or no classes here: no link */ }
}

async function signOut() {
  try {
    await logout();
  } catch (err) {
    toast(err.message);
    return;
  }
  setUser(null);
  ctx.conn.restart();
  route();
}

// ---- connection indicator and lobby state ----

// True until start() knows the player: a welcome meanwhile is start()'s business (welcomedAs).
let starting = true;
let welcomedAs = null;

// Offline: the device has no network (the browser says so) and the server is not reachable. The
// shell, the rules course and the local board still work (sw.js, engine.js).
ctx.offline = () => !navigator.onLine && !ctx.conn.isOpen;

function showStatus() {
  const state = ctx.offline() ? 'offline' : ctx.conn.status;
  net.dataset.state = state;
  net.querySelector('.net-text').textContent = t(`net.${state}`);
}

for (const change of ['online', 'offline']) {
  window.addEventListener(change, () => {
    showStatus();
    ctx.events.dispatchEvent(new CustomEvent('lobby', { detail: 'network' }));
    if (change === 'online' && !ctx.conn.isOpen) ctx.conn.restart();  // not at the backoff's pace
  });
}

ctx.conn.addEventListener('status', () => {
  showStatus();
  // The database is away: said once in full; the indicator keeps saying it until it is back.
  if (ctx.conn.status === 'degraded') toast(t('net.degraded_long'));
});

// The login this page used has ended (logged out elsewhere, or suspended by the administrators):
// the page becomes a guest's, and the login form will say why if the account is restricted.
ctx.conn.addEventListener('session-ended', async (e) => {
  if (!ctx.user) return;
  // Suspended or banned: said so, and until when, at once (the login form says the reason).
  const suspended = /^suspended until (\d+)$/.exec(e.detail ?? '');
  if (suspended || e.detail === 'banned') {
    setUser(null);
    toast(suspended ? t('account.suspended', { when: formatDateTime(Number(suspended[1])) }) : t('account.banned'));
    ctx.navigate('#/login');
    return;
  }
  let user = null;
  try {
    user = await currentUser();
  } catch {
    return;  // the server cannot be asked now: the next reconnection tries again
  }
  if (user) return;
  setUser(null);
  toast(t('account.session_ended'));
  ctx.navigate('#/login');
});

ctx.conn.addEventListener('message', (e) => {
  const m = e.detail;
  const lobby = ctx.lobby;
  switch (m.type) {
    case Message.welcome:
      // Signed in after all (a login older than the marker cookie): the page catches up.
      if (starting) {
        welcomedAs = m.user ?? null;  // start() catches up once it knows who it asked about
        return;
      }
      if (m.user && !ctx.user) currentUser({ ask: true }).catch(() => null).then((u) => { if (u) { setUser(u); route(); } });
      return;
    case Message.lobby:
      lobby.challenges = new Map(m.challenges.map((c) => [c.id, c]));
      lobby.online = new Map(m.online.map((u) => [u.id, u]));
      lobby.onlineCount = m.online_count;
      lobby.seeking = null;  // a seek outlives no connection; one still waiting is told again
      break;
    case Message.challenge_opened: lobby.challenges.set(m.challenge.id, m.challenge); break;
    case Message.challenge_closed:
      lobby.challenges.delete(m.challenge);
      // Declined by the one challenged: the challenger is told who, and why if they said.
      if (m.reason === 'declined' && m.by && ctx.user && m.by.id !== ctx.user.id) {
        toast(m.why ? t('challenge.declined_why', { name: m.by.name, why: m.why }) : t('challenge.declined', { name: m.by.name }), { kind: 'info' });
      }
      break;
    case Message.presence:
      for (const u of m.online) lobby.online.set(u.id, u);
      for (const u of m.offline) lobby.online.delete(u.id);
      lobby.onlineCount = m.online_count;
      break;
    case Message.game_started: gameStarted(m); break;
    case Message.group:  // a group closed or deleted by its owner: its members are told wherever they are
      if (m.change === Enum.GroupChange.members) ctx.groupsAsked = null;  // maybe joined: the lobby asks again
      if (m.change === Enum.GroupChange.closed || m.change === Enum.GroupChange.deleted) {
        ctx.groupsAsked = null;
        toast(t(`groups.told_${m.change}`, { name: m.name }), { kind: 'info' });
      }
      return;
    case Message.ratings_changed:  // a rated game played on another node, rated by the hub now
      refreshRanks(m.users);
      return;
    case Message.seeking:
      lobby.seeking = m.seek ? { seek: m.seek, waiting: m.waiting, since: lobby.seeking?.since ?? Date.now() } : null;
      break;
    default: return;
  }
  ctx.events.dispatchEvent(new CustomEvent('lobby', { detail: m.type === Message.challenge_closed && m.game ? 'game' : m.type }));
});

const NEXT_ROUND_S = 15;
function gameStarted(m) {
  const me = ctx.user?.id;
  // A pair Go game's every player is told, not only the two who sit as Black and White.
  const teams = m.settings.teams;
  const mine = teams ? [...teams.black, ...teams.white].some((p) => p.id === me) : me === m.black.id || me === m.white.id;
  if (!mine) return;
  // A simul's host plays every board from its page (simuls.js), which shows the new games.
  if (ctx.holdGameStarts) return;
  const here = /^#\/game\/(\d+)/.exec(location.hash);
  // A tournament's next round, from the game just over: its result and the standings first; the
  // new game in a few seconds (its first move has the tournament's own, longer, countdown).
  if (m.tournament && here && ctx.finishedGame === Number(here[1]) && Number(here[1]) !== m.game) {
    const from = location.hash;
    toast(t('app.next_round', { round: m.tournament.round, name: me === m.black.id ? m.white.name : m.black.name, n: NEXT_ROUND_S }) + ' ',
      { kind: 'info', link: { href: `#/game/${m.game}`, text: t('app.go_to_it') }, ms: NEXT_ROUND_S * 1000 });
    setTimeout(() => { if (location.hash === from) ctx.navigate(`#/game/${m.game}`); }, NEXT_ROUND_S * 1000);
    return;
  }
  // From a game that is over (a rematch, say) straight to the new one; from one in play, a word.
  if (here && Number(here[1]) !== m.game && ctx.finishedGame !== Number(here[1])) {
    toast(t('app.game_started', { name: me === m.black.id ? m.white.name : m.black.name }) + ' ', { kind: 'info', link: { href: `#/game/${m.game}`, text: t('app.go_to_it') } });
  } else if (!here || Number(here[1]) !== m.game) {
    ctx.navigate(`#/game/${m.game}`);
  }
}

// ---- routing ----

let unmount = () => {};

let routed = false;
// A page whose module is loaded when first opened (docs/web-client.md, "Caching"): the lobby's
// modules come first and alone; a game's, a tournament's, the course's, the administrators' and
// the lists' follow when asked for (from the cache after the first time). Its unmount forgets a
// load still under way.
function later(load, mount) {
  let gone = false;
  let unmountPage = () => {};
  fill(view, h('p', { class: 'muted', role: 'status' }, t('app.loading')));  // the first time, on a slow network
  load().then((module) => { if (!gone) unmountPage = mount(module); },
    (err) => { if (!gone) toast(err.message); });
  return () => {
    gone = true;
    unmountPage();
  };
}

function route() {
  unmount();
  unmount = () => {};
  // A new page starts at its top, with the focus on it (a screen reader reads on from there; the
  // next Tab is the page's first control), not where the last page was scrolled or focused.
  if (routed) {
    window.scrollTo(0, 0);
    view.focus({ preventScroll: true });
  }
  routed = true;
  const hash = location.hash || '#/';
  let m;
  for (const a of document.querySelectorAll('[data-nav]')) a.removeAttribute('aria-current');
  const current = (name) => document.querySelector(`[data-nav="${name}"]`)?.setAttribute('aria-current', 'page');
  if ((m = /^#\/game\/(\d+)$/.exec(hash))) {
    document.title = `${t('title.game', { id: m[1] })} · Tengen`;
    unmount = later(() => import('./game.js'), (g) => g.mountGame(view, ctx, Number(m[1])));
  } else if ((m = /^#\/review\/(\d+)$/.exec(hash))) {
    document.title = `${t('title.review', { id: m[1] })} · Tengen`;
    unmount = mountReviewRoom(view, ctx, Number(m[1]));
  } else if (hash === '#/tournaments') {
    current('tournaments');
    document.title = `${t('nav.tournaments')} · Tengen`;
    unmount = later(() => import('./tournaments.js'), (p) => p.mountTournamentList(view, ctx));
  } else if ((m = /^#\/tournament\/(\d+)$/.exec(hash))) {
    current('tournaments');
    document.title = `${t('title.tournament', { id: m[1] })} · Tengen`;
    unmount = later(() => import('./tournaments.js'), (p) => p.mountTournament(view, ctx, Number(m[1])));
  } else if ((m = /^#\/tournament\/(\d+)\/print\/(pairings|standings|slips)(?:\/(\d+))?$/.exec(hash))) {
    current('tournaments');  // a page for paper (docs/tournaments.md, "Printed pages")
    unmount = later(() => import('./tournaments.js'), (p) => p.mountTournamentPrint(view, ctx, Number(m[1]), m[2], m[3] ? Number(m[3]) : null));
  } else if (hash === '#/groups') {
    current('groups');
    document.title = `${t('nav.groups')} · Tengen`;
    unmount = later(() => import('./groups.js'), (p) => p.mountGroupList(view, ctx));
  } else if ((m = /^#\/group\/(\d+)(?:\/invite\/([\w-]{1,64}))?$/.exec(hash))) {  // an invitation's link
    current('groups');
    document.title = `${t('groups.group')} · Tengen`;
    unmount = later(() => import('./groups.js'), (p) => p.mountGroup(view, ctx, Number(m[1]), m[2] ?? null));
  } else if (hash === '#/classes') {
    current('classes');
    document.title = `${t('nav.classes')} · Tengen`;
    unmount = later(() => import('./classes.js'), (p) => p.mountClasses(view, ctx));
  } else if ((m = /^#\/class\/(\d+)(\/cards)?$/.exec(hash))) {
    current('classes');
    document.title = `${t('classes.class')} · Tengen`;
    unmount = later(() => import('./classes.js'), (p) => (m[2] ? p.mountCards(view, ctx, Number(m[1])) : p.mountClass(view, ctx, Number(m[1]))));
  } else if (hash === '#/simuls') {
    current('simuls');
    document.title = `${t('nav.simuls')} · Tengen`;
    unmount = later(() => import('./simuls.js'), (p) => p.mountSimulList(view, ctx));
  } else if ((m = /^#\/simul\/(\d+)$/.exec(hash))) {
    current('simuls');
    document.title = `${t('simul.simul')} · Tengen`;
    unmount = later(() => import('./simuls.js'), (p) => p.mountSimul(view, ctx, Number(m[1])));
  } else if (hash === '#/pairgo') {
    current('pairgo');
    document.title = `${t('nav.pairgo')} · Tengen`;
    unmount = later(() => import('./pairgo.js'), (p) => p.mountPairList(view, ctx));
  } else if ((m = /^#\/pairgo\/(\d+)$/.exec(hash))) {
    current('pairgo');
    document.title = `${t('pair.title')} · Tengen`;
    unmount = later(() => import('./pairgo.js'), (p) => p.mountPair(view, ctx, Number(m[1])));
  } else if (hash === '#/relays') {
    current('relays');
    document.title = `${t('nav.relays')} · Tengen`;
    unmount = later(() => import('./relays.js'), (p) => p.mountRelayList(view, ctx));
  } else if ((m = /^#\/relay\/(\d+)$/.exec(hash))) {
    current('relays');
    document.title = `${t('relay.title')} · Tengen`;
    unmount = later(() => import('./relays.js'), (p) => p.mountRelay(view, ctx, Number(m[1])));
  } else if ((m = /^#\/ladder\/(\d+)$/.exec(hash))) {
    current('groups');
    document.title = `${t('ladder.ladder')} · Tengen`;
    unmount = later(() => import('./ladders.js'), (p) => p.mountLadder(view, ctx, Number(m[1])));
  } else if ((m = /^#\/learn(?:\/([\w-]+))?$/.exec(hash))) {
    current('learn');
    document.title = `${t('nav.learn')} · Tengen`;
    unmount = later(() => import('./course.js'), (p) => p.mountCourse(view, ctx, m[1] ?? null));
  } else if (hash === '#/local') {
    document.title = `${t('local.title')} · Tengen`;
    unmount = later(() => import('./local.js'), (p) => p.mountLocal(view));
  } else if (hash === '#/register') {  // "Create an account": that form first
    document.title = `${t('welcome.create')} · Tengen`;
    unmount = mountAccount(view, ctx, null, { registerFirst: true });
  } else if (hash === '#/login') {
    document.title = `${t('nav.log_in')} · Tengen`;
    unmount = mountAccount(view, ctx);
  } else if ((m = /^#\/join\/([\w-]{1,64})$/.exec(hash))) {  // an invite's link
    document.title = `${t('welcome.create')} · Tengen`;
    unmount = mountAccount(view, ctx, m[1]);
  } else if ((m = /^#\/mail\/verify\/([\w-]{1,64})$/.exec(hash))) {  // links mailed (docs/mail.md)
    document.title = `${t('mail.verify_title')} · Tengen`;
    unmount = mountVerify(view, ctx, m[1]);
  } else if ((m = /^#\/reset\/([\w-]{1,64})$/.exec(hash))) {
    document.title = `${t('reset.title')} · Tengen`;
    unmount = mountReset(view, ctx, m[1]);
  } else if ((m = /^#\/unsubscribe\/(\d+)\/([\w-]{1,64})\/(\w+)$/.exec(hash))) {
    document.title = `${t('unsubscribe.title')} · Tengen`;
    unmount = mountUnsubscribe(view, ctx, m[1], m[2], m[3]);
  } else if ((m = /^#\/admin(?:\/(\w+))?(?:\?.*)?$/.exec(hash))) {
    current('admin');
    document.title = `${t('admin.title')} · Tengen`;
    unmount = later(() => import('./admin.js'), (p) => p.mountAdmin(view, ctx, m[1] ?? null));
  } else if (hash === '#/games') {
    current('games');
    document.title = `${t('games.finished')} · Tengen`;
    unmount = later(() => import('./lists.js'), (p) => p.mountGameList(view, ctx, { title: t('games.finished'), url: '/api/v1/games?limit=25', empty: t('games.none_finished') }));
  } else if ((m = /^#\/user\/(.+)$/.exec(hash))) {
    const name = decodeURIComponent(m[1]);
    if (name === ctx.user?.name) current('mine');
    document.title = `${name} · Tengen`;
    unmount = later(() => import('./profile.js'), (p) => p.mountProfile(view, ctx, name));
  } else {
    current('lobby');
    document.title = `${t('nav.lobby')} · Tengen`;
    unmount = mountLobby(view, ctx);
  }
  // Where to come back after logging in: not a login page, nor a mailed link (used once).
  if (hash !== '#/login' && hash !== '#/register' && !/^#\/(join|reset|mail|unsubscribe)\//.test(hash)) sessionStorage.setItem('tengen-return', hash);
}

window.addEventListener('hashchange', route);
// Blind mode switched (the link below or the Display menu): the page mounted again in it, the
// link saying what it would do now.
const blindLink = document.getElementById('blind-link');
function showBlindLink() {
  blindLink.textContent = t(blindOn() ? 'blind.link_off' : 'blind.link_on');
  blindLink.classList.toggle('on', blindOn());
}
blindLink.addEventListener('click', () => setBlind(!blindOn()));
window.addEventListener('tengen-blind', () => {
  showBlindLink();
  route();
});
// The skip link (first on every page): past the bar, to the page itself, without changing the
// address (which would change the page).
document.querySelector('.skip-link')?.addEventListener('click', (e) => {
  e.preventDefault();
  view.focus();
});

// Three things at once, not one after another (docs/web-client.md, "Caching"): the WebSocket
// opens (its upgrade carries the session cookie), the player is asked for, the words are loaded.
async function start() {
  ctx.conn.start();
  const asked = currentUser().then((user) => ({ user }), (error) => ({ error }));
  await startLanguage();
  showStatus();  // said again in the page's language (translatePage wrote its first words back)
  mountDisplaySettings(document.getElementById('display-panel'));
  showBlindLink();
  const { user, error } = await asked;
  setUser(error ? null : user);
  if (error && !ctx.offline()) toast(error.message);  // offline, the bar says so already
  // Signed in after all (a login older than the marker cookie): the welcome said so.
  if (!ctx.user && welcomedAs) setUser(await currentUser({ ask: true }).catch(() => null));
  starting = false;
  route();
}

// The service worker (sw.js) keeps the shell for return visits and offline use; registered once the
// page is up, so that what it fetches never competes with the first visit's own requests.
function startWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  // This page's version: its stylesheet's /v/<version>/ (none when served unversioned).
  const mine = /\/v\/([0-9a-f]+)\//.exec(document.querySelector('link[rel=stylesheet]')?.href ?? '')?.[1];
  let offered = false;
  const offer = () => {
    if (offered) return;
    offered = true;
    const reload = h('button', { type: 'button', class: 'link', onclick: () => location.reload() }, t('app.reload'));
    toasts.append(h('div', { class: 'toast info update', role: 'status' }, `${t('app.update_ready')} `, reload));
  };
  navigator.serviceWorker.addEventListener('message', (e) => {
    if (e.data?.type === 'update-ready' || (e.data?.type === 'version' && mine && e.data.version && e.data.version !== mine)) offer();
  });
  // A page opened from the worker's cache may be older than the server's: the worker says.
  navigator.serviceWorker.controller?.postMessage({ type: 'version?' });
  // The words of its notifications: the page's language (sw.js).
  navigator.serviceWorker.ready.then((r) => r.active?.postMessage({ type: 'language', code: currentLanguage() }));
  navigator.serviceWorker.register('/sw.js').catch(() => null);  // no worker: the page works as before
}

start().then(() => {
  if (document.readyState === 'complete') startWorker();
  else window.addEventListener('load', startWorker, { once: true });
});
