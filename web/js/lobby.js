// The lobby: open challenges (live), who is online, games being played, and the challenge form
// with every setting the server knows.
import { h, fill, describeSettings, describeTime, RULESETS, rulesetName, colorWords, sizeOf, formatDate, formatDays, formatMs, selectInput, field, keepFocus } from './util.js';
import { t, tn, num } from './i18n.js';
import { fetchJson } from './api.js';
import { rankTag } from './ranks.js';
import { reviewsCard } from './review_room.js';
import { playNow } from './play_now.js';
import { Command, Message } from './wire.js';

const MIN = 60000;
const SEC = 1000;
const DAY = 86400000;

// Each time system's fields: [name, label's key, unit in ms, default (in that unit), min, max, step];
// the step 'check' makes a checkbox (its default true or false).
export const TIME_FIELDS = {
  none: [],
  absolute: [['main_ms', 'clock.main_min', MIN, 20, 1 / 60, 10080, 'any']],
  simple: [['per_move_ms', 'clock.per_move_s', SEC, 30, 1, 86400, 1]],
  fischer: [['main_ms', 'clock.main_min', MIN, 5, 1 / 60, 10080, 'any'], ['increment_ms', 'clock.increment_s', SEC, 10, 0, 86400, 1],
    ['max_ms', 'clock.cap_min', MIN, 10, 0, 10080, 'any']],
  byoyomi: [['main_ms', 'clock.main_min', MIN, 10, 0, 10080, 'any'], ['periods', 'clock.periods', 1, 5, 1, 30, 1],
    ['period_ms', 'clock.period_s', SEC, 30, 1, 86400, 1]],
  canadian: [['main_ms', 'clock.main_min', MIN, 10, 0, 10080, 'any'], ['stones', 'clock.stones_per_block', 1, 25, 1, 100, 1],
    ['period_ms', 'clock.block_min', MIN, 5, 1 / 60, 1440, 'any']],
  // docs/correspondence.md: days a move, a bank (0: none), each player's weekends off.
  correspondence: [['per_move_ms', 'clock.days_per_move', DAY, 3, 1 / 24, 30, 'any'], ['max_ms', 'clock.bank_days', DAY, 10, 0, 90, 'any'],
    ['weekends_off', 'clock.weekends_off', 1, true, 0, 0, 'check']],
};

// The inputs of a time system's fields (`prefix` keeps the ids of two forms apart), kept in
// `inputs` by name; and the time control they say.
export function timeInputs(system, inputs, prefix) {
  return TIME_FIELDS[system].map(([name, label, unit, value, min, max, step]) => {
    const id = `${prefix}-${name}`;
    if (step === 'check') {
      const input = h('input', { id, name, type: 'checkbox', checked: value });
      inputs[name] = { input, unit, check: true };
      return h('label', { class: 'check' }, input, ` ${t(label)}`);
    }
    const input = h('input', { id, name, type: 'number', min: String(min), max: String(max), step: String(step), value: String(value), required: true });
    inputs[name] = { input, unit };
    return field(t(label), input);
  });
}
export function timeOf(system, inputs) {
  const time = { system };
  for (const [name] of TIME_FIELDS[system]) {
    const { input, unit, check } = inputs[name];
    time[name] = check ? input.checked : Math.round(Number(input.value) * unit);
  }
  return time;
}
// The time systems' names in the page's language: {none: 'No clock', ...}.
export const timeNames = () => Object.fromEntries(Object.keys(TIME_FIELDS).map((k) => [k, t(`clock.system_${k}`)]));
// The rulesets' names in the page's language, for a <select>.
export const rulesetOptions = () => Object.fromEntries(Object.keys(RULESETS).map((k) => [k, rulesetName(k)]));

const select = (name, options, value, attrs = {}) => selectInput(`cf-${name}`, name, options, value, attrs);

// The groups the player belongs to (docs/groups.md), asked once a page: a group's challenges are
// named by it, and the challenge form offers "members of ..." for each.
export function myGroups(ctx) {
  if (!ctx.user) return Promise.resolve([]);
  ctx.groupsAsked ??= fetchJson('/api/v1/me/groups')
    .then(({ groups }) => groups.filter((g) => ['owner', 'admin', 'member'].includes(g.my_role) && !g.closed_at_ms))
    .catch(() => { ctx.groupsAsked = null; return []; });
  return ctx.groupsAsked;
}
// Joined, left, made or deleted a group: asked again next time.
export function forgetGroups(ctx) {
  ctx.groupsAsked = null;
}

