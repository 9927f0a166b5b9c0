// Tournaments: the list with a form to create one, and a tournament's page — registration, the
// director's actions, live standings with the crosstable, each round's pairings and games.
import { h, fill, describeSettings, formatDate, selectInput, field } from './util.js';
import { fetchJson, importTournament, addPlayerList } from './api.js';
import { timeNames, rulesetOptions, timeInputs, timeOf, myGroups } from './lobby.js';
// `t` names a tournament throughout this file: its words come from T, the catalog's t.
import { t as T, tn } from './i18n.js';
import { Command, Message } from './wire.js';

const MIN = 60000;
const LIST_PAGE = 50;

// The pairing systems, statuses, tie-breaks and results by their wire names; the words are the
// catalog's tournament.system_*, tournament.status_*, tournament.tb_* and tournament.result_*.
export const SYSTEMS = ['mcmahon', 'swiss', 'round_robin', 'double_round_robin', 'single_elimination', 'double_elimination'];
const words = (prefix, keys) => Object.fromEntries(keys.map((k) => [k, T(`tournament.${prefix}_${k}`)]));
const systemName = (s) => (SYSTEMS.includes(s) ? T(`tournament.system_${s}`) : s);
const statusName = (s) => (['registering', 'running', 'finished', 'cancelled'].includes(s) ? T(`tournament.status_${s}`) : s);
const TIE_BREAK_WORDS = { score: 'MMS', sos: 'SOS', sosos: 'SOSOS', sodos: 'SODOS' };
const resultName = (r) => T(`tournament.result_${r}`);
const RESULTS = ['black', 'white', 'jigo', 'both_lose'];
// What the audit log records (server/src/tournaments/director.cpp).
const AUDIT_KINDS = ['registered', 'unregistered', 'started', 'paired', 'round_started', 'result', 'reported', 'withdrawn', 'absence', 'edited', 'finished', 'cancelled'];

// Every rank from 30 kyu to 9 dan, strongest first.
export const RANKS = [...Array.from({ length: 9 }, (_, i) => `${9 - i}d`), ...Array.from({ length: 30 }, (_, i) => `${i + 1}k`)];

const select = (name, options, value, attrs = {}) => selectInput(`tf-${name}`, name, options, value, attrs);
const number = (name, value, min, max, step = 1) =>
  h('input', { id: `tf-${name}`, name, type: 'number', min: String(min), max: String(max), step: String(step), value: String(value), required: true });

// Asks the server for changes to this tournament (or to any, for the list) and re-renders on
// each; after a reconnection it asks again and reloads what it may have missed.
function onTournamentChange(ctx, id, reload) {
  const watch = () => ctx.conn.command(Command.watch_tournaments, id === null ? {} : { tournament: id }, { resend: false }).catch(() => {});
  const listener = (e) => {
    if (e.detail.type === Message.tournament_changed && (id === null || e.detail.tournament === id)) reload();
  };
  const reopened = () => { watch(); reload(); };
  ctx.conn.addEventListener('message', listener);
  ctx.conn.addEventListener('open', reopened);
  if (ctx.conn.isOpen) watch();
  return () => {
    ctx.conn.removeEventListener('message', listener);
    ctx.conn.removeEventListener('open', reopened);
    ctx.conn.command(Command.unwatch_tournaments, {}, { resend: false }).catch(() => {});
  };
}

// ---- the list ----

