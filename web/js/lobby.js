// The lobby: open challenges (live), who is online, games being played, and the challenge form
// with every setting the server knows.
import { h, fill, describeSettings, describeTime, RULESETS, COLOR_WORDS, sizeOf, formatDate, selectInput, field } from './util.js';
import { fetchJson } from './api.js';
import { rankTag } from './ranks.js';
import { reviewsCard } from './review_room.js';
import { playNow } from './play_now.js';

const MIN = 60000;
const SEC = 1000;

// Each time system's fields: [name, label, unit in ms, default (in that unit), min, max, step].
export const TIME_FIELDS = {
  none: [],
  absolute: [['main_ms', 'Main time (min)', MIN, 20, 1 / 60, 10080, 'any']],
  simple: [['per_move_ms', 'Seconds per move', SEC, 30, 1, 86400, 1]],
  fischer: [['main_ms', 'Main time (min)', MIN, 5, 1 / 60, 10080, 'any'], ['increment_ms', 'Increment (s)', SEC, 10, 0, 86400, 1],
    ['max_ms', 'Cap (min, 0 = none)', MIN, 10, 0, 10080, 'any']],
  byoyomi: [['main_ms', 'Main time (min)', MIN, 10, 0, 10080, 'any'], ['periods', 'Periods', 1, 5, 1, 30, 1],
    ['period_ms', 'Period (s)', SEC, 30, 1, 86400, 1]],
  canadian: [['main_ms', 'Main time (min)', MIN, 10, 0, 10080, 'any'], ['stones', 'Stones per block', 1, 25, 1, 100, 1],
    ['period_ms', 'Block time (min)', MIN, 5, 1 / 60, 1440, 'any']],
};
export const TIME_NAMES = { none: 'No clock', absolute: 'Absolute', simple: 'Simple (per move)', fischer: 'Fischer', byoyomi: 'Byo-yomi', canadian: 'Canadian' };

const select = (name, options, value, attrs = {}) => selectInput(`cf-${name}`, name, options, value, attrs);

export function mountLobby(root, ctx) {
  const challengeList = h('ul', { class: 'challenges', 'aria-live': 'polite' });
  const onlineList = h('ul', { class: 'online' });
  const onlineTitle = h('h2', {}, 'Online');
  const liveList = h('ul', { class: 'live-games' });
  const form = challengeForm(ctx);
  const reviews = reviewsCard(ctx);
  const now = playNow(ctx);
  const guestNote = h('p', { class: 'muted' }, h('a', { href: '#/login' }, 'Log in or create an account'), ' to challenge and play. Guests may watch.');
  fill(root, h('div', { class: 'lobby' },
    now.el,
    h('div', { class: 'lobby-column' },
      h('section', { class: 'card lobby-challenges' }, h('h2', {}, 'Open challenges'), challengeList),
      h('section', { class: 'card lobby-live' }, h('h2', {}, 'Games being played'), liveList),
      reviews.el,
      h('section', { class: 'card lobby-online' }, onlineTitle, onlineList)),
    h('div', { class: 'lobby-column' },
      h('section', { class: 'card lobby-form' }, h('h2', {}, 'New challenge'), ctx.user ? form.el : guestNote))));

  function render() {
    const lobby = ctx.lobby;
    const me = ctx.user?.id;
    const challenges = [...lobby.challenges.values()].sort((a, b) => a.id - b.id);
    if (!challenges.length) fill(challengeList, h('li', { class: 'empty' }, 'No open challenges. Make one!'));
    else fill(challengeList, ...challenges.map((c) => {
      const mine = c.challenger.id === me;
      const forMe = c.opponent && c.opponent.id === me;
      const buttons = [];
      if (mine) buttons.push(h('button', { onclick: () => act('cancel_challenge', c.id) }, 'Cancel'));
      else if (me && (!c.opponent || forMe)) buttons.push(h('button', { class: 'primary', onclick: () => act('accept_challenge', c.id) }, 'Accept'));
      if (forMe) buttons.push(h('button', { onclick: () => act('decline_challenge', c.id) }, 'Decline'));
      return h('li', { class: `challenge${mine ? ' mine' : ''}${forMe ? ' for-me' : ''}`, dataset: { challenge: c.id } },
        h('div', { class: 'challenger' }, h('strong', {}, c.challenger.name), ' ', rankTag(c.challenger),
          c.opponent ? [` → ${c.opponent.name} `, rankTag(c.opponent)] : '',
          h('span', { class: 'tag' }, COLOR_WORDS[c.settings.color] ?? c.settings.color)),
        h('div', { class: 'what' }, h('span', { class: 'size' }, sizeOf(c.settings)), describeSettings(c.settings, { size: false }).replace(/^/, '· ')),
        h('div', { class: 'actions' }, ...buttons));
    }));
    const online = [...lobby.online.values()].sort((a, b) => a.name.localeCompare(b.name));
    fill(onlineList, ...online.map((u) => h('li', {},
      h('a', { href: `#/user/${encodeURIComponent(u.name)}` }, u.name), rankTag(u),
      u.id === me ? h('span', { class: 'muted' }, ' (you)') :
        me ? h('button', { class: 'small', onclick: () => form.challenge(u.name) }, 'Challenge') : '')));
    if (!online.length) fill(onlineList, h('li', { class: 'empty' }, 'Nobody yet.'));
    // The server names at most 500 of those online; the heading counts them all.
    onlineTitle.textContent = lobby.onlineCount > online.length ? `Online · ${lobby.onlineCount}` : 'Online';
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
      if (!games.length) fill(liveList, h('li', { class: 'empty' }, 'No games right now.'));
      else fill(liveList, ...games.map((g) => h('li', {},
        h('a', { href: `#/game/${g.id}` }, `${g.black.name} vs ${g.white.name}`),
        h('span', { class: 'muted' }, rankTag(g.black), ' ·', rankTag(g.white)),
        h('span', { class: 'muted' }, ` ${sizeOf(g.settings)} · ${describeTime(g.settings.time)} · started ${formatDate(g.created_at_ms)}`))));
    } catch (err) {
      fill(liveList, h('li', { class: 'empty' }, err.message));
    }
  }

  const onChange = (e) => {
    render();
    if (e.detail === 'game') loadLive();
  };
  ctx.events.addEventListener('lobby', onChange);
  const timer = setInterval(() => { loadLive(); reviews.load(); }, 30000);
  render();
  loadLive();
  reviews.load();
  return () => {
    now.destroy();
    ctx.events.removeEventListener('lobby', onChange);
    clearInterval(timer);
  };
}