export function mountLobby(root, ctx) {
  const challengeList = h('ul', { class: 'challenges', 'aria-live': 'polite' });
  const onlineList = h('ul', { class: 'online' });
  const onlineTitle = h('h2', {}, t('lobby.online'));
  const liveList = h('ul', { class: 'live-games' });
  const myList = h('ul', { class: 'my-games' });
  const myCard = h('section', { class: 'card lobby-mine', hidden: true }, h('h2', {}, t('lobby.my_games')), myList);
  const form = challengeForm(ctx);
  const reviews = reviewsCard(ctx);
  const now = playNow(ctx);
  const guestNote = h('p', { class: 'muted' }, ...tn('lobby.guest_note', { link: h('a', { href: '#/login' }, t('lobby.guest_link')) }));
  const lists = h('div', { class: 'lobby-column' },
    myCard,
    h('section', { class: 'card lobby-challenges' }, h('h2', {}, t('lobby.open_challenges')), challengeList),
    h('section', { class: 'card lobby-live' }, h('h2', {}, t('lobby.live_games')), liveList),
    reviews.el,
    h('section', { class: 'card lobby-online' }, onlineTitle, onlineList));
  // The page's heading, for a screen reader's list of headings (the cards' titles are seen).
  // Offline: what works without the server, first.
  const offline = h('section', { class: 'card lobby-offline', hidden: true, role: 'status' },
    h('h2', {}, t('app.offline_title')), h('p', {}, t('app.offline_text')),
    h('ul', { class: 'offline-links' },
      h('li', {}, h('a', { href: '#/learn' }, t('nav.learn'))),
      h('li', {}, h('a', { href: '#/local' }, t('local.title')))));
  const showOffline = () => { offline.hidden = !ctx.offline?.(); };
  fill(root, h('h1', { class: 'sr-only' }, t('nav.lobby')), offline, h('div', { class: 'lobby' },
    now.el,
    lists,
    h('div', { class: 'lobby-column' },
      h('section', { class: 'card lobby-form' }, h('h2', {}, t('lobby.new_challenge')), ctx.user ? form.el : guestNote),
      h('p', { class: 'local-link' }, h('a', { href: '#/local' }, t('local.link'))))));
  showOffline();

  // The names of the player's groups, for their challenges' tags.
  const groupNames = new Map();
  myGroups(ctx).then((groups) => {
    for (const g of groups) groupNames.set(g.id, g.name);
    if (groups.length) render();
  });

  // Redrawn on every lobby change: the keyboard's place is kept (keepFocus).
  function render() {
    keepFocus(lists, draw);
  }

  function draw() {
    const lobby = ctx.lobby;
    const me = ctx.user?.id;
    const challenges = [...lobby.challenges.values()].sort((a, b) => a.id - b.id);
    if (!challenges.length) fill(challengeList, h('li', { class: 'empty' }, t('lobby.no_challenges')));
    else fill(challengeList, ...challenges.map((c) => {
      const mine = c.challenger.id === me;
      const forMe = c.opponent && c.opponent.id === me;
      const buttons = [];
      const key = (what) => ({ key: `challenge-${c.id}-${what}` });
      if (mine) buttons.push(h('button', { onclick: () => act(Command.cancel_challenge, c.id), dataset: key('cancel') }, t('common.cancel')));
      else if (me && (!c.opponent || forMe)) buttons.push(h('button', { class: 'primary', onclick: () => act(Command.accept_challenge, c.id), dataset: key('accept') }, t('common.accept')));
      if (forMe) buttons.push(h('button', { onclick: () => act(Command.decline_challenge, c.id), dataset: key('decline') }, t('common.decline')));
      return h('li', { class: `challenge${mine ? ' mine' : ''}${forMe ? ' for-me' : ''}`, dataset: { challenge: c.id } },
        h('div', { class: 'challenger' }, h('strong', {}, c.challenger.name), ' ', rankTag(c.challenger),
          c.opponent ? [` → ${c.opponent.name} `, rankTag(c.opponent)] : '',
          h('span', { class: 'tag' }, colorWords(c.settings.color)),
          c.settings.group ? h('a', { class: 'tag group-tag', href: `#/group/${c.settings.group}` }, groupNames.get(c.settings.group) ?? t('groups.group')) : ''),
        h('div', { class: 'what' }, h('span', { class: 'size' }, sizeOf(c.settings)), describeSettings(c.settings, { size: false }).replace(/^/, '· ')),
        h('div', { class: 'actions' }, ...buttons));
    }));
    const online = [...lobby.online.values()].sort((a, b) => a.name.localeCompare(b.name));
    fill(onlineList, ...online.map((u) => h('li', {},
      h('a', { href: `#/user/${encodeURIComponent(u.name)}`, dataset: { key: `user-${u.name}` } }, u.name), rankTag(u),
      u.id === me ? h('span', { class: 'muted' }, ` ${t('lobby.you')}`) :
        me ? h('button', { class: 'small', onclick: () => form.challenge(u.name), dataset: { key: `challenge-user-${u.name}` } }, t('lobby.challenge')) : '')));
    if (!online.length) fill(onlineList, h('li', { class: 'empty' }, t('lobby.nobody')));
    // The server names at most 500 of those online; the heading counts them all.
    onlineTitle.textContent = lobby.onlineCount > online.length ? `${t('lobby.online')} · ${lobby.onlineCount}` : t('lobby.online');
    form.refreshNames();
  }

  async function act(type, id) {
    try {
      await ctx.conn.command(type, { challenge: id });
    } catch (err) {
      ctx.toast(err.message);
    }
  }

  async function loadLive() {
    try {
      const { games } = await fetchJson('/api/v1/games?status=live&limit=20');
      if (!games.length) fill(liveList, h('li', { class: 'empty' }, t('lobby.no_live_games')));
      else fill(liveList, ...games.map((g) => h('li', {},
        h('a', { href: `#/game/${g.id}` }, t('common.vs', { black: g.black.name, white: g.white.name })),
        h('span', { class: 'muted' }, rankTag(g.black), ' ·', rankTag(g.white)),
        h('span', { class: 'muted' }, ` ${sizeOf(g.settings)} · ${describeTime(g.settings.time)} · ${t('lobby.started', { when: formatDate(g.created_at_ms) })}`))));
    } catch (err) {
      fill(liveList, h('li', { class: 'empty' }, err.message));
    }
  }

  // The player's games in play, those waiting for their move first (docs/correspondence.md).
  const loadMine = () => { if (ctx.user && ctx.conn.isOpen) ctx.conn.command(Command.my_games).catch(() => {}); };
  function showMine(games) {
    myCard.hidden = !games.length;
    fill(myList, ...games.map((g) => {
      // A pair Go game (docs/events.md): against the other team, by its players' names.
      const teams = g.settings.teams;
      const black = teams ? teams.black.some((p) => p.id === ctx.user?.id) : g.black.id === ctx.user?.id;
      const them = teams ? { name: teams[black ? 'white' : 'black'].map((p) => p.name).join(' & ') } : black ? g.white : g.black;
      const mover = g.to_move && g.clock ? g.clock[g.to_move] : null;
      const left = mover ? (g.settings.time.system === 'correspondence' ? formatDays(mover.main_ms) : formatMs(mover.main_ms)) : '';
      const waiting = g.to_move && !g.your_move ? t('lobby.their_move', { name: them.name }) : '';
      return h('li', { class: g.your_move ? 'your-move' : '', dataset: { game: g.game } },
        g.your_move ? h('span', { class: 'tag turn' }, t(g.to_move ? 'game.your_move' : 'lobby.to_count')) : '',
        h('a', { href: `#/game/${g.game}` }, t('lobby.against', { name: them.name })),
        h('span', { class: 'muted' }, ` ${sizeOf(g.settings)} · ${describeTime(g.settings.time)}`),
        h('span', { class: 'left' }, [waiting, left && g.to_move ? t('lobby.time_left', { left }) : ''].filter(Boolean).join(' · ')));
    }));
  }
  const onMessage = (e) => { if (e.detail.type === Message.my_games) showMine(e.detail.games); };
  ctx.conn.addEventListener('message', onMessage);
  ctx.conn.addEventListener('open', loadMine);
  const onChange = (e) => {
    showOffline();
    render();
    if (e.detail === 'game') {
      loadLive();
      loadMine();
    }
  };
  ctx.events.addEventListener('lobby', onChange);
  ctx.conn.addEventListener('status', showOffline);
  const timer = setInterval(() => { loadLive(); reviews.load(); loadMine(); }, 30000);
  render();
  loadLive();
  loadMine();
  reviews.load();
  return () => {
    now.destroy();
    ctx.events.removeEventListener('lobby', onChange);
    ctx.conn.removeEventListener('status', showOffline);
    ctx.conn.removeEventListener('message', onMessage);
    ctx.conn.removeEventListener('open', loadMine);
    clearInterval(timer);
  };
}