export function mountTournamentList(root, ctx) {
  const rows = h('tbody');
  const older = h('button', { type: 'button', class: 'older', hidden: true }, T('tournament.older'));
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const form = ctx.user ? tournamentForm(ctx) : h('p', { class: 'muted' }, ...tn('tournament.guest', { link: h('a', { href: '#/login' }, T('nav.log_in')) }));
  fill(root, h('div', { class: 'tournaments' },
    h('section', { class: 'card' }, h('h1', {}, T('nav.tournaments')),
      h('div', { class: 'table-wrap' }, h('table', { class: 'tournament-list' },
        h('thead', {}, h('tr', {}, ...['name', 'system', 'status', 'players', 'round', 'director'].map((k) => h('th', { scope: 'col' }, T(`tournament.col_${k}`))))),
        rows)),
      older, problem),
    h('section', { class: 'card' }, h('h2', {}, T('tournament.new')), form),
    ctx.user ? importForm() : ''));
  let stopped = false;
  const row = (t) => h('tr', { dataset: { tournament: t.id } },
    h('td', {}, h('a', { href: `#/tournament/${t.id}` }, t.name)),
    h('td', {}, systemName(t.system)),
    h('td', {}, statusName(t.status)),
    h('td', {}, String(t.players)),
    h('td', {}, t.round ? (t.rounds ? T('tournament.round_of', { round: t.round, rounds: t.rounds }) : String(t.round)) : '—'),
    h('td', {}, t.director.name));
  // The list comes in pages, newest first; "Older tournaments" fetches the next one.
  async function load(before = null) {
    try {
      const { tournaments, next_before: next } =
        await fetchJson(`/api/v1/tournaments?limit=${LIST_PAGE}${before ? `&before=${before}` : ''}`);
      if (stopped) return;
      if (!before) fill(rows);
      if (!before && !tournaments.length) fill(rows, h('tr', {}, h('td', { colspan: 6, class: 'empty' }, T('tournament.none'))));
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

// An over-the-board event run elsewhere (OpenGotha, pairgoth) goes on here from its file: the
// players, the rounds played, their pairings and results (docs/tournaments.md, "OpenGotha").
function importForm() {
  const file = h('input', { type: 'file', id: 'ti-file', accept: '.xml,application/xml,text/xml' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', { type: 'submit' }, T('tournament.import_button'));
  return h('section', { class: 'card import-tournament' }, h('h2', {}, T('tournament.import_title')),
    h('p', { class: 'muted' }, T('tournament.import_help')),
    h('form', {
      onsubmit: async (e) => {
        e.preventDefault();
        problem.textContent = '';
        if (!file.files.length) {
          problem.textContent = T('tournament.import_choose');
          return;
        }
        button.disabled = true;
        try {
          const { tournament } = await importTournament(file.files[0]);
          location.hash = `#/tournament/${tournament}`;
        } catch (err) {
          problem.textContent = err.message;
        } finally {
          button.disabled = false;
        }
      },
    }, field(T('tournament.import_file'), file), button, problem));
}

function tournamentForm(ctx) {
  const name = h('input', { id: 'tf-name', name: 'name', required: true, maxlength: 80, placeholder: T('tournament.name_placeholder') });
  const system = select('system', words('system', SYSTEMS), 'mcmahon');
  const rounds = number('rounds', 4, 1, 30);
  const size = select('size', { 19: '19×19', 13: '13×13', 9: '9×9' }, '19');
  const ruleset = select('ruleset', rulesetOptions(), 'japanese');
  const clock = select('time', timeNames(), 'byoyomi');
  const timeFields = h('div', { class: 'field-row time-fields' });
  // A correspondence league's pause policy (weekends are the clock's own setting).
  const vacations = h('input', { id: 'tf-vacations', type: 'checkbox', checked: true });
  // A round robin by correspondence may play all its rounds at once (a league).
  const together = h('input', { id: 'tf-together', type: 'checkbox' });
  const togetherLabel = h('label', { class: 'check' }, together, ` ${T('tournament.all_at_once')}`);
  const pauses = h('div', { class: 'field-row checks', hidden: true }, h('label', { class: 'check' }, vacations, ` ${T('tournament.vacations')}`), togetherLabel);
  const roundRobin = () => ['round_robin', 'double_round_robin'].includes(system.value);
  const bar = select('bar', Object.fromEntries(RANKS.map((r) => [r, r])), '1d');
  const floor = select('floor', Object.fromEntries(RANKS.map((r) => [r, r])), '20k');
  const byGap = h('input', { id: 'tf-by-gap', type: 'checkbox' });
  const maxPlayers = number('max_players', 0, 0, 1000);
  const whenFull = h('input', { id: 'tf-when-full', type: 'checkbox' });
  const gap = number('gap', 0, 0, 10080, 'any');
  const noShow = number('no_show', 5, 1 / 60, 10080, 'any');
  const rated = h('input', { id: 'tf-rated', type: 'checkbox' });
  // Over the board (docs/tournaments.md): played on physical boards, where it is held.
  const onBoards = h('input', { id: 'tf-otb', type: 'checkbox' });
  const country = h('input', { id: 'tf-country', name: 'country', maxlength: 2, size: 3, autocomplete: 'off', placeholder: 'NL' });
  const city = h('input', { id: 'tf-city', name: 'city', maxlength: 60 });
  const placeFields = h('div', { class: 'field-row', hidden: true }, field(T('tournament.country'), country), field(T('tournament.city'), city));
  const mcmahonOnly = h('div', { class: 'field-row' }, field(T('tournament.bar'), bar), field(T('tournament.floor'), floor),
    h('label', { class: 'check' }, byGap, ` ${T('tournament.by_gap')}`));
  const roundsField = field(T('tournament.rounds'), rounds);
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const inputs = {};
  // By correspondence a first move may take as long as a move: no separate no-show time.
  const noShowField = field(T('tournament.no_show'), noShow);
  const gapField = field(T('tournament.gap'), gap);  // not between rounds played at once
  const showGap = () => {
    gapField.hidden = onBoards.checked || (!pauses.hidden && !togetherLabel.hidden && together.checked);
    noShowField.hidden = onBoards.checked || !pauses.hidden;
    placeFields.hidden = !onBoards.checked;
  };
  onBoards.addEventListener('change', showGap);
  together.addEventListener('change', showGap);
  const showTime = () => {
    fill(timeFields, ...timeInputs(clock.value, inputs, 'tf'));
    pauses.hidden = clock.value !== 'correspondence';
    showGap();
  };
  function showSystem() {
    togetherLabel.hidden = !roundRobin();
    showGap();
    mcmahonOnly.hidden = system.value !== 'mcmahon';
    roundsField.hidden = !['mcmahon', 'swiss'].includes(system.value);
  }
  clock.addEventListener('change', showTime);
  system.addEventListener('change', showSystem);
  showTime();
  showSystem();

  function settings() {
    const game = { width: Number(size.value), height: Number(size.value), ruleset: ruleset.value, time: timeOf(clock.value, inputs), rated: rated.checked };
    if (who.value) game.group = Number(who.value);  // a group's: its members only (docs/groups.md)
    const s = {
      name: name.value.trim(), system: system.value, game,
      max_players: Number(maxPlayers.value), start_when_full: whenFull.checked,
      round_start: { mode: 'after_previous', gap_ms: Math.round(Number(gap.value) * MIN) },
      no_show_ms: Math.round(Number(noShow.value) * MIN),
    };
    if (!roundsField.hidden) s.rounds = Number(rounds.value);
    if (onBoards.checked) {
      s.over_the_board = true;
      if (country.value.trim()) s.country = country.value.trim().toUpperCase();
      if (city.value.trim()) s.city = city.value.trim();
      delete s.round_start;
    }
    if (clock.value === 'correspondence') {
      s.vacations = vacations.checked;
      if (roundRobin() && together.checked) s.all_rounds_at_once = true;
    }
    if (system.value === 'mcmahon') {
      s.mcmahon = { bar: bar.value, floor: floor.value };
      s.handicap = { by_score_gap: byGap.checked };
    }
    return s;
  }
  // Who may play: anyone, or the members of one of the director's groups.
  const who = select('who', { '': T('form.anyone_may_accept') }, '');
  const whoField = field(T('tournament.who_may_play'), who);
  whoField.hidden = true;
  myGroups(ctx).then((groups) => {
    if (!groups.length) return;
    who.append(...groups.map((g) => h('option', { value: String(g.id) }, T('form.members_of', { name: g.name }))));
    whoField.hidden = false;
  });
  return h('form', {
    class: 'tournament-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        const ack = await ctx.conn.command(Command.create_tournament, { settings: settings() });
        ctx.navigate(`#/tournament/${ack.tournament}`);
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  h('div', { class: 'field-row' }, field(T('tournament.col_name'), name)),
  h('div', { class: 'field-row' }, field(T('tournament.col_system'), system), roundsField),
  mcmahonOnly,
  h('div', { class: 'field-row' }, field(T('form.board'), size), field(T('form.rules'), ruleset), field(T('form.clock'), clock)),
  timeFields,
  pauses,
  h('div', { class: 'field-row' }, field(T('tournament.max_players'), maxPlayers),
    h('label', { class: 'check' }, whenFull, ` ${T('tournament.when_full')}`)),
  h('div', { class: 'field-row' }, gapField, noShowField),
  h('div', { class: 'field-row checks' }, h('label', { class: 'check' }, rated, ` ${T('tournament.rated')}`),
    h('label', { class: 'check' }, onBoards, ` ${T('tournament.over_the_board')}`)),
  placeFields,
  h('div', { class: 'field-row' }, whoField),
  problem,
  h('button', { type: 'submit', class: 'primary' }, T('tournament.create')));
}

// ---- one tournament ----

// A crosstable cell: the opponent's place, + - or =, the colour, the handicap: "3+w", "5-b2".
export function crosstableCell(cell) {
  if (!cell) return '—';
  if (cell.bye) return T('tournament.bye');
  return `${cell.opponent_place}${cell.result}${cell.color}${cell.handicap ? cell.handicap : ''}${cell.forfeit ? '!' : ''}`;
}

export function mountTournament(root, ctx, id) {
  const head = h('section', { class: 'card tournament-head' }, h('h1', {}, T('title.tournament', { id: String(id) })));
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
    const roundsText = t.rounds ? T('tournament.n_rounds', { n: t.rounds }) : '';
    fill(head, h('h1', {}, t.name, h('span', { class: `tag status-${t.status}` }, statusName(t.status))),
      t.settings.game.group ? h('p', {}, h('a', { class: 'tag group-tag', href: `#/group/${t.settings.game.group}` }, T('tournament.for_group'))) : '',
      h('p', { class: 'muted' }, [systemName(t.system), roundsText, describeSettings(t.settings.game), T('tournament.directed_by', { name: t.director.name }),
        t.settings.starts_at_ms ? T('tournament.starts', { when: formatDate(t.settings.starts_at_ms) }) : ''].filter(Boolean).join(' · ')),
      t.settings.over_the_board ? h('p', { class: 'muted otb-note' }, [T('tournament.on_boards'), [t.settings.city, t.settings.country].filter(Boolean).join(', ')].filter(Boolean).join(' · ')) : '',
      t.settings.vacations === false || t.settings.all_rounds_at_once
        ? h('p', { class: 'muted tournament-pauses' }, [t.settings.all_rounds_at_once ? T('tournament.league') : '',
          t.settings.vacations === false ? T('tournament.no_vacations') : ''].filter(Boolean).join(' ')) : '',
      t.system === 'mcmahon' ? h('p', { class: 'muted' }, T('tournament.bar_floor', { bar: t.settings.mcmahon.bar, floor: t.settings.mcmahon.floor }) +
        (t.settings.handicap.by_score_gap ? `, ${T('tournament.by_gap').toLocaleLowerCase()}` : '')) : '',
      entrantList(t));
    // Redrawn on every change of the tournament (another's result, a registration): what the
    // director is typing stays, and so does the keyboard's place.
    const focused = actions.contains(document.activeElement) ? document.activeElement.id : '';
    // (Not a chosen file: a page may not set one, and it is sent at once.)
    const typed = [...actions.querySelectorAll('input[id]:not([type=file]), select[id]')].map((el) => [el.id, el.type === 'checkbox' ? el.checked : el.value]);
    const opened = [...actions.querySelectorAll('details[open]')].map((d) => d.className);
    fill(actions, ...playerActions(t), ...directorActions(t));
    for (const [key, value] of typed) {
      const el = document.getElementById(key);
      if (!el || !actions.contains(el)) continue;
      if (el.type === 'checkbox') el.checked = value;  // a table ticked to be played online
      // A choice no longer offered (a player withdrawn) leaves the list at its new default.
      else if (el.tagName !== 'SELECT' || [...el.options].some((o) => o.value === value)) el.value = value;
    }
    for (const name of opened) if (name) actions.querySelector(`details.${name}`)?.setAttribute('open', '');
    if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
    renderStandings(t);
    renderRounds(t);
    fill(audit, h('summary', {}, T('tournament.audit', { n: t.audit.length })),
      h('ol', { class: 'audit-log' }, ...t.audit.map((a) => h('li', {}, `${formatDate(a.at_ms)} · ${AUDIT_KINDS.includes(a.kind) ? T(`tournament.audit_${a.kind}`) : a.kind}` +
        (a.by ? ` ${T('review.by', { name: a.by })}` : '') + auditDetail(a, t.settings.over_the_board)))));
  }

  function entrantList(t) {
    if (!t.entrants.length) return h('p', { class: 'empty' }, T('tournament.no_entrants'));
    return h('p', { class: 'entrants' }, `${T('tournament.n_players', { n: t.entrants.length })}: `,
      ...t.entrants.map((e, i) => h('span', { class: e.withdrawn ? 'entrant withdrawn' : 'entrant' }, i ? ', ' : '',
        playerName(e), ` ${e.rank}`, e.club || e.country || (e.account && e.family_name) ? h('span', { class: 'muted' },
          ` (${[e.account && e.family_name ? [e.family_name, e.given_name].filter(Boolean).join(' ') : '', e.club, e.country].filter(Boolean).join(', ')})`) : '',
        e.absent?.length && !e.withdrawn ? h('span', { class: 'muted' }, ` · ${T('tournament.absent_in', { rounds: e.absent.join(', ') })}`) : '')));
  }

  // An account's name links to its profile; a player registered by the director has none.
  function playerName(p) {
    const entrant = data?.entrants.find((e) => e.id === p.id) ?? p;
    return entrant.account === false ? h('span', {}, p.name) : h('a', { href: `#/user/${encodeURIComponent(p.name)}` }, p.name);
  }

  function playerActions(t) {
    if (!ctx.user) return [h('p', { class: 'muted' }, ...tn('tournament.guest_register', { link: h('a', { href: '#/login' }, T('nav.log_in')) }))];
    const me = t.entrants.find((e) => e.id === ctx.user.id);
    if (t.status === 'registering') {
      if (me) return [h('button', { onclick: () => act(Command.tournament_leave) }, T('tournament.unregister'))];
      const rank = selectInput('tr-rank', 'rank', { '': T('tournament.rank_from_rating'), ...Object.fromEntries(RANKS.map((r) => [r, r])) }, '');
      return [field(T('tournament.declared_rank'), rank), h('button', {
        class: 'primary', onclick: () => act(Command.tournament_register, rank.value ? { rank: rank.value } : {}),
      }, T('tournament.register'))];
    }
    if (t.status === 'running' && me && !me.withdrawn) {
      return [...myTable(t, me), h('button', { onclick: () => { if (confirm(T('tournament.withdraw_confirm'))) act(Command.tournament_leave); } }, T('tournament.withdraw'))];
    }
    return [];
  }

  // Over the board: where a player sits in the round published last (what they look for on a
  // phone in the hall).
  function myTable(t, me) {
    const round = [...t.round_list].reverse().find((r) => r.started);
    if (!t.settings.over_the_board || !round) return [];
    if (round.byes.some((b) => b.id === me.id)) return [h('p', { class: 'my-table' }, T('tournament.my_bye', { round: round.round }))];
    if (me.absent?.includes(round.round)) return [h('p', { class: 'my-table' }, T('tournament.my_absent', { round: round.round }))];
    const g = round.games.find((x) => x.black.id === me.id || x.white.id === me.id);
    if (!g || g.result) return [];
    const black = g.black.id === me.id;
    const opponent = (black ? g.white : g.black).name;
    const where = h('p', { class: 'my-table' }, T(black ? 'tournament.my_table_black' : 'tournament.my_table_white',
      { round: round.round, table: g.board, name: opponent }));
    // A hybrid round may put this table on the server.
    if (g.game) return [h('div', { class: 'my-game' }, where, h('a', { class: 'button primary', href: `#/game/${g.game}` }, T('tournament.play_online')))];
    return [h('div', { class: 'my-game' }, where, reportBox(round, g, black, opponent))];
  }

  // Over the board: the player says how their game ended; it counts once the opponent says the
  // same, and a disagreement goes to the director.
  function reportBox(round, g, black, opponent) {
    const mine = black ? 'black' : 'white';
    const theirs = black ? 'white' : 'black';
    const said = g.reports?.[mine] ?? null;
    const heard = g.reports?.[theirs] ?? null;
    // From this player's side: "I won" is their colour's win.
    const choices = [['i_won', mine], ['i_lost', theirs], ['result_jigo', 'jigo']];
    const status = [];
    // What this player said, in the words of the button they pressed.
    const pressed = choices.find(([, result]) => result === said);
    if (said) status.push(T('tournament.you_said', { result: pressed ? `“${T(`tournament.${pressed[0]}`)}”` : resultName(said) }));
    if (heard && g.disputed) status.push(T('tournament.opponent_said', { name: opponent, result: resultName(heard) }));
    if (g.disputed) status.push(T('tournament.disputed_help', { name: opponent }));
    else if (said) status.push(T('tournament.waiting_opponent', { name: opponent }));
    return h('div', { class: `report-result${g.disputed ? ' disputed' : ''}`, role: 'group', 'aria-labelledby': 'tp-report-prompt' },
      h('p', { id: 'tp-report-prompt' }, h('strong', {}, T('tournament.report_prompt'))),
      h('div', { class: 'report-buttons' }, ...choices.map(([key, result]) => h('button', {
        type: 'button', class: said === result ? 'chosen' : '', 'aria-pressed': String(said === result),
        onclick: () => act(Command.tournament_report_result, { round: round.round, board: g.board, result }),
      }, T(`tournament.${key}`)))),
      status.length ? h('p', { class: 'report-status', role: 'status' }, status.join(' ')) : '');
  }

  function directorActions(t) {
    if (ctx.user?.id !== t.director.id) return [];
    const out = [];
    if (t.status === 'registering') out.push(h('button', { class: 'primary', onclick: () => act(Command.tournament_start) }, T('tournament.start_now')));
    const last = t.round_list[t.round_list.length - 1];
    const onBoards = t.settings.over_the_board;
    // Over the board a Swiss or McMahon also takes a late player between rounds.
    const between = t.status === 'running' && ['swiss', 'mcmahon'].includes(t.system) && (!last?.started || last.games.every((g) => g.result));
    if (onBoards && (t.status === 'registering' || between)) out.push(addPlayerForm(), playerListForm(), listDone);
    if (t.status === 'running' && last && !last.started) {
      // A hybrid round: tables between two accounts may be played on the server.
      const members = onBoards ? last.games.filter((g) => accountOf(g.black) && accountOf(g.white)) : [];
      const online = members.map((g) => h('input', { type: 'checkbox', id: `td-online-${last.round}-${g.board}`, value: String(g.board) }));
      const publish = () => act(Command.tournament_publish_round,
        { round: last.round, online_tables: online.filter((box) => box.checked).map((box) => Number(box.value)) });
      out.push(h('div', { class: 'field-row' },
        onBoards ? h('button', { class: 'primary', onclick: publish }, T('tournament.publish', { round: last.round })) : '',
        h('button', { onclick: () => act(Command.tournament_repair) }, T('tournament.repair', { round: last.round }))));
      if (onBoards) out.push(pairingEditor(t, last));
      if (members.length) {
        out.push(h('details', { class: 'online-tables' }, h('summary', {}, T('tournament.online_tables')),
          h('p', { class: 'muted' }, T('tournament.online_help')),
          h('ul', {}, ...members.map((g, i) => h('li', {}, h('label', { class: 'check' }, online[i],
            ` ${T('tournament.rcol_table')} ${g.board}: ${g.black.name} – ${g.white.name}`))))));
      }
    }
    if (onBoards && t.status === 'running' && last?.started && last.games.some((g) => !g.result)) out.push(resultGrid(last));
    const absence = absenceForm(t);
    if (absence) out.push(absence);
    if (['registering', 'running', 'finished'].includes(t.status) && t.entrants.length) out.push(editPlayerForm(t));
    if (t.status === 'running') {
      const active = t.entrants.filter((e) => !e.withdrawn);
      const who = selectInput('td-player', 'player', Object.fromEntries(active.map((e) => [e.name, e.name])), active[0]?.name ?? '');
      out.push(h('div', { class: 'field-row' }, field(T('tournament.player'), who),
        h('button', { onclick: () => act(Command.tournament_withdraw, { player: who.value }) }, T('tournament.withdraw_player'))));
      const started = t.round_list.filter((r) => r.started);
      if (started.length) {
        const boards = started.flatMap((r) => r.games.map((g) => [`${r.round}/${g.board}`, T('tournament.board_game', { round: r.round, board: g.board, black: g.black.name, white: g.white.name })]));
        const board = selectInput('td-board', 'board', Object.fromEntries(boards), boards[boards.length - 1]?.[0] ?? '');
        const result = selectInput('td-result', 'result', Object.fromEntries(RESULTS.map((k) => [k, resultName(k)])), 'black');
        // A game not played (a no-show at a board): the federation files mark it so.
        const forfeit = h('input', { type: 'checkbox', id: 'td-forfeit' });
        out.push(h('div', { class: 'field-row' }, field(T('games.col_game'), board), field(T('games.col_result'), result),
          onBoards ? h('label', { class: 'check' }, forfeit, ` ${T('tournament.by_forfeit')}`) : '',
          h('button', {
            onclick: () => {
              const [round, b] = board.value.split('/').map(Number);
              act(Command.tournament_set_result, { round, board: b, result: result.value, forfeit: onBoards && forfeit.checked });
            },
          }, T('tournament.set_result'))));
      }
    }
    const file = (name, words) => h('a', { class: 'button', href: `/api/v1/tournaments/${id}/${name}`, download: '' }, T(words));
    if (t.status !== 'registering' && t.status !== 'cancelled') {
      out.push(h('p', { class: 'print-links' }, `${T('tournament.print')}: `,
        ...PRINTS.flatMap((k, i) => [i ? ' · ' : '', h('a', { href: `#/tournament/${id}/print/${k}` }, T(`tournament.print_${k}`))])));
      out.push(h('p', { class: 'federation-files' }, file('egd.h9', 'tournament.egd_file'), ' ', file('aga.txt', 'tournament.aga_file'),
        ' ', file('opengotha.xml', 'tournament.opengotha_file')));
    } else if (t.status === 'registering' && t.entrants.length) {  // the players, for OpenGotha
      out.push(h('p', { class: 'federation-files' }, file('opengotha.xml', 'tournament.opengotha_file')));
    }
    return out.length ? [h('div', { class: 'director' }, h('h2', {}, T('tournament.col_director')), ...out)] : [];
  }

  // A Swiss or McMahon: a player who cannot come to one round (not yet published) is marked so;
  // the button says what it will do for the player and round chosen.
  function absenceForm(t) {
    if (!['swiss', 'mcmahon'].includes(t.system) || !['registering', 'running'].includes(t.status)) return null;
    const last = t.round_list[t.round_list.length - 1];
    const first = last ? (last.started ? last.round + 1 : last.round) : 1;
    const rounds = [];
    for (let r = first; r <= t.settings.rounds; r++) rounds.push(r);
    const players = t.entrants.filter((e) => !e.withdrawn);
    if (!rounds.length || !players.length) return null;
    const who = selectInput('ta-player', 'player', Object.fromEntries(players.map((e) => [e.name, e.name])), players[0].name);
    const round = selectInput('ta-round', 'round', Object.fromEntries(rounds.map((r) => [String(r), String(r)])), String(rounds[0]));
    const button = h('button', { type: 'button', id: 'ta-set' });
    const absentNow = () => players.find((e) => e.name === who.value)?.absent?.includes(Number(round.value)) ?? false;
    const label = () => { button.textContent = T(absentNow() ? 'tournament.set_present' : 'tournament.set_absent', { round: round.value }); };
    who.addEventListener('change', label);
    round.addEventListener('change', label);
    button.addEventListener('click', () => act(Command.tournament_set_absent, { player: who.value, round: Number(round.value), absent: !absentNow() }));
    label();
    const box = h('details', { class: 'absence' }, h('summary', {}, T('tournament.absent_title')),
      h('p', { class: 'muted' }, T('tournament.absent_help')),
      h('div', { class: 'field-row' }, field(T('tournament.player'), who), field(T('tournament.absent_round'), round), button));
    // The page restores the chosen values after drawing: the button follows them.
    queueMicrotask(label);
    return box;
  }

  // Over the board: what is registered of a player corrected (a misspelt name, a club, a PIN),
  // and a player with an account's real names for the federation files. The fields follow the
  // player chosen; what the director types stays across the page's redraws.
  let editing = null;  // the player being corrected, by the name they will have
  function editPlayerForm(t) {
    const registering = t.status === 'registering';
    const input = (key, attrs = {}) => h('input', { id: `te-${key}`, name: key, autocomplete: 'off', ...attrs });
    const names = t.entrants.map((e) => e.name);
    const who = selectInput('te-player', 'player', Object.fromEntries(names.map((n) => [n, n])), names.includes(editing) ? editing : names[0]);
    const family = input('family_name', { required: true, maxlength: 40 });
    const given = input('given_name', { maxlength: 40 });
    const rank = registering ? selectInput('te-rank', 'rank', Object.fromEntries(RANKS.map((r) => [r, r])), '10k') : null;
    const club = input('club', { maxlength: 10, size: 6 });
    const country = input('country', { maxlength: 2, size: 3, placeholder: 'NL' });
    const pin = input('egd_pin', { inputmode: 'numeric', maxlength: 8, size: 9 });
    const aga = input('aga_id', { inputmode: 'numeric', maxlength: 8, size: 9 });
    const boxes = [['family_name', family], ['given_name', given], ['club', club], ['country', country], ['egd_pin', pin], ['aga_id', aga]];
    const note = h('p', { class: 'muted', id: 'te-note' });
    const show = () => {
      const e = t.entrants.find((x) => x.name === who.value);
      if (!e) return;
      for (const [key, el] of boxes) el.value = e[key] ?? '';
      if (rank) rank.value = e.rank;
      note.textContent = e.account ? T('tournament.edit_account', { name: e.name }) : '';
    };
    who.addEventListener('change', show);
    show();
    return h('details', { class: 'edit-player' }, h('summary', {}, T('tournament.edit_player')),
      h('form', {
        onsubmit: async (ev) => {
          ev.preventDefault();
          const fields = { player: who.value, family_name: family.value.trim(), given_name: given.value.trim() };
          if (rank) fields.rank = rank.value;
          for (const [key, el] of boxes.slice(2)) if (el.value.trim()) fields[key] = el.value.trim();
          // A player without an account is renamed: the list, drawn again, stays on them.
          const guest = !t.entrants.find((e) => e.name === who.value)?.account;
          editing = guest ? [fields.family_name, fields.given_name].filter(Boolean).join(' ') : who.value;
          await act(Command.tournament_edit_player, fields);
        },
      }, h('div', { class: 'field-row' }, field(T('tournament.player'), who)), note,
      h('div', { class: 'field-row' }, field(T('tournament.family_name'), family), field(T('tournament.given_name'), given), rank ? field(T('tournament.rank'), rank) : ''),
      h('div', { class: 'field-row' }, field(T('tournament.club'), club), field(T('tournament.country'), country), field(T('tournament.egd_pin'), pin), field(T('tournament.aga_id'), aga)),
      h('button', { type: 'submit', id: 'te-save' }, T('tournament.edit_save'))));
  }

  // Over the board: the director changes the pairing of the round paired last before publishing
  // it (who plays whom, colours, handicap, byes), or seats a few players and lets the system pair
  // the rest. The draft lives across the page's redraws until the server's pairing changes.
  const pairBox = h('details', { class: 'pair-by-hand' });
  let draft = null;
  function pairingEditor(t, round) {
    const key = JSON.stringify([round.round, round.games.map((g) => [g.black.id, g.white.id, g.handicap]), round.byes.map((b) => b.id)]);
    if (draft?.key !== key) {
      draft = {
        key, round: round.round, rest: false,
        tables: round.games.map((g) => ({ black: g.black.id, white: g.white.id, handicap: g.handicap })),
        byes: round.byes.map((b) => b.id),
      };
    }
    drawPairing(t);
    return pairBox;
  }
  function drawPairing(t) {
    const active = t.entrants.filter((e) => !e.withdrawn);
    const options = { '': T('tournament.pair_nobody'), ...Object.fromEntries(active.map((e) => [String(e.id), `${e.name} (${e.rank})`])) };
    const redraw = (id) => {
      drawPairing(t);
      document.getElementById(id)?.focus({ preventScroll: true });
    };
    const pick = (id, value, label, set) => {
      const el = selectInput(id, id, options, value ? String(value) : '', { 'aria-label': label });
      el.onchange = () => { set(el.value ? Number(el.value) : null); redraw(id); };
      return el;
    };
    const times = new Map();
    for (const id of [...draft.tables.flatMap((tb) => [tb.black, tb.white]), ...draft.byes]) if (id) times.set(id, (times.get(id) ?? 0) + 1);
    const left = active.filter((e) => !times.has(e.id));
    const twice = active.filter((e) => times.get(e.id) > 1);
    const handicaps = Object.fromEntries(Array.from({ length: 10 }, (_, n) => [String(n), String(n)]));
    const rows = draft.tables.map((tb, i) => {
      const table = i + 1;
      const stones = selectInput(`tp-h-${i}`, 'handicap', handicaps, String(tb.handicap), { 'aria-label': T('tournament.pair_handicap_at', { table }) });
      stones.onchange = () => { tb.handicap = Number(stones.value); };
      return h('tr', {},
        h('th', { scope: 'row' }, String(table)),
        h('td', {}, pick(`tp-b-${i}`, tb.black, T('tournament.pair_black_at', { table }), (v) => { tb.black = v; })),
        h('td', {}, h('button', {
          type: 'button', class: 'swap', id: `tp-s-${i}`, 'aria-label': T('tournament.pair_swap_at', { table }), title: T('tournament.pair_swap'),
          onclick: () => { [tb.black, tb.white] = [tb.white, tb.black]; redraw(`tp-s-${i}`); },
        }, '⇄')),
        h('td', {}, pick(`tp-w-${i}`, tb.white, T('tournament.pair_white_at', { table }), (v) => { tb.white = v; })),
        h('td', {}, stones),
        h('td', {}, h('button', { type: 'button', class: 'link-quiet', onclick: () => { draft.tables.splice(i, 1); redraw('tp-add'); } }, T('tournament.pair_remove'))));
    });
    const byes = draft.byes.map((id, i) => h('li', {},
      pick(`tp-bye-${i}`, id, T('tournament.pair_bye_n', { n: i + 1 }), (v) => { draft.byes[i] = v; }), ' ',
      h('button', { type: 'button', class: 'link-quiet', onclick: () => { draft.byes.splice(i, 1); redraw('tp-add-bye'); } }, T('tournament.pair_remove'))));
    const rest = h('input', { type: 'checkbox', id: 'tp-rest', checked: draft.rest, onchange: () => { draft.rest = rest.checked; } });
    const save = () => act(Command.tournament_pair_round, {
      round: draft.round,
      tables: draft.tables.filter((tb) => tb.black && tb.white).map((tb) => ({ black: tb.black, white: tb.white, handicap: tb.handicap })),
      byes: draft.byes.filter(Boolean),
      pair_rest: draft.rest,
    });
    fill(pairBox, h('summary', {}, T('tournament.pair_by_hand', { round: draft.round })),
      h('p', { class: 'muted' }, T('tournament.pair_help')),
      h('div', { class: 'table-wrap' }, h('table', { class: 'pairing-editor' },
        h('thead', {}, h('tr', {}, ...['rcol_table', 'rcol_black', '', 'rcol_white', 'handicap', ''].map((k) => h('th', { scope: 'col' }, k ? T(`tournament.${k}`) : '')))),
        h('tbody', {}, ...rows))),
      byes.length ? h('div', {}, h('h3', {}, T('tournament.pair_byes')), h('ul', { class: 'pair-byes' }, ...byes)) : '',
      h('div', { class: 'field-row' },
        h('button', { type: 'button', id: 'tp-add', onclick: () => { draft.tables.push({ black: null, white: null, handicap: 0 }); redraw(`tp-b-${draft.tables.length - 1}`); } }, T('tournament.pair_add_table')),
        h('button', { type: 'button', id: 'tp-add-bye', onclick: () => { draft.byes.push(null); redraw(`tp-bye-${draft.byes.length - 1}`); } }, T('tournament.pair_add_bye'))),
      h('p', { class: left.length || twice.length ? 'pair-status warn' : 'pair-status', role: 'status' },
        twice.length ? T('tournament.pair_twice', { names: twice.map((e) => e.name).join(', ') })
          : left.length ? T('tournament.pair_left', { names: left.map((e) => e.name).join(', ') }) : T('tournament.pair_all_seated')),
      ['swiss', 'mcmahon'].includes(t.system) ? h('label', { class: 'check' }, rest, ` ${T('tournament.pair_rest')}`) : '',
      h('div', { class: 'field-row' }, h('button', { type: 'button', class: 'primary', id: 'tp-save', onclick: save }, T('tournament.pair_save'))));
  }

  // Over the board: many players at once, from a spreadsheet saved as CSV (a header row names the
  // columns: docs/tournaments.md); all of them or, on a refusal, none.
  const listDone = h('p', { class: 'muted list-done', role: 'status' });  // outside the details: seen if it closes
  function playerListForm() {
    const file = h('input', { type: 'file', id: 'tl-file', accept: '.csv,text/csv' });
    const send = async () => {
      problem.textContent = '';
      listDone.textContent = '';
      if (!file.files.length) {
        problem.textContent = T('tournament.list_choose');
        return;
      }
      try {
        const { added } = await addPlayerList(id, file.files[0]);
        listDone.textContent = T('tournament.list_added', { n: added });
        await load();
      } catch (err) {
        problem.textContent = err.message;
      }
    };
    return h('details', { class: 'player-list' }, h('summary', {}, T('tournament.list_title')),
      h('p', { class: 'muted' }, T('tournament.list_help')),
      h('div', { class: 'field-row' }, field(T('tournament.list_file'), file),
        h('button', { type: 'button', id: 'tl-send', onclick: send }, T('tournament.list_button'))));
  }

  // Over the board: the director registers a player who has no account.
  function addPlayerForm() {
    const input = (key, attrs = {}) => h('input', { id: `ta-${key}`, name: key, autocomplete: 'off', ...attrs });
    const family = input('family_name', { required: true, maxlength: 40 });
    const given = input('given_name', { maxlength: 40 });
    const rank = selectInput('ta-rank', 'rank', Object.fromEntries(RANKS.map((r) => [r, r])), '10k');
    const club = input('club', { maxlength: 10, size: 6 });
    const country = input('country', { maxlength: 2, size: 3, placeholder: 'NL' });
    const pin = input('egd_pin', { inputmode: 'numeric', maxlength: 8, size: 9 });
    const aga = input('aga_id', { inputmode: 'numeric', maxlength: 8, size: 9 });
    return h('form', {
      class: 'add-player', onsubmit: async (e) => {
        e.preventDefault();
        const fields = { family_name: family.value.trim(), given_name: given.value.trim(), rank: rank.value };
        for (const [key, el] of [['club', club], ['country', country], ['egd_pin', pin], ['aga_id', aga]]) {
          if (el.value.trim()) fields[key] = el.value.trim();
        }
        await act(Command.tournament_add_player, fields);
        if (problem.textContent) return;
        for (const key of ['family_name', 'given_name', 'club', 'country', 'egd_pin', 'aga_id']) {
          const el = document.getElementById(`ta-${key}`);
          if (el) el.value = '';
        }
        document.getElementById('ta-family_name')?.focus();
      },
    }, h('h3', {}, T('tournament.add_player')),
    h('div', { class: 'field-row' }, field(T('tournament.family_name'), family), field(T('tournament.given_name'), given), field(T('tournament.rank'), rank)),
    h('div', { class: 'field-row' }, field(T('tournament.club'), club), field(T('tournament.country'), country), field(T('tournament.egd_pin'), pin), field(T('tournament.aga_id'), aga)),
    h('button', { type: 'submit' }, T('tournament.add')));
  }

  // Over the board: the round's results, one table after another, from the keyboard ("7b" and
  // Enter: Black won at table 7; w, j for jigo, x for both lose) or by the buttons of each row.
  function resultGrid(round) {
    const keys = { b: 'black', w: 'white', j: 'jigo', x: 'both_lose' };
    const quick = h('input', { id: 'td-quick', class: 'quick-result', autocomplete: 'off', placeholder: T('tournament.quick_placeholder'), 'aria-describedby': 'td-quick-help' });
    const enter = async (board, result) => {
      await act(Command.tournament_set_result, { round: round.round, board, result });
      const box = document.getElementById('td-quick');
      if (box && !problem.textContent) box.value = '';
      box?.focus();
    };
    const form = h('form', {
      class: 'quick-entry', onsubmit: (e) => {
        e.preventDefault();
        const m = /^\s*(\d+)\s*([bwjx])\s*$/i.exec(quick.value);
        if (!m || !round.games.some((g) => g.board === Number(m[1]))) {
          problem.textContent = T('tournament.quick_bad', { text: quick.value });
          return;
        }
        enter(Number(m[1]), keys[m[2].toLowerCase()]);
      },
    }, field(T('tournament.quick_entry'), quick), h('button', { type: 'submit' }, T('tournament.set_result')));
    return h('div', { class: 'result-grid' }, h('h3', {}, T('tournament.results_of', { round: round.round })), form,
      h('p', { id: 'td-quick-help', class: 'muted' }, T('tournament.quick_help')),
      h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ...['table', 'black', 'white'].map((x) => h('th', { scope: 'col' }, T(`tournament.rcol_${x}`))),
          h('th', { scope: 'col' }, T('tournament.players_say')), h('th', { scope: 'col' }, T('tournament.rcol_result')))),
        h('tbody', {}, ...round.games.map((g) => h('tr', { class: [g.result ? 'entered' : '', g.disputed ? 'disputed' : ''].filter(Boolean).join(' ') },
          h('td', {}, String(g.board)), h('td', {}, g.black.name), h('td', {}, g.white.name),
          h('td', { class: 'players-say' }, g.game ? h('a', { href: `#/game/${g.game}` }, T('tournament.online')) : saidText(g)),
          h('td', { class: 'result-buttons' }, ...RESULTS.map((k) => h('button', {
            type: 'button', class: g.result === k ? 'chosen' : '', 'aria-pressed': String(g.result === k),
            'aria-label': `${T('tournament.rcol_table')} ${g.board}: ${resultName(k)}`, onclick: () => enter(g.board, k),
          }, resultName(k))))))))));
  }

  // What the players of a table reported: "Black: Black won · White: White won".
  function saidText(g) {
    if (!g.reports) return '';
    const parts = ['black', 'white'].filter((side) => g.reports[side])
      .map((side) => `${T(`tournament.side_${side}`)}: ${resultName(g.reports[side])}`);
    return h('span', {}, g.disputed ? h('span', { class: 'tag dispute-tag' }, T('tournament.disputed')) : '', g.disputed ? ' ' : '', parts.join(' · '));
  }

  const accountOf = (p) => data?.entrants.find((e) => e.id === p.id)?.account !== false;

  function renderStandings(t) {
    if (!t.standings.length) {
      fill(standings, h('h2', {}, T('tournament.standings')), h('p', { class: 'empty' }, T('tournament.no_standings')));
      return;
    }
    const roundCount = t.round_list.length;
    const tieBreaks = t.tie_breaks.filter((k) => k !== 'score' && k !== 'wins');
    const scoreLabel = t.system === 'mcmahon' ? 'MMS' : T('tournament.wins');
    fill(standings, h('h2', {}, T('tournament.standings')),
      h('div', { class: 'table-wrap' }, h('table', { class: 'standings-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, T('tournament.player')), h('th', { scope: 'col' }, T('tournament.rank')),
          ...Array.from({ length: roundCount }, (_, i) => h('th', { scope: 'col' }, `R${i + 1}`)),
          h('th', { scope: 'col' }, scoreLabel), ...tieBreaks.map((k) => h('th', { scope: 'col' }, TIE_BREAK_WORDS[k] ?? k)))),
        h('tbody', {}, ...t.standings.map((s) => h('tr', { class: s.withdrawn || s.eliminated ? 'out' : '' },
          h('td', {}, String(s.place)),
          h('td', {}, playerName(s.player), s.withdrawn ? h('span', { class: 'tag' }, T('tournament.withdrawn')) : ''),
          h('td', {}, s.rank),
          ...s.rounds.map((c) => h('td', { class: 'cross' }, crosstableCell(c))),
          h('td', {}, String(t.system === 'mcmahon' ? s.score : s.points)),
          ...tieBreaks.map((k) => h('td', {}, String(s[k])))))))),
      h('p', { class: 'muted' }, T('tournament.crosstable_key')));
  }

  function renderRounds(t) {
    if (!t.round_list.length) {
      fill(rounds, h('h2', {}, T('tournament.rounds')), h('p', { class: 'empty' }, T('tournament.no_rounds')));
      return;
    }
    fill(rounds, h('h2', {}, T('tournament.rounds')), ...[...t.round_list].reverse().map((r) => h('div', { class: 'round', dataset: { round: r.round } },
      h('h3', {}, T('tournament.round_n', { n: r.round }), h('span', { class: 'muted' }, r.started ? ''
        : ` · ${t.settings.over_the_board ? T('tournament.not_published') : T('tournament.starts', { when: formatDate(r.starts_at_ms) })}`)),
      h('div', { class: 'table-wrap' }, h('table', {},
        h('thead', {}, h('tr', {}, ...[t.settings.over_the_board ? 'table' : 'board', 'black', 'white', 'handicap', 'result', ''].map((x) => h('th', { scope: 'col' }, x ? T(`tournament.rcol_${x}`) : '')))),
        h('tbody', {}, ...r.games.map((g) => h('tr', {},
          h('td', {}, String(g.board)), h('td', {}, g.black.name), h('td', {}, g.white.name),
          h('td', {}, g.handicap ? (g.handicap === 1 ? T('tournament.no_komi') : T('scoring.stones', { n: g.handicap })) : T('tournament.even')),
          h('td', {}, g.result ? resultName(g.result) + (g.forfeit ? ` (${T('tournament.forfeit')})` : '') : (r.started ? T(t.settings.over_the_board && !g.game ? (g.disputed ? 'tournament.disputed' : 'tournament.awaiting') : 'games.playing') : '')),
          // A finished game is replayed, not watched.
          h('td', {}, g.game ? h('a', { href: `#/game/${g.game}` }, T(g.result ? 'tournament.replay' : 'tournament.watch')) : '')))))),
      r.byes.length ? h('p', { class: 'muted' }, T('tournament.byes', { names: r.byes.map((b) => b.name).join(', ') })) : '',
      notPlaying(t, r.round))));
  }

  const stopListening = onTournamentChange(ctx, id, load);
  load();
  return () => {
    stopped = true;
    stopListening();
    return data;
  };
}

