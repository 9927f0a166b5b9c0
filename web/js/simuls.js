// Simuls (docs/events.md, "Simuls"): the list with a form to announce one, and a simul's page —
// before the start its players and the stones each will get, Join and Leave, the host's Start and
// Cancel; once started, for the host every board in a strip of small live boards above the board
// they play, with "Next board" going to the next one waiting for their move, and for everyone
// else all the boards at once, small and live; the results table under them.
import { h, fill, field, selectInput, keepFocus, describeSettings, describeResult, acting } from './util.js';
import { fetchJson } from './api.js';
import { t, formatDateTime } from './i18n.js';
import { timeNames, rulesetOptions, timeInputs, timeOf } from './lobby.js';
import { BoardView } from './board.js';
import { Command, Enum, Message } from './wire.js';
import { fromSnapshot, reduce } from './game_state.js';
import { mountEventList } from './event_list.js';

const POLL_MS = 5000;  // the page read again while players join (the server tells no simul event)
const when = (ms) => formatDateTime(ms, { dateStyle: 'medium', timeStyle: 'short' });

function handicapWords(settings) {
  if (settings.handicap === 'automatic') return t('simul.handicap_rank');
  return settings.handicap ? t('simul.handicap_stones', { n: settings.handicap }) : t('simul.handicap_even');
}

function stateTag(state) {
  return h('span', { class: `tag simul-state ${state}` }, t(`simul.state_${state}`));
}

// ---- the list ----

export function mountSimulList(root, ctx) {
  return mountEventList(root, ctx, {
    words: { title: t('simul.simuls'), about: t('simul.about'), announce: t('simul.new'), logIn: t('simul.log_in_to_host'), none: t('simul.none') },
    form: () => simulForm(ctx),
    load: async () => (await fetchJson('/api/v1/simuls')).simuls,
    row: (s) => h('li', { class: 'simul-row', dataset: { simul: s.id, state: s.state } },
      h('a', { href: `#/simul/${s.id}` }, s.name), ' ', stateTag(s.state),
      h('span', { class: 'muted' }, ` ${t('simul.hosted_by', { host: s.host.name })} · ${
        s.state === 'open' ? t('simul.players_of', { n: s.players, boards: s.boards }) : t('simul.boards_over', { over: s.games_over, n: s.players })
      } · ${describeSettings(s.settings)} · ${handicapWords(s.settings)}`)),
  });
}

