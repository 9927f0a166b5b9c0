// Tournaments: the list with a form to create one, and a tournament's page — registration, the
// director's actions, live standings with the crosstable, each round's pairings and games.
import { h, fill, describeSettings, formatDate, RULESETS, selectInput, field } from './util.js';
import { fetchJson } from './api.js';
import { TIME_FIELDS, TIME_NAMES } from './lobby.js';

const MIN = 60000;
const LIST_PAGE = 50;

export const SYSTEMS = {
  mcmahon: 'McMahon', swiss: 'Swiss', round_robin: 'Round robin', double_round_robin: 'Double round robin',
  single_elimination: 'Single elimination', double_elimination: 'Double elimination',
};
const STATUS_WORDS = { registering: 'Registration open', running: 'Running', finished: 'Finished', cancelled: 'Cancelled' };
const TIE_BREAK_WORDS = { score: 'MMS', wins: 'Wins', sos: 'SOS', sosos: 'SOSOS', sodos: 'SODOS' };
const RESULT_WORDS = { black: 'Black wins', white: 'White wins', jigo: 'Jigo', both_lose: 'Both lose' };

// Every rank from 30 kyu to 9 dan, strongest first.
export const RANKS = [...Array.from({ length: 9 }, (_, i) => `${9 - i}d`), ...Array.from({ length: 30 }, (_, i) => `${i + 1}k`)];

const select = (name, options, value, attrs = {}) => selectInput(`tf-${name}`, name, options, value, attrs);
const number = (name, value, min, max, step = 1) =>
  h('input', { id: `tf-${name}`, name, type: 'number', min: String(min), max: String(max), step: String(step), value: String(value), required: true });

// Asks the server for changes to this tournament (or to any, for the list) and re-renders on
// each; after a reconnection it asks again and reloads what it may have missed.
function onTournamentChange(ctx, id, reload) {
  const watch = () => ctx.conn.command('watch_tournaments', id === null ? {} : { tournament: id }, { resend: false }).catch(() => {});
  const listener = (e) => {
    if (e.detail.type === 'tournament_changed' && (id === null || e.detail.tournament === id)) reload();
  };
  const reopened = () => { watch(); reload(); };
  ctx.conn.addEventListener('message', listener);
  ctx.conn.addEventListener('open', reopened);
  if (ctx.conn.isOpen) watch();
  return () => {
    ctx.conn.removeEventListener('message', listener);
    ctx.conn.removeEventListener('open', reopened);
    ctx.conn.command('unwatch_tournaments', {}, { resend: false }).catch(() => {});
  };
}

// ---- the list ----