// An audit line's detail; over the board a board is a table.
function auditDetail(a, onBoards) {
  const r = a.record;
  const where = () => T(onBoards ? 'tournament.round_table' : 'tournament.round_board', { round: r.round, board: r.board });
  if (a.kind === 'registered' || a.kind === 'unregistered' || a.kind === 'withdrawn') return `: ${r.user.name}`;
  if (a.kind === 'edited') return `: ${r.user.name}${r.name && r.name !== r.user.name ? ` → ${r.name}` : ''}`;
  if (a.kind === 'absence') return `: ${T(r.absent ? 'tournament.audit_absent' : 'tournament.audit_present', { name: r.user.name, round: r.round })}`;
  if (a.kind === 'paired' || a.kind === 'round_started') return `: ${T('tournament.round_n', { n: r.round })}`;
  if (a.kind === 'result') return `: ${where()}, ${resultName(r.outcome)}${r.forfeit ? ` (${T('tournament.forfeit')})` : ''}${r.confirmed ? `, ${T('tournament.confirmed')}` : ''}`;
  if (a.kind === 'reported') return `: ${where()}, ${T('tournament.audit_says', { side: T(`tournament.side_${r.side}`), result: resultName(r.outcome) })}`;
  return '';
}

// The players registered but not playing round `round` (marked so by the director).
function notPlaying(t, round, cls = 'muted') {
  const names = t.entrants.filter((e) => !e.withdrawn && e.absent?.includes(round)).map((e) => e.name);
  return names.length ? h('p', { class: cls }, T('tournament.not_playing', { names: names.join(', ') })) : '';
}

