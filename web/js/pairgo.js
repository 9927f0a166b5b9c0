// Pair Go and rengo (docs/events.md, "Pair Go"): the list with a form to announce a game, and a
// game's page — its two teams in their order of play, joining the Black or the White team and
// leaving, the host's Start (once both teams are full) and Cancel, then the game itself and its
// result. The game is played on the ordinary game page, which knows the teams from its settings:
// whose turn it is within a team, and the team's own chat.
import { h, fill, field, selectInput, keepFocus, describeSettings, describeResult, acting } from './util.js';
import { fetchJson } from './api.js';
import { t } from './i18n.js';
import { timeNames, rulesetOptions, timeInputs, timeOf } from './lobby.js';
import { mountEventList } from './event_list.js';

const POLL_MS = 5000;  // the page read again while players join (the server tells no event of it)
const TEAMS = ['black', 'white'];

function stateTag(state) {
  return h('span', { class: `tag simul-state ${state}` }, t(`simul.state_${state}`));
}

function formatName(size) {
  return size === 2 ? t('pair.pair_go') : t('pair.rengo', { n: size });
}

// ---- the list ----

export function mountPairList(root, ctx) {
  return mountEventList(root, ctx, {
    words: { title: t('pair.title'), about: t('pair.about'), announce: t('pair.new'), logIn: t('pair.log_in_to_play'), none: t('pair.none') },
    form: () => pairForm(ctx),
    load: async () => (await fetchJson('/api/v1/pairgo')).pairs,
    row: (s) => h('li', { class: 'simul-row', dataset: { pair: s.id, state: s.state } },
      h('a', { href: `#/pairgo/${s.id}` }, s.name), ' ', stateTag(s.state),
      h('span', { class: 'muted' }, ` ${formatName(s.team_size)} · ${t('simul.hosted_by', { host: s.host.name })} · ${
        s.state === 'open' ? t('pair.places', { n: s.black + s.white, of: 2 * s.team_size }) : s.result ? describeResult(s.result) : t('simul.in_play')
      } · ${describeSettings(s.settings)}`)),
  });
}