function challengeForm(ctx) {
  const size = select('size', { 19: '19×19', 13: '13×13', 9: '9×9', other: 'Other…' }, '19');
  const width = h('input', { id: 'cf-width', name: 'width', type: 'number', min: 2, max: 25, value: '19', required: true });
  const height = h('input', { id: 'cf-height', name: 'height', type: 'number', min: 2, max: 25, value: '19', required: true });
  const custom = h('div', { class: 'field-row', hidden: true }, field('Width', width), field('Height', height));
  const ruleset = select('ruleset', Object.fromEntries(Object.entries(RULESETS).map(([k, v]) => [k, v.label])), 'japanese');
  const komi = h('input', { id: 'cf-komi', name: 'komi', type: 'number', step: 0.5, min: -150, max: 150, placeholder: '6.5' });
  const handicap = select('handicap', { 0: 'None', automatic: 'Automatic (by rank)', 2: '2', 3: '3', 4: '4', 5: '5', 6: '6', 7: '7', 8: '8', 9: '9' }, '0');
  const placement = select('placement', { ruleset: 'As the rules say', fixed: 'Fixed (star points)', free: 'Free (Black places them)' }, 'ruleset');
  const color = select('color', { nigiri: 'Nigiri', black: 'I take Black', white: 'I take White', automatic: 'Automatic' }, 'nigiri');
  const system = select('time', TIME_NAMES, 'byoyomi');
  const timeFields = h('div', { class: 'field-row time-fields' });
  const rated = h('input', { id: 'cf-rated', name: 'rated', type: 'checkbox' });
  const priv = h('input', { id: 'cf-private', name: 'private', type: 'checkbox' });
  const opponent = h('input', { id: 'cf-opponent', name: 'opponent', placeholder: 'anyone', autocomplete: 'off', list: 'online-names' });
  const names = h('datalist', { id: 'online-names' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const inputs = {};

  function showTime() {
    fill(timeFields, ...TIME_FIELDS[system.value].map(([name, label, unit, value, min, max, step]) => {
      const input = h('input', { id: `cf-${name}`, name, type: 'number', min: String(min), max: String(max), step: String(step), value: String(value), required: true });
      inputs[name] = { input, unit };
      return field(label, input);
    }));
  }
  size.addEventListener('change', () => {
    custom.hidden = size.value !== 'other';
    if (size.value !== 'other') width.value = height.value = size.value;
  });
  ruleset.addEventListener('change', () => { komi.placeholder = String(RULESETS[ruleset.value].komi); });
  handicap.addEventListener('change', () => {
    if (handicap.value === 'automatic' || (handicap.value !== '0' && color.value === 'nigiri')) color.value = 'automatic';
  });
  system.addEventListener('change', showTime);
  showTime();

  function settings() {
    const s = {
      width: Number(width.value), height: Number(height.value), ruleset: ruleset.value,
      handicap: handicap.value === 'automatic' ? 'automatic' : Number(handicap.value), placement: placement.value, color: color.value,
      time: { system: system.value }, rated: rated.checked, private: priv.checked,
    };
    if (komi.value !== '') s.komi = Number(komi.value);
    for (const [name, , unit] of TIME_FIELDS[system.value]) s.time[name] = Math.round(Number(inputs[name].input.value) * unit);
    return s;
  }

  const el = h('form', {
    class: 'challenge-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      const fields = { settings: settings() };
      if (opponent.value.trim()) fields.opponent = opponent.value.trim();
      try {
        await ctx.conn.command('create_challenge', fields);
        opponent.value = '';
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  h('div', { class: 'field-row' }, field('Board', size), field('Rules', ruleset), field('Komi', komi)),
  custom,
  h('div', { class: 'field-row' }, field('Handicap', handicap), field('Placement', placement), field('Colours', color)),
  h('div', { class: 'field-row' }, field('Clock', system)),
  timeFields,
  h('div', { class: 'field-row checks' },
    h('label', { class: 'check' }, rated, ' Rated'),
    h('label', { class: 'check' }, priv, ' Private (no spectators)')),
  h('div', { class: 'field-row' }, field('Opponent (optional)', opponent), names),
  problem,
  h('button', { type: 'submit', class: 'primary' }, 'Create challenge'));

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