// ---- printed pages (docs/tournaments.md, "Printed pages") ----

export const PRINTS = ['pairings', 'standings', 'slips'];

// A tournament's page for paper: the pairings of a round by table with a list to find one's
// table, the standings with the crosstable, or a result slip per table to cut out. On screen a
// bar above it prints it or goes back; printed (A4, web/style.css "@media print"), the page alone.
export function mountTournamentPrint(root, ctx, id, kind, roundWanted) {
  const bar = h('nav', { class: 'print-bar no-print' });
  const sheet = h('article', { class: 'print-sheet' });
  fill(root, h('div', { class: 'print-page' }, bar, sheet));
  let stopped = false;
  (async () => {
    try {
      const t = await fetchJson(`/api/v1/tournaments/${id}`);
      if (stopped) return;
      const published = t.round_list.filter((r) => r.started || !t.settings.over_the_board);
      const round = t.round_list.find((r) => r.round === roundWanted) ?? published[published.length - 1] ?? t.round_list[t.round_list.length - 1];
      document.title = `${t.name} · ${T(`tournament.print_${kind}`)} · Tengen`;
      fill(bar, h('a', { href: `#/tournament/${id}` }, `← ${t.name}`),
        ...PRINTS.map((k) => (k === kind ? h('strong', {}, T(`tournament.print_${k}`)) : h('a', { href: `#/tournament/${id}/print/${k}${round ? `/${round.round}` : ''}` }, T(`tournament.print_${k}`)))),
        h('button', { class: 'primary', onclick: () => window.print() }, T('tournament.print')));
      const place = [t.settings.city, t.settings.country].filter(Boolean).join(', ');
      const heading = (what) => h('header', { class: 'print-head' }, h('h1', {}, t.name),
        h('p', {}, [what, place, formatDate(Date.now())].filter(Boolean).join(' · ')));
      if (kind === 'standings') fill(sheet, heading(T('tournament.print_after', { n: t.round_list.filter((r) => r.games.every((g) => g.result)).length })), printStandings(t));
      else if (!round) fill(sheet, heading(''), h('p', {}, T('tournament.no_rounds')));
      else if (kind === 'slips') fill(sheet, ...printSlips(t, round));
      else fill(sheet, heading(T('tournament.round_n', { n: round.round })), ...printPairings(t, round));
    } catch (err) {
      if (!stopped) fill(sheet, h('p', { class: 'form-error', role: 'alert' }, err.message));
    }
  })();
  return () => { stopped = true; };
}