// The challenge form; `group`: a group's page's, for its members only.
export function challengeForm(ctx, { group = null } = {}) {
  const size = select('size', { 19: '19×19', 13: '13×13', 9: '9×9', other: t('form.other_size') }, '19');
  const width = h('input', { id: 'cf-width', name: 'width', type: 'number', min: 2, max: 25, value: '19', required: true });
  const height = h('input', { id: 'cf-height', name: 'height', type: 'number', min: 2, max: 25, value: '19', required: true });
  const custom = h('div', { class: 'field-row', hidden: true }, field(t('form.width'), width), field(t('form.height'), height));
  const ruleset = select('ruleset', rulesetOptions(), 'japanese');
  const komi = h('input', { id: 'cf-komi', name: 'komi', type: 'number', step: 0.5, min: -150, max: 150, placeholder: num(6.5) });
  const handicap = select('handicap', { 0: t('form.handicap_none'), automatic: t('form.handicap_auto'), 2: '2', 3: '3', 4: '4', 5: '5', 6: '6', 7: '7', 8: '8', 9: '9' }, '0');
  const placement = select('placement', { ruleset: t('form.placement_ruleset'), fixed: t('form.placement_fixed'), free: t('form.placement_free') }, 'ruleset');
  const color = select('color', { nigiri: t('form.color_nigiri'), black: t('form.color_black'), white: t('form.color_white'), automatic: t('form.color_automatic') }, 'nigiri');
  const system = select('time', timeNames(), 'byoyomi');
  const timeFields = h('div', { class: 'field-row time-fields' });
  const rated = h('input', { id: 'cf-rated', name: 'rated', type: 'checkbox' });
  const priv = h('input', { id: 'cf-private', name: 'private', type: 'checkbox' });
  const opponent = h('input', { id: 'cf-opponent', name: 'opponent', placeholder: t('form.anyone'), autocomplete: 'off', list: 'online-names' });
  const names = h('datalist', { id: 'online-names' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const inputs = {};
  // Who may accept: anyone, or the members of one of the player's groups (on a group's page,
  // that group's).
  const who = select('who', { '': t('form.anyone_may_accept') }, '');
  const whoField = field(t('form.who_may_accept'), who);
  whoField.hidden = true;
  if (!group) {
    myGroups(ctx).then((groups) => {
      if (!groups.length) return;
      who.append(...groups.map((g) => h('option', { value: String(g.id) }, t('form.members_of', { name: g.name }))));
      whoField.hidden = false;
    });
  }

  const showTime = () => fill(timeFields, ...timeInputs(system.value, inputs, 'cf'));
  size.addEventListener('change', () => {
    custom.hidden = size.value !== 'other';
    if (size.value !== 'other') width.value = height.value = size.value;
  });
  ruleset.addEventListener('change', () => { komi.placeholder = num(RULESETS[ruleset.value].komi); });
  handicap.addEventListener('change', () => {
    if (handicap.value === 'automatic' || (handicap.value !== '0' && color.value === 'nigiri')) color.value = 'automatic';
  });
  system.addEventListener('change', showTime);
  showTime();

  function settings() {
    const s = {
      width: Number(width.value), height: Number(height.value), ruleset: ruleset.value,
      handicap: handicap.value === 'automatic' ? 'automatic' : Number(handicap.value), placement: placement.value, color: color.value,
      time: timeOf(system.value, inputs), rated: rated.checked, private: priv.checked,
    };
    if (komi.value !== '') s.komi = Number(komi.value);
    if (group) s.group = group;
    else if (who.value) s.group = Number(who.value);
    return s;
  }

  const el = h('form', {
    class: 'challenge-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      const fields = { settings: settings() };
      if (opponent.value.trim()) fields.opponent = opponent.value.trim();
      try {
        await ctx.conn.command(Command.create_challenge, fields);
        opponent.value = '';
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  h('div', { class: 'field-row' }, field(t('form.board'), size), field(t('form.rules'), ruleset), field(t('form.komi'), komi)),
  custom,
  h('div', { class: 'field-row' }, field(t('form.handicap'), handicap), field(t('form.placement'), placement), field(t('form.colors'), color)),
  h('div', { class: 'field-row' }, field(t('form.clock'), system)),
  timeFields,
  h('div', { class: 'field-row checks' },
    h('label', { class: 'check' }, rated, ` ${t('form.rated')}`),
    h('label', { class: 'check' }, priv, ` ${t('form.private')}`)),
  h('div', { class: 'field-row' }, field(t('form.opponent'), opponent), names),
  h('div', { class: 'field-row' }, whoField),
  problem,
  h('button', { type: 'submit', class: 'primary' }, t('form.create_challenge')));

  const refreshNames = () => fill(names, ...[...ctx.lobby.online.values()].filter((u) => u.id !== ctx.user?.id).map((u) => h('option', { value: u.name })));
  return {
    el,
    refreshNames,
    challenge(name) {
      opponent.value = name;
      opponent.focus();
      el.scrollIntoView({ behavior: 'smooth', block: 'center' });
    },
  };
}