function simulForm(ctx) {
  const name = h('input', { id: 'sf-name', required: true, maxlength: 60, autocomplete: 'off', value: t('simul.default_name', { host: ctx.user.name }) });
  const size = selectInput('sf-size', 'size', { 19: '19×19', 13: '13×13', 9: '9×9' }, '19');
  const ruleset = selectInput('sf-ruleset', 'ruleset', rulesetOptions(), 'japanese');
  const clock = selectInput('sf-time', 'time', timeNames(), 'fischer');
  const timeFields = h('div', { class: 'field-row time-fields' });
  const stones = { 0: t('simul.handicap_even'), automatic: t('simul.handicap_rank') };
  for (let n = 2; n <= 9; n++) stones[n] = t('simul.handicap_stones', { n });
  const handicap = selectInput('sf-handicap', 'handicap', stones, 'automatic');
  const boards = h('input', { id: 'sf-boards', type: 'number', min: 2, max: 30, value: '10', required: true });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const inputs = {};
  const showTime = () => fill(timeFields, ...timeInputs(clock.value, inputs, 'sf'));
  clock.addEventListener('change', showTime);
  showTime();
  return h('form', {
    class: 'simul-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        const n = Number(size.value);
        const { id } = await fetchJson('/api/v1/simuls', { method: 'POST', body: {
          name: name.value.trim(), boards: Number(boards.value),
          settings: { width: n, height: n, ruleset: ruleset.value, time: timeOf(clock.value, inputs),
            handicap: handicap.value === 'automatic' ? 'automatic' : Number(handicap.value) },
        } });
        ctx.navigate(`#/simul/${id}`);
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  field(t('simul.name'), name),
  h('div', { class: 'field-row' }, field(t('form.board'), size), field(t('form.rules'), ruleset), field(t('form.clock'), clock)),
  timeFields,
  h('div', { class: 'field-row' }, field(t('simul.handicap'), handicap), field(t('simul.boards'), boards)),
  h('p', { class: 'muted' }, t('simul.form_note')),
  problem,
  h('button', { type: 'submit', class: 'primary' }, t('simul.create')));
}

// ---- live boards ----

// The simul's games as the server tells them, each joined as a spectator would (the host's are
// joined as the player they are): a snapshot, then the room's events (game_state.js). `changed`
// is called with the game's id after each.
class LiveBoards {
  constructor(conn, viewer, changed) {
    this.conn = conn;
    this.viewer = viewer;
    this.changed = changed;
    this.states = new Map();  // game id -> state, or null until its snapshot
    this.onMessage = (e) => this.message(e.detail);
    this.onOpen = () => { for (const game of this.states.keys()) this.join(game); };
    conn.addEventListener('message', this.onMessage);
    conn.addEventListener('open', this.onOpen);
  }

  watch(games) {
    for (const game of games) {
      if (this.states.has(game)) continue;
      this.states.set(game, null);
      this.join(game);
    }
  }

  // Joined again for a fresh snapshot (after the game's own page, which leaves when it goes).
  join(game) {
    if (this.conn.isOpen) this.conn.command(Command.join, { game }, { resend: false }).catch(() => {});
  }

  message(m) {
    if (!this.states.has(m.game)) return;
    const st = this.states.get(m.game);
    if (m.type === Message.snapshot) {
      this.states.set(m.game, fromSnapshot(m, { now: performance.now() }));
    } else if (st && m.seq !== undefined && m.seq > st.seq) {
      const { st: next, effects } = reduce(st, m, { now: performance.now(), viewer: this.viewer });
      this.states.set(m.game, next);
      if (effects.includes('snapshot')) this.join(m.game);
    } else {
      return;
    }
    this.changed(m.game, m);
  }

  stop() {
    this.conn.removeEventListener('message', this.onMessage);
    this.conn.removeEventListener('open', this.onOpen);
    if (this.conn.isOpen) for (const game of this.states.keys()) this.conn.command(Command.leave, { game }, { resend: false }).catch(() => {});
  }
}

// Whether the board waits for the host (White on every board): their move, or a count they have
// not accepted.
function waitsForHost(st) {
  if (!st) return false;
  if (st.phase === Enum.Phase.playing) return st.toMove === Enum.Color.white;
  if (st.phase === Enum.Phase.scoring) return st.marking && st.marking.accepted?.white !== st.marking.version;
  return false;
}

function miniBoard(st, label) {
  const view = new BoardView(st.settings.width, st.settings.height, { onPoint: () => {}, ghost: () => null, label });
  const last = st.lastMove && st.lastMove.vertex !== 'pass' ? st.position.index(st.lastMove.vertex) : null;
  view.render({ position: st.position.points, last });
  // A picture beside the tile's words, which say the same for a screen reader.
  view.el.setAttribute('aria-hidden', 'true');
  return view.el;
}

// ---- a simul's page ----

export function mountSimul(root, ctx, id) {
  const head = h('section', { class: 'card simul-head' }, h('h1', {}, t('simul.simul')));
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const boardsEl = h('section', { class: 'simul-boards', 'aria-label': t('simul.boards_label') });
  const playArea = h('div', { class: 'simul-play' });
  const results = h('section', { class: 'card simul-results' });
  fill(root, h('div', { class: 'simul-page' }, head, problem, boardsEl, playArea, results));
  let page = null;
  let stopped = false;
  let live = null;
  let current = null;        // the host's board shown under the strip: its game id
  let unmountGame = () => {};
  let gameModule = null;
  const hostHere = () => page && ctx.user?.id === page.simul.host.id;
  const post = (rest) => fetchJson(`/api/v1/simuls/${id}${rest}`, { method: 'POST', body: {} });
  const act = acting(problem, () => load());

  async function load() {
    try {
      const loaded = await fetchJson(`/api/v1/simuls/${id}`);
      if (stopped) return;
      page = loaded;
      document.title = `${page.simul.name} · Tengen`;
      // The host plays from here: their games' starts do not take them to a game page.
      ctx.holdGameStarts = hostHere();
      draw();
    } catch (err) {
      if (!stopped) problem.textContent = err.message;
    }
  }

  const games = () => page.boards.filter((b) => b.game);
  const boardOf = (game) => page.boards.find((b) => b.game === game);

  function draw() {
    const s = page.simul;
    const me = ctx.user?.id;
    const mine = page.boards.find((b) => b.player.id === me);
    const buttons = [];
    if (s.state === 'open' && ctx.user && !hostHere()) {
      buttons.push(mine
        ? h('button', { onclick: act(() => post('/leave')) }, t('simul.leave'))
        : h('button', { class: 'primary', onclick: act(() => post('/join')) }, t('simul.join')));
    }
    if (s.state === 'open' && hostHere()) {
      buttons.push(h('button', { class: 'primary', disabled: page.boards.length < 2, onclick: act(() => post('/start')) },
        t('simul.start', { n: page.boards.length })));
      buttons.push(h('button', { class: 'danger-quiet', onclick: () => confirm(t('simul.cancel_confirm')) && act(() => post('/cancel'))() }, t('simul.cancel')));
    }
    fill(head,
      h('h1', {}, s.name, ' ', stateTag(s.state)),
      h('p', {}, t('simul.hosted_by', { host: '' }), h('a', { href: `#/user/${encodeURIComponent(s.host.name)}` }, s.host.name),
        h('span', { class: 'muted' }, ` · ${describeSettings(s.settings)} · ${handicapWords(s.settings)}`)),
      s.state === 'open' ? h('p', { class: 'muted' }, t('simul.players_of', { n: page.boards.length, boards: s.boards }),
        hostHere() && page.boards.length < 2 ? ` · ${t('simul.start_needs')}` : '') : '',
      mine?.game ? h('p', {}, h('a', { class: 'button primary', href: `#/game/${mine.game}` }, t('simul.your_game'))) : '',
      mine && s.state === 'open' ? h('p', { class: 'simul-joined', role: 'status' }, t('simul.you_joined')) : '',
      buttons.length ? h('div', { class: 'buttons' }, ...buttons) : '');
    drawResults();
    if (s.state === 'open' || s.state === 'cancelled') {
      fill(boardsEl);
      return;
    }
    if (!live) live = new LiveBoards(ctx.conn, ctx.user?.id ?? null, changed);
    live.watch(games().map((b) => b.game));
    drawBoards();
    if (hostHere() && s.state === 'playing' && current === null) show(firstWaiting(null) ?? games()[0]?.game ?? null);
  }

  function drawResults() {
    const s = page.simul;
    const rows = page.boards.map((b, i) => {
      const result = b.result ? describeResult(b.result) : b.game ? t('simul.in_play') : '';
      return h('tr', { class: b.player.id === ctx.user?.id ? 'me' : '', dataset: { player: b.player.id } },
        h('td', {}, String(i + 1)),
        h('td', {}, h('a', { href: `#/user/${encodeURIComponent(b.player.name)}` }, b.player.name), h('span', { class: 'muted' }, ` ${b.rank}`)),
        h('td', {}, b.handicap ? t('simul.handicap_stones', { n: b.handicap }) : t('simul.handicap_even')),
        s.state === 'open' ? '' : h('td', {}, b.game ? h('a', { href: `#/game/${b.game}` }, result) : result));
    });
    const hostWon = page.boards.filter((b) => b.result?.startsWith('W+')).length;
    const hostLost = page.boards.filter((b) => b.result?.startsWith('B+')).length;
    keepFocus(results, () => fill(results,
      h('h2', {}, s.state === 'open' ? t('simul.players') : t('simul.results')),
      s.state !== 'open' && s.games_over ? h('p', { class: 'simul-score' }, t('simul.score', { host: s.host.name, won: hostWon, lost: hostLost, playing: page.boards.length - s.games_over })) : '',
      page.boards.length ? h('table', { class: 'simul-table' },
        h('thead', {}, h('tr', {}, ...['board', 'player', 'handicap', ...(s.state === 'open' ? [] : ['result'])].map((k) => h('th', { scope: 'col' }, t(`simul.col_${k}`))))),
        h('tbody', {}, ...rows))
        : h('p', { class: 'empty muted' }, t('simul.nobody'))));
  }

  function tile(b, i) {
    const st = live.states.get(b.game);
    const waiting = waitsForHost(st);
    const label = t('simul.board_n', { n: i + 1, player: b.player.name });
    const picture = st ? miniBoard(st, label) : h('div', { class: 'mini-empty' });
    const status = b.result ? describeResult(b.result)
      : !st ? '' : hostHere() ? (waiting ? t('simul.your_move') : t('simul.their_move')) : waiting ? t('simul.host_to_move', { host: page.simul.host.name }) : t('simul.player_to_move', { player: b.player.name });
    const words = [h('strong', {}, `${i + 1}. ${b.player.name}`), h('span', { class: 'muted' }, b.handicap ? ` · ${t('simul.handicap_stones', { n: b.handicap })}` : ''), h('br'), h('span', { class: 'simul-status' }, status)];
    const cls = `simul-tile${waiting && hostHere() && !b.result ? ' waiting' : ''}${b.game === current ? ' current' : ''}${b.result ? ' over' : ''}`;
    if (hostHere()) {
      return h('button', { type: 'button', class: cls, dataset: { game: b.game }, 'aria-pressed': String(b.game === current), onclick: () => show(b.game) }, picture, h('span', { class: 'simul-words' }, ...words));
    }
    return h('a', { class: cls, href: `#/game/${b.game}`, dataset: { game: b.game } }, picture, h('span', { class: 'simul-words' }, ...words));
  }

  function drawBoards() {
    const boards = page.boards.map((b, i) => [b, i]).filter(([b]) => b.game);
    const strip = h('div', { class: hostHere() ? 'simul-strip' : 'simul-grid' }, ...boards.map(([b, i]) => tile(b, i)));
    if (!hostHere()) {
      fill(boardsEl, strip);
      return;
    }
    const waitingCount = boards.filter(([b]) => !b.result && waitsForHost(live.states.get(b.game))).length;
    const over = page.simul.state === 'finished';
    fill(boardsEl,
      h('div', { class: 'simul-switcher' },
        over ? '' : h('button', { type: 'button', class: 'primary simul-next', disabled: !waitingCount || (waitingCount === 1 && waitsForHost(live.states.get(current))), onclick: next }, t('simul.next_board')),
        h('span', { class: 'muted', role: 'status' }, over ? t('simul.all_over') : t('simul.waiting', { n: waitingCount }))),
      strip);
  }

  // The first board after `from` (in board order, round again) that waits for the host.
  function firstWaiting(from) {
    const list = games();
    const start = Math.max(0, list.findIndex((b) => b.game === from) + 1);
    for (let k = 0; k < list.length; k++) {
      const b = list[(start + k) % list.length];
      if (b.game !== from && !b.result && waitsForHost(live?.states.get(b.game))) return b.game;
    }
    return null;
  }

  function next() {
    const game = firstWaiting(current);
    if (game !== null) show(game);
  }

  // The host's board under the strip: the game page itself, in place.
  async function show(game) {
    if (game === current) return;
    const before = current;
    current = game;
    unmountGame();
    unmountGame = () => {};
    if (before !== null) live.join(before);  // the game page left its room: watched again here
    drawBoards();
    if (game === null) {
      fill(playArea);
      return;
    }
    gameModule ??= await import('./game.js');
    if (stopped || current !== game) return;
    const holder = h('div', { class: 'simul-game', dataset: { game } });
    fill(playArea, holder);
    unmountGame = gameModule.mountGame(holder, ctx, game);
  }

  function changed(game, m) {
    if (stopped || !page) return;
    // A game over: its result into the table (and "finished" with the last).
    if (m.type === Message.game_ended) {
      load();
      return;
    }
    drawBoards();
  }

  const timer = setInterval(() => { if (!document.hidden && page?.simul.state === 'open') load(); }, POLL_MS);
  ctx.conn.addEventListener('open', load);
  load();
  return () => {
    stopped = true;
    ctx.holdGameStarts = false;
    clearInterval(timer);
    ctx.conn.removeEventListener('open', load);
    unmountGame();
    live?.stop();
  };
}