const rankOf = (t, p) => t.entrants.find((e) => e.id === p.id)?.rank ?? '';
const handicapText = (n) => (n ? (n === 1 ? T('tournament.no_komi') : T('scoring.stones', { n })) : T('tournament.even'));

function printPairings(t, round) {
  const byTable = h('table', { class: 'print-table pairings' },
    h('thead', {}, h('tr', {}, ...['table', 'black', 'white', 'handicap', 'result'].map((x) => h('th', { scope: 'col' }, T(`tournament.rcol_${x}`))))),
    h('tbody', {}, ...round.games.map((g) => h('tr', {}, h('td', { class: 'num' }, String(g.board)),
      h('td', {}, `${g.black.name} `, h('span', { class: 'rank' }, rankOf(t, g.black))),
      h('td', {}, `${g.white.name} `, h('span', { class: 'rank' }, rankOf(t, g.white))),
      h('td', {}, handicapText(g.handicap)), h('td', { class: 'write-in' }, g.result ? resultName(g.result) : '')))));
  // Everyone alphabetically with their table and colour: how a player finds their board.
  const seats = [];
  for (const g of round.games) {
    seats.push([g.black.name, String(g.board), T('tournament.rcol_black')]);
    seats.push([g.white.name, String(g.board), T('tournament.rcol_white')]);
  }
  for (const b of round.byes) seats.push([b.name, '—', T('tournament.bye')]);
  seats.sort((a, b) => a[0].localeCompare(b[0]));
  return [byTable,
    round.byes.length ? h('p', {}, T('tournament.byes', { names: round.byes.map((b) => b.name).join(', ') })) : '',
    notPlaying(t, round.round, ''),
    h('section', { class: 'print-break' }, h('h2', {}, T('tournament.find_table')),
      h('table', { class: 'print-table seats' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, T('tournament.player')), h('th', { scope: 'col' }, T('tournament.rcol_table')), h('th', { scope: 'col' }, T('tournament.colour')))),
        h('tbody', {}, ...seats.map(([name, table, colour]) => h('tr', {}, h('td', {}, name), h('td', { class: 'num' }, table), h('td', {}, colour))))))];
}

