// Relays of games played over the board (docs/events.md, "Relays"): the list with a form to
// announce one, and a relay's page — the game as its director enters it (a board nobody else
// changes, at its latest position), the director's move entry, the
// spectators' analysis some moves behind, and beside it the commentary room, an ordinary review
// board (review_room.js) that follows the game's line as it grows.
import { h, fill, field, selectInput, keepFocus, describeResult, acting, parseVertex, rulesetName } from './util.js';
import { fetchJson } from './api.js';
import { t } from './i18n.js';
import { rulesetOptions } from './lobby.js';
import { mountEventList } from './event_list.js';
import { BoardView } from './board.js';
import { mountReviewRoom, pointsOf } from './review_room.js';
import { Command, Enum, Message } from './wire.js';
import { fromSnapshot, reduce } from './review_state.js';

const ANALYSIS_POLL_MS = 10000;  // the analysis read again while the engine works on it

function stateTag(state) {
  return h('span', { class: `tag simul-state relay-state ${state}` }, t(`relay.state_${state}`));
}

const player = (name, rank) => (rank ? `${name} (${rank})` : name);
export const relayTitle = (r) => `${player(r.black, r.black_rank)} – ${player(r.white, r.white_rank)}`;
function relayWhere(r) {
  return [r.event, r.round ? t('relay.round', { n: r.round }) : '', r.table ? t('relay.table', { n: r.table }) : ''].filter(Boolean).join(' · ');
}

// ---- the list ----

export function mountRelayList(root, ctx) {
  return mountEventList(root, ctx, {
    words: { title: t('relay.title'), about: t('relay.about'), announce: t('relay.new'), logIn: t('relay.log_in'), none: t('relay.none') },
    form: () => relayForm(ctx),
    // Live relays are shown as games being played.
    load: async () => (await fetchJson('/api/v1/relays')).relays.map((r) => ({ ...r, state: r.state === 'live' ? 'playing' : r.state, relay: r.state })),
    row: (r) => h('li', { class: 'simul-row relay-row', dataset: { relay: r.id, state: r.relay } },
      h('a', { href: `#/relay/${r.id}` }, relayTitle(r)), ' ', stateTag(r.relay),
      h('span', { class: 'muted' }, ` ${relayWhere(r)} · ${r.result ? describeResult(r.result) : t('relay.moves', { n: r.moves })} · ${t('relay.by', { name: r.director.name })}`)),
  });
}