function pairForm(ctx) {
  const name = h('input', { id: 'pf-name', required: true, maxlength: 60, autocomplete: 'off', value: t('pair.default_name', { host: ctx.user.name }) });
  const size = selectInput('pf-size', 'size', { 19: '19×19', 13: '13×13', 9: '9×9' }, '19');
  const ruleset = selectInput('pf-ruleset', 'ruleset', rulesetOptions(), 'japanese');
  const clock = selectInput('pf-time', 'time', timeNames(), 'fischer');
  // A pair Go game is played live: no correspondence clock.
  clock.querySelector('option[value="correspondence"]')?.remove();
  const timeFields = h('div', { class: 'field-row time-fields' });
  const stones = { 0: t('simul.handicap_even') };
  for (let n = 2; n <= 9; n++) stones[n] = t('simul.handicap_stones', { n });
  const handicap = selectInput('pf-handicap', 'handicap', stones, '0');
  const team = selectInput('pf-team', 'team_size', { 2: t('pair.pair_go'), 3: t('pair.rengo', { n: 3 }), 4: t('pair.rengo', { n: 4 }) }, '2');
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const inputs = {};
  const showTime = () => fill(timeFields, ...timeInputs(clock.value, inputs, 'pf'));
  clock.addEventListener('change', showTime);
  showTime();
  return h('form', {
    class: 'simul-form pair-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        const n = Number(size.value);
        const { id } = await fetchJson('/api/v1/pairgo', { method: 'POST', body: {
          name: name.value.trim(), team_size: Number(team.value),
          settings: { width: n, height: n, ruleset: ruleset.value, time: timeOf(clock.value, inputs), handicap: Number(handicap.value) },
        } });
        ctx.navigate(`#/pairgo/${id}`);
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  field(t('simul.name'), name),
  h('div', { class: 'field-row' }, field(t('pair.format'), team), field(t('form.board'), size), field(t('form.rules'), ruleset)),
  h('div', { class: 'field-row' }, field(t('form.clock'), clock), field(t('simul.handicap'), handicap)),
  timeFields,
  h('p', { class: 'muted' }, t('pair.form_note')),
  problem,
  h('button', { type: 'submit', class: 'primary' }, t('simul.create')));
}

// ---- one game's page ----

export function mountPair(root, ctx, id) {
  const head = h('section', { class: 'card simul-head' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const teamsEl = h('div', { class: 'pair-teams' });
  fill(root, h('div', { class: 'simul-page pair-page' }, head, problem, teamsEl));
  let page = null;
  let stopped = false;
  const post = (rest, body = {}) => fetchJson(`/api/v1/pairgo/${id}${rest}`, { method: 'POST', body });
  const act = acting(problem, () => load());

  async function load() {
    try {
      const loaded = await fetchJson(`/api/v1/pairgo/${id}`);
      if (stopped) return;
      page = loaded;
      document.title = `${page.pair.name} · Tengen`;
      draw();
    } catch (err) {
      if (!stopped) problem.textContent = err.message;
    }
  }

  function draw() {
    const s = page.pair;
    const me = ctx.user?.id;
    const host = me === s.host.id;
    const myTeam = TEAMS.find((c) => page[c].some((m) => m.player.id === me));
    const open = s.state === 'open';
    const full = page.black.length === s.team_size && page.white.length === s.team_size;
    const buttons = [];
    if (open && myTeam) buttons.push(h('button', { onclick: act(() => post('/leave')) }, t('simul.leave')));
    if (open && host) {
      buttons.push(h('button', { class: 'primary', disabled: !full, onclick: act(() => post('/start')) }, t('pair.start')));
      buttons.push(h('button', { class: 'danger-quiet', onclick: () => confirm(t('pair.cancel_confirm')) && act(() => post('/cancel'))() }, t('pair.cancel')));
    }
    const gameLink = s.game ? h('p', {}, h('a', { class: 'button primary', href: `#/game/${s.game}` }, myTeam ? t('simul.your_game') : t('pair.watch'))) : '';
    keepFocus(head, () => fill(head,
      h('h1', {}, s.name, ' ', stateTag(s.state)),
      h('p', {}, `${formatName(s.team_size)} · `, t('simul.hosted_by', { host: '' }), h('a', { href: `#/user/${encodeURIComponent(s.host.name)}` }, s.host.name),
        h('span', { class: 'muted' }, ` · ${describeSettings(s.settings)}`)),
      s.result ? h('p', { class: 'pair-result' }, describeResult(s.result)) : '',
      open ? h('p', { class: 'muted' }, t('pair.order', { n: s.team_size }), host && !full ? ` · ${t('pair.start_needs')}` : '') : '',
      myTeam && open ? h('p', { class: 'simul-joined', role: 'status' }, t(`pair.you_joined_${myTeam}`)) : '',
      gameLink,
      buttons.length ? h('div', { class: 'buttons' }, ...buttons) : ''));
    keepFocus(teamsEl, () => fill(teamsEl, ...TEAMS.map((c) => teamCard(c, myTeam))));
  }

  function teamCard(color, myTeam) {
    const s = page.pair;
    const members = page[color];
    const room = s.state === 'open' && members.length < s.team_size;
    const seats = [];
    for (let i = 0; i < s.team_size; i++) {
      const m = members[i];
      seats.push(h('li', { class: m ? (m.player.id === ctx.user?.id ? 'me' : '') : 'empty muted' },
        h('span', { class: 'pair-seat' }, t(`pair.seat_${color}`, { n: i + 1 })), ' ',
        m ? h('a', { href: `#/user/${encodeURIComponent(m.player.name)}` }, m.player.name) : t('pair.free_seat'),
        m ? h('span', { class: 'muted' }, ` ${m.rank}`) : ''));
    }
    return h('section', { class: `card pair-team ${color}`, dataset: { team: color } },
      h('h2', {}, h('span', { class: `swatch ${color}`, 'aria-hidden': 'true' }), ' ', t(`pair.team_${color}`),
        h('span', { class: 'muted' }, ` ${members.length}/${s.team_size}`)),
      h('ol', { class: 'pair-seats' }, ...seats),
      room && ctx.user && !myTeam ? h('button', { class: 'primary', onclick: act(() => post('/join', { team: color })) }, t(`pair.join_${color}`)) : '');
  }

  const timer = setInterval(() => { if (!document.hidden && page && page.pair.state !== 'finished' && page.pair.state !== 'cancelled') load(); }, POLL_MS);
  ctx.conn.addEventListener('open', load);
  load();
  return () => {
    stopped = true;
    clearInterval(timer);
    ctx.conn.removeEventListener('open', load);
  };
}