export function mountTournamentList(root, ctx) {
  const rows = h('tbody');
  const older = h('button', { type: 'button', class: 'older', hidden: true }, 'Older tournaments');
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const form = ctx.user ? tournamentForm(ctx) : h('p', { class: 'muted' }, h('a', { href: '#/login' }, 'Log in'), ' to create or join a tournament.');
  fill(root, h('div', { class: 'tournaments' },
    h('section', { class: 'card' }, h('h1', {}, 'Tournaments'),
      h('div', { class: 'table-wrap' }, h('table', { class: 'tournament-list' },
        h('thead', {}, h('tr', {}, ...['Name', 'System', 'Status', 'Players', 'Round', 'Director'].map((t) => h('th', { scope: 'col' }, t)))),
        rows)),
      older, problem),
    h('section', { class: 'card' }, h('h2', {}, 'New tournament'), form)));
  let stopped = false;
  const row = (t) => h('tr', { dataset: { tournament: t.id } },
    h('td', {}, h('a', { href: `#/tournament/${t.id}` }, t.name)),
    h('td', {}, SYSTEMS[t.system] ?? t.system),
    h('td', {}, STATUS_WORDS[t.status] ?? t.status),
    h('td', {}, String(t.players)),
    h('td', {}, t.round ? `${t.round}${t.rounds ? ` of ${t.rounds}` : ''}` : '—'),
    h('td', {}, t.director.name));
  // The list comes in pages, newest first; "Older tournaments" fetches the next one.
  async function load(before = null) {
    try {
      const { tournaments, next_before: next } =
        await fetchJson(`/api/v1/tournaments?limit=${LIST_PAGE}${before ? `&before=${before}` : ''}`);
      if (stopped) return;
      if (!before) fill(rows);
      if (!before && !tournaments.length) fill(rows, h('tr', {}, h('td', { colspan: 6, class: 'empty' }, 'No tournaments yet.')));
      rows.append(...tournaments.map(row));
      older.hidden = next === null;
      older.onclick = () => load(next);
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  const stopListening = onTournamentChange(ctx, null, load);
  load();
  return () => {
    stopped = true;
    stopListening();
  };
}

function tournamentForm(ctx) {
  const name = h('input', { id: 'tf-name', name: 'name', required: true, maxlength: 80, placeholder: 'Club championship' });
  const system = select('system', SYSTEMS, 'mcmahon');
  const rounds = number('rounds', 4, 1, 30);
  const size = select('size', { 19: '19×19', 13: '13×13', 9: '9×9' }, '19');
  const ruleset = select('ruleset', Object.fromEntries(Object.entries(RULESETS).map(([k, v]) => [k, v.label])), 'japanese');
  const clock = select('time', TIME_NAMES, 'byoyomi');
  const timeFields = h('div', { class: 'field-row time-fields' });
  const bar = select('bar', Object.fromEntries(RANKS.map((r) => [r, r])), '1d');
  const floor = select('floor', Object.fromEntries(RANKS.map((r) => [r, r])), '20k');
  const byGap = h('input', { id: 'tf-by-gap', type: 'checkbox' });
  const maxPlayers = number('max_players', 0, 0, 1000);
  const whenFull = h('input', { id: 'tf-when-full', type: 'checkbox' });
  const gap = number('gap', 0, 0, 10080, 'any');
  const noShow = number('no_show', 5, 1 / 60, 10080, 'any');
  const rated = h('input', { id: 'tf-rated', type: 'checkbox' });
  const mcmahonOnly = h('div', { class: 'field-row' }, field('Bar', bar), field('Floor', floor),
    h('label', { class: 'check' }, byGap, ' Handicap by score gap'));
  const roundsField = field('Rounds', rounds);
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const inputs = {};
  function showTime() {
    fill(timeFields, ...TIME_FIELDS[clock.value].map(([n, label, unit, value, min, max, step]) => {
      const input = h('input', { id: `tf-${n}`, name: n, type: 'number', min: String(min), max: String(max), step: String(step), value: String(value), required: true });
      inputs[n] = { input, unit };
      return field(label, input);
    }));
  }
  function showSystem() {
    mcmahonOnly.hidden = system.value !== 'mcmahon';
    roundsField.hidden = !['mcmahon', 'swiss'].includes(system.value);
  }
  clock.addEventListener('change', showTime);
  system.addEventListener('change', showSystem);
  showTime();
  showSystem();

  function settings() {
    const game = { width: Number(size.value), height: Number(size.value), ruleset: ruleset.value, time: { system: clock.value }, rated: rated.checked };
    for (const [n, , unit] of TIME_FIELDS[clock.value]) game.time[n] = Math.round(Number(inputs[n].input.value) * unit);
    const s = {
      name: name.value.trim(), system: system.value, game,
      max_players: Number(maxPlayers.value), start_when_full: whenFull.checked,
      round_start: { mode: 'after_previous', gap_ms: Math.round(Number(gap.value) * MIN) },
      no_show_ms: Math.round(Number(noShow.value) * MIN),
    };
    if (!roundsField.hidden) s.rounds = Number(rounds.value);
    if (system.value === 'mcmahon') {
      s.mcmahon = { bar: bar.value, floor: floor.value };
      s.handicap = { by_score_gap: byGap.checked };
    }
    return s;
  }
  return h('form', {
    class: 'tournament-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        const ack = await ctx.conn.command('create_tournament', { settings: settings() });
        ctx.navigate(`#/tournament/${ack.tournament}`);
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  h('div', { class: 'field-row' }, field('Name', name)),
  h('div', { class: 'field-row' }, field('System', system), roundsField),
  mcmahonOnly,
  h('div', { class: 'field-row' }, field('Board', size), field('Rules', ruleset), field('Clock', clock)),
  timeFields,
  h('div', { class: 'field-row' }, field('Most players (0: no limit)', maxPlayers),
    h('label', { class: 'check' }, whenFull, ' Start when full')),
  h('div', { class: 'field-row' }, field('Minutes between rounds', gap), field('No-show forfeit after (min)', noShow)),
  h('div', { class: 'field-row checks' }, h('label', { class: 'check' }, rated, ' Rated games')),
  problem,
  h('button', { type: 'submit', class: 'primary' }, 'Create tournament'));
}

// ---- one tournament ----

// A crosstable cell: the opponent's place, + - or =, the colour, the handicap: "3+w", "5-b2".
export function crosstableCell(cell) {
  if (!cell) return '—';
  if (cell.bye) return 'bye';
  return `${cell.opponent_place}${cell.result}${cell.color}${cell.handicap ? cell.handicap : ''}${cell.forfeit ? '!' : ''}`;
}

export function mountTournament(root, ctx, id) {
  const head = h('section', { class: 'card tournament-head' }, h('h1', {}, `Tournament ${id}`));
  const actions = h('div', { class: 'tournament-actions' });
  const standings = h('section', { class: 'card standings' });
  const rounds = h('section', { class: 'card rounds' });
  const audit = h('details', { class: 'card audit' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  fill(root, h('div', { class: 'tournament-page' }, head, actions, problem, standings, rounds, audit));
  let stopped = false;
  let data = null;

  async function act(type, fields = {}) {
    problem.textContent = '';
    try {
      await ctx.conn.command(type, { tournament: id, ...fields });
      await load();
    } catch (err) {
      problem.textContent = err.message;
    }
  }

  async function load() {
    try {
      const t = await fetchJson(`/api/v1/tournaments/${id}`);
      if (stopped) return;
      data = t;
      document.title = `${t.name} · Tengen`;
      render(t);
    } catch (err) {
      if (!stopped) problem.textContent = err.message;
    }
  }

  function render(t) {
    const roundsText = t.rounds ? `${t.rounds} round${t.rounds === 1 ? '' : 's'}` : '';
    fill(head, h('h1', {}, t.name, h('span', { class: `tag status-${t.status}` }, STATUS_WORDS[t.status] ?? t.status)),
      h('p', { class: 'muted' }, [SYSTEMS[t.system], roundsText, describeSettings(t.settings.game), `directed by ${t.director.name}`,
        t.settings.starts_at_ms ? `starts ${formatDate(t.settings.starts_at_ms)}` : ''].filter(Boolean).join(' · ')),
      t.system === 'mcmahon' ? h('p', { class: 'muted' }, `Bar ${t.settings.mcmahon.bar}, floor ${t.settings.mcmahon.floor}` +
        (t.settings.handicap.by_score_gap ? ', handicap by score gap' : '')) : '',
      entrantList(t));
    fill(actions, ...playerActions(t), ...directorActions(t));
    renderStandings(t);
    renderRounds(t);
    fill(audit, h('summary', {}, `Audit log (${t.audit.length})`),
      h('ol', { class: 'audit-log' }, ...t.audit.map((a) => h('li', {}, `${formatDate(a.at_ms)} · ${a.kind}` +
        (a.by ? ` by ${a.by}` : '') + auditDetail(a)))));
  }

  function entrantList(t) {
    if (!t.entrants.length) return h('p', { class: 'empty' }, 'Nobody has registered yet.');
    return h('p', { class: 'entrants' }, `${t.entrants.length} player${t.entrants.length === 1 ? '' : 's'}: `,
      ...t.entrants.map((e, i) => h('span', { class: e.withdrawn ? 'entrant withdrawn' : 'entrant' }, i ? ', ' : '',
        h('a', { href: `#/user/${encodeURIComponent(e.name)}` }, e.name), ` ${e.rank}`)));
  }

  function playerActions(t) {
    if (!ctx.user) return [h('p', { class: 'muted' }, h('a', { href: '#/login' }, 'Log in'), ' to register.')];
    const me = t.entrants.find((e) => e.id === ctx.user.id);
    if (t.status === 'registering') {
      if (me) return [h('button', { onclick: () => act('tournament_leave') }, 'Unregister')];
      const rank = selectInput('tr-rank', 'rank', { '': 'Rank from my rating', ...Object.fromEntries(RANKS.map((r) => [r, r])) }, '');
      return [field('Declared rank', rank), h('button', {
        class: 'primary', onclick: () => act('tournament_register', rank.value ? { rank: rank.value } : {}),
      }, 'Register')];
    }
    if (t.status === 'running' && me && !me.withdrawn) {
      return [h('button', { onclick: () => { if (confirm('Withdraw from the rounds still to play?')) act('tournament_leave'); } }, 'Withdraw')];
    }
    return [];
  }

  function directorActions(t) {
    if (ctx.user?.id !== t.director.id) return [];
    const out = [];
    if (t.status === 'registering') out.push(h('button', { class: 'primary', onclick: () => act('tournament_start') }, 'Start now'));
    const last = t.round_list[t.round_list.length - 1];
    if (t.status === 'running' && last && !last.started) out.push(h('button', { onclick: () => act('tournament_repair') }, `Pair round ${last.round} again`));
    if (t.status === 'running') {
      const active = t.entrants.filter((e) => !e.withdrawn);
      const who = selectInput('td-player', 'player', Object.fromEntries(active.map((e) => [e.name, e.name])), active[0]?.name ?? '');
      out.push(h('div', { class: 'field-row' }, field('Player', who),
        h('button', { onclick: () => act('tournament_withdraw', { player: who.value }) }, 'Withdraw player')));
      const started = t.round_list.filter((r) => r.started);
      if (started.length) {
        const boards = started.flatMap((r) => r.games.map((g) => [`${r.round}/${g.board}`, `Round ${r.round}, board ${g.board}: ${g.black.name}–${g.white.name}`]));
        const board = selectInput('td-board', 'board', Object.fromEntries(boards), boards[boards.length - 1]?.[0] ?? '');
        const result = selectInput('td-result', 'result', RESULT_WORDS, 'black');
        out.push(h('div', { class: 'field-row' }, field('Game', board), field('Result', result),
          h('button', {
            onclick: () => {
              const [round, b] = board.value.split('/').map(Number);
              act('tournament_set_result', { round, board: b, result: result.value });
            },
          }, 'Set result')));
      }
    }
    return out.length ? [h('div', { class: 'director' }, h('h2', {}, 'Director'), ...out)] : [];
  }

  function renderStandings(t) {
    if (!t.standings.length) {
      fill(standings, h('h2', {}, 'Standings'), h('p', { class: 'empty' }, 'The standings appear once the tournament starts.'));
      return;
    }
    const roundCount = t.round_list.length;
    const tieBreaks = t.tie_breaks.filter((k) => k !== 'score' && k !== 'wins');
    const scoreLabel = t.system === 'mcmahon' ? 'MMS' : 'Wins';
    fill(standings, h('h2', {}, 'Standings'),
      h('div', { class: 'table-wrap' }, h('table', { class: 'standings-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Rank'),
          ...Array.from({ length: roundCount }, (_, i) => h('th', { scope: 'col' }, `R${i + 1}`)),
          h('th', { scope: 'col' }, scoreLabel), ...tieBreaks.map((k) => h('th', { scope: 'col' }, TIE_BREAK_WORDS[k])))),
        h('tbody', {}, ...t.standings.map((s) => h('tr', { class: s.withdrawn || s.eliminated ? 'out' : '' },
          h('td', {}, String(s.place)),
          h('td', {}, h('a', { href: `#/user/${encodeURIComponent(s.player.name)}` }, s.player.name), s.withdrawn ? h('span', { class: 'tag' }, 'withdrawn') : ''),
          h('td', {}, s.rank),
          ...s.rounds.map((c) => h('td', { class: 'cross' }, crosstableCell(c))),
          h('td', {}, String(t.system === 'mcmahon' ? s.score : s.points)),
          ...tieBreaks.map((k) => h('td', {}, String(s[k])))))))),
      h('p', { class: 'muted' }, 'Each round: the opponent\'s place, + win, - loss, = jigo, ? still playing, b/w colour, then handicap; ! decided without play.'));
  }

  function renderRounds(t) {
    if (!t.round_list.length) {
      fill(rounds, h('h2', {}, 'Rounds'), h('p', { class: 'empty' }, 'No round has been paired yet.'));
      return;
    }
    fill(rounds, h('h2', {}, 'Rounds'), ...[...t.round_list].reverse().map((r) => h('div', { class: 'round', dataset: { round: r.round } },
      h('h3', {}, `Round ${r.round}`, h('span', { class: 'muted' }, r.started ? '' : ` · starts ${formatDate(r.starts_at_ms)}`)),
      h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ...['Board', 'Black', 'White', 'Handicap', 'Result', ''].map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, ...r.games.map((g) => h('tr', {},
          h('td', {}, String(g.board)), h('td', {}, g.black.name), h('td', {}, g.white.name),
          h('td', {}, g.handicap ? (g.handicap === 1 ? 'no komi' : `${g.handicap} stones`) : 'even'),
          h('td', {}, g.result ? RESULT_WORDS[g.result] + (g.forfeit ? ' (forfeit)' : '') : (r.started ? 'playing' : '')),
          h('td', {}, g.game ? h('a', { href: `#/game/${g.game}` }, 'Watch') : '')))))),
      r.byes.length ? h('p', { class: 'muted' }, `Bye: ${r.byes.map((b) => b.name).join(', ')}`) : '')));
  }

  const stopListening = onTournamentChange(ctx, id, load);
  load();
  return () => {
    stopped = true;
    stopListening();
    return data;
  };
}

function auditDetail(a) {
  const r = a.record;
  if (a.kind === 'registered' || a.kind === 'unregistered' || a.kind === 'withdrawn') return `: ${r.user.name}`;
  if (a.kind === 'paired' || a.kind === 'round_started') return `: round ${r.round}`;
  if (a.kind === 'result') return `: round ${r.round}, board ${r.board}, ${RESULT_WORDS[r.outcome]}${r.forfeit ? ' (forfeit)' : ''}`;
  return '';
}