function relayForm(ctx) {
  const input = (id, attrs = {}) => h('input', { id, autocomplete: 'off', ...attrs });
  const event = input('rf-event', { required: true, maxlength: 100 });
  const round = input('rf-round', { type: 'number', min: 1, max: 99, inputmode: 'numeric' });
  const table = input('rf-table', { type: 'number', min: 1, max: 999, inputmode: 'numeric' });
  const black = input('rf-black', { required: true, maxlength: 60 });
  const blackRank = input('rf-black-rank', { maxlength: 10, placeholder: '7d', class: 'rank-input' });
  const white = input('rf-white', { required: true, maxlength: 60 });
  const whiteRank = input('rf-white-rank', { maxlength: 10, placeholder: '6d', class: 'rank-input' });
  const size = selectInput('rf-size', 'size', { 19: '19×19', 13: '13×13', 9: '9×9' }, '19');
  const ruleset = selectInput('rf-ruleset', 'ruleset', rulesetOptions(), 'japanese');
  const komi = input('rf-komi', { type: 'number', step: 0.5, value: 6.5, inputmode: 'decimal' });
  const stones = { 0: t('simul.handicap_even') };
  for (let n = 2; n <= 9; n++) stones[n] = t('simul.handicap_stones', { n });
  const handicap = selectInput('rf-handicap', 'handicap', stones, '0');
  const delays = { 0: t('relay.delay_none') };
  for (const n of [3, 5, 10, 20]) delays[n] = t('relay.delay_moves', { n });
  const delay = selectInput('rf-delay', 'delay', delays, '0');
  const problem = h('p', { class: 'form-error', role: 'alert' });
  return h('form', {
    class: 'simul-form relay-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      const body = {
        event: event.value.trim(), black: black.value.trim(), white: white.value.trim(),
        black_rank: blackRank.value.trim(), white_rank: whiteRank.value.trim(),
        size: Number(size.value), ruleset: ruleset.value, komi: Number(komi.value),
        handicap: Number(handicap.value), delay: Number(delay.value),
      };
      if (round.value) body.round = Number(round.value);
      if (table.value) body.table = Number(table.value);
      try {
        const { id } = await fetchJson('/api/v1/relays', { method: 'POST', body });
        ctx.navigate(`#/relay/${id}`);
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  field(t('relay.event'), event),
  h('div', { class: 'field-row' }, field(t('relay.round_label'), round), field(t('relay.table_label'), table)),
  h('div', { class: 'field-row' }, field(t('relay.black'), black), field(t('relay.black_rank'), blackRank)),
  h('div', { class: 'field-row' }, field(t('relay.white'), white), field(t('relay.white_rank'), whiteRank)),
  h('div', { class: 'field-row' }, field(t('relay.size'), size), field(t('form.rules'), ruleset), field(t('relay.komi'), komi)),
  h('div', { class: 'field-row' }, field(t('simul.handicap'), handicap), field(t('relay.delay'), delay)),
  h('p', { class: 'muted' }, t('relay.form_note')),
  problem,
  h('button', { type: 'submit', class: 'primary' }, t('relay.create')));
}

// ---- one relay's page ----

// The moves of the game's board: its one line from the root.
function lineOf(st) {
  const line = [];
  for (let n = st.nodes.get(0); n && n.children.length;) {
    n = st.nodes.get(n.children[0]);
    if (n) line.push(n);
  }
  return line;
}

export function mountRelay(root, ctx, id) {
  const conn = ctx.conn;
  const head = h('section', { class: 'card simul-head relay-head' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const boardHolder = h('div', { class: 'board-holder relay-board' });
  const status = h('p', { class: 'status relay-status', role: 'status', 'aria-live': 'polite' });
  const entry = h('div', { class: 'relay-entry' });
  const analysisEl = h('div', { class: 'relay-analysis', 'aria-live': 'polite' });
  const confirmBar = h('div', { class: 'confirm-bar', hidden: true });
  const gameCard = h('section', { class: 'card relay-game', 'aria-label': t('relay.game') },
    h('h2', {}, t('relay.game')), boardHolder, confirmBar, status, entry, analysisEl);
  const commentaryRoom = h('div');
  const commentary = h('section', { class: 'relay-commentary', 'aria-labelledby': 'relay-commentary-title' },
    h('h2', { id: 'relay-commentary-title' }, t('relay.commentary')), h('p', { class: 'muted' }, t('relay.commentary_note')), commentaryRoom);
  fill(root, h('div', { class: 'relay-page' }, head, problem, h('div', { class: 'relay-columns' }, gameCard, commentary)));

  let relay = null;
  let st = null;  // the game's board (review_state.js)
  let board = null;
  let stopped = false;
  let unmountCommentary = null;
  let analysis = null;
  let analysisTimer = null;
  let pending = null;  // a point tapped once on a touch screen, waiting for its confirmation
  const post = (rest, body = {}) => fetchJson(`/api/v1/relays/${id}${rest}`, { method: 'POST', body });
  const act = acting(problem, () => load());
  const director = () => !!relay && ctx.user?.id === relay.director.id;
  const live = () => relay?.state === 'live';

  async function load() {
    try {
      const loaded = await fetchJson(`/api/v1/relays/${id}`);
      if (stopped) return;
      const first = !relay;
      relay = loaded;
      document.title = `${relayTitle(relay)} · Tengen`;
      if (first) {
        join();
        unmountCommentary = mountReviewRoom(commentaryRoom, ctx, relay.commentary, { gameLine: () => (st ? lineOf(st) : []) });
      }
      drawHead();
      drawEntry();
      readAnalysis();
    } catch (err) {
      if (!stopped) problem.textContent = err.message;
    }
  }

  function drawHead() {
    const r = relay;
    const buttons = [];
    if (director() || (ctx.user?.is_admin && r.state !== 'closed')) {
      buttons.push(h('button', { class: 'danger-quiet', onclick: () => confirm(t('relay.close_confirm')) && act(() => post('/close'))() }, t('relay.close')));
    }
    keepFocus(head, () => fill(head,
      h('h1', {}, relayTitle(r), ' ', stateTag(r.state)),
      h('p', {}, relayWhere(r)),
      h('p', { class: 'muted' }, [`${r.size}×${r.size}`, t('settings.komi', { komi: r.komi }), rulesetName(r.ruleset),
        r.handicap ? t('simul.handicap_stones', { n: r.handicap }) : '', t('relay.by', { name: r.director.name })].filter(Boolean).join(' · ')),
      r.result ? h('p', { class: 'pair-result relay-result' }, describeResult(r.result)) : '',
      h('p', {}, h('a', { href: `/api/v1/relays/${id}.sgf`, download: `tengen-relay-${id}.sgf`, class: 'sgf' }, t('game.download_sgf'))),
      buttons.length ? h('div', { class: 'buttons' }, ...buttons) : ''));
  }

  // The director's move entry: a click on the board, or the point typed (as on a score sheet).
  function drawEntry() {
    if (!director() || !live()) { fill(entry); return; }
    const move = h('input', { id: 'relay-move', autocomplete: 'off', maxlength: 4, placeholder: 'Q16', class: 'relay-move-input', 'aria-describedby': 'relay-entry-hint' });
    const result = h('input', { id: 'relay-result', autocomplete: 'off', maxlength: 12, placeholder: 'B+R', class: 'relay-result-input' });
    keepFocus(entry, () => fill(entry,
      h('p', { class: 'muted', id: 'relay-entry-hint' }, t('relay.entry_hint')),
      h('form', {
        class: 'relay-move-form', onsubmit: (e) => {
          e.preventDefault();
          const typed = move.value.trim();
          // Emptied once entered, unless the director has typed the next move meanwhile.
          if (typed) enter(typed).then((ok) => { if (ok && move.value.trim() === typed) move.value = ''; });
        },
      },
        field(t('relay.move_label'), move),
        h('button', { type: 'submit', class: 'primary' }, t('relay.enter')),
        h('button', { type: 'button', onclick: () => enter('pass') }, t('game.pass')),
        h('button', { type: 'button', onclick: act(() => inTurn(() => post('/takeback'))) }, t('relay.take_back'))),
      h('form', { class: 'relay-result-form', onsubmit: (e) => { e.preventDefault(); act(() => post('/result', { result: result.value.trim() }))(); } },
        field(t('relay.result_label'), result),
        h('button', { type: 'submit' }, t('relay.finish')))));
  }

  // A finger covers the point it taps: on a touch screen the first tap shows the stone, a second
  // tap (or the button) enters it, as on the game page; a mouse's click enters it at once.
  function tapped(vertex, event) {
    if (!director() || !live()) return;
    if (event?.pointerType === 'touch' && pending !== vertex) {
      pending = vertex;
      board.setPending(vertex, st.position.to_move === 'white' ? 'w' : 'b');
      fill(confirmBar,
        h('button', { type: 'button', class: 'primary', onclick: () => enter(vertex) }, t('relay.enter_vertex', { vertex })),
        h('button', { type: 'button', onclick: clearPending }, t('common.cancel')),
        h('span', { class: 'muted' }, t('game.tap_again')));
      confirmBar.hidden = false;
      return;
    }
    enter(vertex);
  }

  function clearPending() {
    pending = null;
    confirmBar.hidden = true;
    board?.setPending(null);
  }

  // The director's moves and take-backs go one after another, each once the last is answered, in
  // the order they were made (two requests in flight could reach the server the other way round).
  // The page sends no move number: the server appends the next, and a point clicked or typed twice
  // is refused as occupied.
  let queue = Promise.resolve();
  function inTurn(work) {
    const done = queue.then(work);
    queue = done.catch(() => {});
    return done;
  }

  function enter(vertex) {
    pending = null;
    confirmBar.hidden = true;
    problem.textContent = '';
    const point = st && vertex !== 'pass' ? parseVertex(vertex.toUpperCase(), st.width, st.height) : null;
    if (point) board?.setPending(vertex.toUpperCase(), st.position.to_move === 'white' ? 'w' : 'b');
    return inTurn(() => post('/moves', { move: vertex })).then(() => true, (err) => {
      board?.setPending(null);
      problem.textContent = err.message;
      return false;
    });
  }

  // ---- the game's board, followed over the WebSocket ----

  function join() {
    conn.command(Command.review_join, { review: relay.board }, { resend: false }).catch((err) => {
      fill(boardHolder, h('p', { class: 'empty' }, err.message));
    });
  }

  function drawBoard() {
    if (!st) return;
    if (!board || board.width !== st.width || board.height !== st.height) {
      board = new BoardView(st.width, st.height, {
        onPoint: tapped,
        ghost: () => (director() && live() ? (st.position.to_move === 'black' ? 'b' : 'w') : null),
        label: t('relay.board_label', { width: st.width, height: st.height }),
      });
      fill(boardHolder, board.el);
      boardHolder.style.setProperty('--ratio', String(board.aspect));
    }
    if (!pending) board.setPending(null);
    const line = lineOf(st);
    const last = line[line.length - 1];
    const p = last && last.vertex !== 'pass' ? parseVertex(last.vertex, st.width, st.height) : null;
    board.render({ position: pointsOf(st.position), last: p ? p.y * st.width + p.x : null });
    board.el.classList.toggle('my-turn', director() && live());
    const toMove = t(`common.${st.position.to_move}`);
    status.textContent = [
      last ? t('relay.last_move', { n: line.length, color: t(`common.${last.color}`), vertex: last.vertex === 'pass' ? t('game.pass') : last.vertex }) : t('relay.no_moves'),
      live() ? t('relay.to_move', { color: toMove }) : relay?.result ? describeResult(relay.result) : '',
    ].filter(Boolean).join(' · ');
  }

  function onMessage(e) {
    const m = e.detail;
    if (!relay || m.review !== relay.board) return;
    if (m.type === Message.review_snapshot) {
      st = fromSnapshot(m);
      drawBoard();
      readAnalysis();
      return;
    }
    if (!st || (m.type !== Message.review_update && m.type !== Message.review_followers)) return;
    const { st: next, gap } = reduce(st, m);
    if (gap) { join(); return; }
    st = next;
    if (m.type === Message.review_update && m.change === Enum.ReviewChange.closed) load();  // the result is in
    drawBoard();
    commentaryRoom.dispatchEvent(new Event('game-line'));
    if (m.type === Message.review_update) readAnalysis();
  }

  // ---- the spectators' analysis, some moves behind ----

  async function readAnalysis() {
    if (!relay || !relay.delay) { fill(analysisEl); return; }
    clearTimeout(analysisTimer);
    try {
      analysis = await fetchJson(`/api/v1/relays/${id}/analysis`);
    } catch (err) {
      analysis = { state: 'error', message: err.message };
    }
    if (stopped) return;
    drawAnalysis();
    if (analysis.state === 'queued' || analysis.state === 'running') analysisTimer = setTimeout(readAnalysis, ANALYSIS_POLL_MS);
  }

  function drawAnalysis() {
    const a = analysis;
    const title = h('h3', {}, t('relay.analysis_title', { n: relay.delay }));
    let body;
    if (a.state === 'error') body = h('p', { class: 'muted' }, a.message);
    else if (a.state === 'waiting') body = h('p', { class: 'muted' }, t('relay.analysis_waiting', { n: relay.delay + 1 }));
    else if (a.state !== 'done' || !a.analysis?.position) body = h('p', { class: 'muted' }, t('relay.analysis_pending', { n: a.move }));
    else {
      const p = a.analysis.position;
      const parts = [];
      if (p.winrate !== undefined && p.winrate !== null) parts.push(t('relay.winrate', { n: Math.round(p.winrate * 100) }));
      if (p.score !== undefined && p.score !== null) parts.push(p.score >= 0 ? `B+${p.score.toFixed(1)}` : `W+${(-p.score).toFixed(1)}`);
      if (p.line?.length) parts.push(t('relay.best', { vertex: p.line[0] }));
      body = h('p', { class: 'relay-analysis-line' }, h('strong', {}, t('relay.after_move', { n: a.move })), ' ', parts.join(' · '),
        a.analysis.engine ? h('span', { class: 'muted' }, ` · ${a.analysis.engine}`) : '');
    }
    fill(analysisEl, title, body);
  }

  const onOpen = () => { if (relay) join(); };
  conn.addEventListener('message', onMessage);
  conn.addEventListener('open', onOpen);
  load();
  return () => {
    stopped = true;
    clearTimeout(analysisTimer);
    unmountCommentary?.();
    conn.removeEventListener('message', onMessage);
    conn.removeEventListener('open', onOpen);
    if (relay && conn.isOpen) conn.command(Command.review_leave, { review: relay.board }, { resend: false }).catch(() => {});
  };
}