function printStandings(t) {
  const tieBreaks = t.tie_breaks.filter((k) => k !== 'score' && k !== 'wins');
  const club = (p) => { const e = t.entrants.find((x) => x.id === p.id); return [e?.club, e?.country].filter(Boolean).join(' '); };
  return h('table', { class: 'print-table standings-print' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, T('tournament.player')), h('th', { scope: 'col' }, T('tournament.rank')),
      h('th', { scope: 'col' }, T('tournament.club')),
      ...t.round_list.map((r) => h('th', { scope: 'col' }, `R${r.round}`)),
      h('th', { scope: 'col' }, t.system === 'mcmahon' ? 'MMS' : T('tournament.wins')), ...tieBreaks.map((k) => h('th', { scope: 'col' }, TIE_BREAK_WORDS[k] ?? k)))),
    h('tbody', {}, ...t.standings.map((s) => h('tr', { class: s.withdrawn ? 'out' : '' }, h('td', { class: 'num' }, String(s.place)), h('td', {}, s.player.name),
      h('td', {}, s.rank), h('td', {}, club(s.player)), ...s.rounds.map((c) => h('td', { class: 'cross' }, crosstableCell(c))),
      h('td', { class: 'num' }, String(t.system === 'mcmahon' ? s.score : s.points)), ...tieBreaks.map((k) => h('td', { class: 'num' }, String(s[k])))))));
}

// One slip per table: who plays, the handicap, the result to tick and both players' initials.
function printSlips(t, round) {
  const box = (label) => h('span', { class: 'tick' }, h('span', { class: 'box', 'aria-hidden': 'true' }), ` ${label}`);
  return [h('div', { class: 'slips' }, ...round.games.map((g) => h('section', { class: 'slip' },
    h('p', { class: 'slip-head' }, h('strong', {}, `${T('tournament.rcol_table')} ${g.board} · ${T('tournament.round_n', { n: round.round })}`), h('br'), h('span', { class: 'slip-event' }, t.name)),
    h('dl', {}, h('dt', {}, T('tournament.rcol_black')), h('dd', {}, `${g.black.name} (${rankOf(t, g.black)})`),
      h('dt', {}, T('tournament.rcol_white')), h('dd', {}, `${g.white.name} (${rankOf(t, g.white)})`),
      h('dt', {}, T('tournament.rcol_handicap')), h('dd', {}, handicapText(g.handicap))),
    h('p', { class: 'ticks' }, box(resultName('black')), box(resultName('white')), box(resultName('jigo'))),
    h('p', { class: 'signatures' }, h('span', {}, T('tournament.initials_black')), h('span', {}, T('tournament.initials_white'))))))];
}
