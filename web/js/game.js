// The game view: board, players and clocks, the nigiri, play controls, the scoring phase, the
// result, chat. Its state is the server's: a snapshot, then the room's events in order; after a
// reconnection it asks for the events since the last one it saw.
import { analysisPanel } from './analysis.js';
import { h, fill, describeSettings, describeResult, resultParts, endReason, komiOf, randomHex, parseVertex, formatDays, countTerms } from './util.js';
import { t, tn, num, formatTime } from './i18n.js';
import { openReport } from './report.js';
import { BoardView } from './board.js';
import { Position } from './position.js';
import { runDown, clockText, isLow } from './clock.js';
import { verifyNigiri } from './nigiri.js';
import { fetchJson } from './api.js';
import { soundOn, setSound, playStoneSound, playTurnSound } from './sound.js';
import { showTurn, notify, notificationsOn, notificationsSupported, setNotifications } from './attention.js';
import { rankTag, refreshRanks, isBot, ranksEvents } from './ranks.js';
import { Review } from './review.js';
import { openReview } from './review_room.js';
import { conditionalPanel } from './conditional.js';
import { blindOn } from './blind.js';
import { BlindConsole } from './blind_game.js';
import { Command, Enum, Message } from './wire.js';
import { fromSnapshot, reduce, freePlacementPending as placementPending, short, other, teamOf, memberToMove, sideName } from './game_state.js';

const colorName = (c) => t(`common.${c}`);
const CONFIRM_KEY = 'tengen-confirm-touch';
// Touch play asks for a second tap (or the Play button): on by default where the pointer is a
// finger, and the player's choice once they made one.
const confirmTouch = () => (localStorage.getItem(CONFIRM_KEY) ?? (matchMedia('(pointer: coarse)').matches ? 'on' : 'off')) === 'on';

export function mountGame(root, ctx, gameId) {
  const conn = ctx.conn;
  let st = null;             // the room as last reported; null until the first snapshot
  let board = null;
  let resuming = false;      // a `join` with `since` is in flight
  let clockWasReplayed = false;
  let turnSeenAt = null;     // when it became my move, for think_ms
  let confirmingResign = false;
  let destroyed = false;
  let proof = null;          // the nigiri check's outcome
  let pending = null;        // a stone tapped once on a touch screen, waiting for its confirmation
  let hintTimer = null;
  let blindGreeted = false;  // blind mode said what the game is, once

  // ---- layout (built once; render() updates it) ----
  const title = h('h1', { class: 'game-title' }, t('title.game', { id: String(gameId) }));
  const subtitle = h('p', { class: 'game-settings' });
  const watchingNote = h('p', { class: 'watching muted', 'aria-live': 'polite' });
  // A tournament's game says so, with a way to its standings.
  const tournamentLine = h('p', { class: 'tournament-line', hidden: true });
  const sgfLink = h('a', { href: `/api/v1/games/${gameId}.sgf`, download: `tengen-${gameId}.sgf`, class: 'sgf' }, t('game.download_sgf'));
  const soundBox = h('input', { type: 'checkbox', checked: soundOn(), onchange: (e) => setSound(e.target.checked) });
  const soundToggle = h('label', { class: 'check sound' }, soundBox, ` ${t('game.sounds')}`);
  const notifyBox = h('input', {
    type: 'checkbox', checked: notificationsOn(), onchange: async (e) => {
      const on = await setNotifications(e.target.checked);
      e.target.checked = on;
      if (e.target.checked !== on || (!on && Notification?.permission === 'denied')) setHint(t('game.notifications_blocked'));
    },
  });
  const notifyToggle = notificationsSupported() ? h('label', { class: 'check sound' }, notifyBox, ` ${t('game.notify')}`) : '';
  const confirmBox = h('input', { type: 'checkbox', checked: confirmTouch(), onchange: (e) => { localStorage.setItem(CONFIRM_KEY, e.target.checked ? 'on' : 'off'); clearPending(); } });
  // Shown where there is a finger to tap with.
  const confirmToggle = matchMedia('(any-pointer: coarse)').matches ? h('label', { class: 'check sound' }, confirmBox, ` ${t('game.tap_twice')}`) : '';
  // Local feedback under the board (a point taken, not your move, the server's refusal of a
  // move): in the player's words, never over the chat's input.
  const hint = h('p', { class: 'board-hint', role: 'status', 'aria-live': 'polite' });
  const confirmBar = h('div', { class: 'confirm-bar', hidden: true });
  const passPanel = h('section', { class: 'panel passed', hidden: true, 'aria-live': 'assertive' });
  const countdown = h('p', { class: 'first-move', hidden: true, role: 'timer' });
  const boardHolder = h('div', { class: 'board-holder' });
  const reviewBar = h('div', { class: 'review-bar', hidden: true, 'aria-label': t('game.moves_label') });
  const review = new Review({
    onChange: () => render(),
    // Spectators at any time, players once their game is over; never a player in their own game.
    canAnalyse: () => !!st && (st.phase === Enum.Phase.finished || st.role === 'spectator'),
  });
  // The engine's review once the game is over (analysis.js): graph, swings, better moves.
  const analysis = analysisPanel({ gameId, review, loggedIn: () => !!ctx.user, onChange: () => render() });
  const staleNote = h('div', { class: 'stale-note', hidden: true }, t('game.stale'));
  const vertexInput = h('input', { id: 'vertex-input', name: 'vertex', autocomplete: 'off', placeholder: t('game.vertex_placeholder'), size: 6, 'aria-label': t('game.vertex_label') });
  const keyboardForm = h('form', { class: 'keyboard-play', onsubmit: (e) => { e.preventDefault(); clickPoint(vertexInput.value.trim().toUpperCase()); vertexInput.value = ''; } },
    h('label', { for: 'vertex-input' }, t('game.play_at')), vertexInput, h('button', { type: 'submit' }, t('game.play')));
  const cards = { black: playerCard('black'), white: playerCard('white') };
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const nigiriPanel = h('section', { class: 'panel nigiri', hidden: true, 'aria-label': t('nigiri.title') });
  const undoPanel = h('section', { class: 'panel undo', hidden: true });
  const absencePanel = h('section', { class: 'panel absence', hidden: true });
  // Conditional moves (correspondence games): the server's refusal is said in the panel's form.
  const plan = conditionalPanel({
    send: async (lines) => {
      try {
        return await conn.command(Command.set_conditional_moves, { game: gameId, lines });
      } catch (err) {
        if (plan.planning && err.code !== 'disconnected') plan.showProblem(err.message);
        else showError(err);
        return null;
      }
    },
    changed: () => render(),
  });
  const controls = h('div', { class: 'controls', hidden: true });
  // Blind mode (blind_game.js): the game by typed commands, its events said in the console's log.
  const blind = blindOn() ? new BlindConsole({
    state: () => st,
    points: () => st.position.points,
    myColor,
    myTurn,
    resultWords,
    userId: () => ctx.user?.id ?? null,
    act: {
      play: (vertex) => attempt(Command.play, { vertex, think_ms: thinkMs() }),
      pass: () => attempt(Command.pass, passThink()),
      undo: () => attempt(Command.undo_request),
      answerUndo: (accept) => attempt(Command.undo_answer, { accept }),
      resign: () => attempt(Command.resign),
      mark: (vertex, dead) => attempt(Command.mark, { vertex, dead }),
      accept: () => attempt(Command.accept_score, { version: st.marking.version }),
      resume: () => attempt(Command.resume),
      chat: (text) => attempt(Command.chat, { text }),
      abort: () => attempt(Command.abort),
      nigiri: (guess) => attempt(Command.nigiri, guess ? { seed: randomHex(12), guess } : { seed: randomHex(12) }),
    },
  }) : null;
  const scoringPanel = h('section', { class: 'panel scoring', hidden: true, 'aria-label': t('scoring.title') });
  const resultPanel = h('section', { class: 'panel result', hidden: true, 'aria-live': 'polite' });
  // Focusable, so that a keyboard can scroll it.
  const chatLog = h('ol', { class: 'chat-log', 'aria-live': 'polite', 'aria-label': t('chat.messages'), tabindex: '0' });
  const chatInput = h('input', { name: 'chat', maxlength: 1000, autocomplete: 'off', placeholder: t('chat.placeholder'), 'aria-label': t('chat.message') });
  const chatTitle = h('h2', {}, t('chat.title'));
  // A pair Go team's own chat (docs/events.md): what is written with the box ticked goes to the
  // partner(s) only.
  const teamBox = h('input', { type: 'checkbox', id: `team-chat-${gameId}`, class: 'team-chat-box', onchange: () => st && renderChat() });
  const teamChat = h('label', { class: 'team-chat', for: `team-chat-${gameId}`, hidden: true }, teamBox, ` ${t('pair.team_chat')}`);
  const chatForm = h('form', { class: 'chat-form', onsubmit: sendChat }, chatInput, h('button', { type: 'submit' }, t('chat.send')), teamChat);
  const chatGuest = h('p', { class: 'muted' }, ...tn('chat.guest', { link: h('a', { href: '#/login' }, t('nav.log_in')) }));
  const view = h('div', { class: 'game' },
    h('div', { class: 'board-area' }, boardHolder, confirmBar, hint, reviewBar, analysis.el, staleNote, keyboardForm),
    h('aside', { class: 'side' },
      h('header', { class: 'game-head' }, title, tournamentLine, subtitle, watchingNote, h('div', { class: 'row settings-row' }, sgfLink, soundToggle, notifyToggle, confirmToggle)),
      blind?.el ?? '',
      h('div', { class: 'player-cards' }, cards.black.el, cards.white.el),
      status, countdown, passPanel, nigiriPanel, undoPanel, absencePanel, controls, plan.el, scoringPanel, resultPanel,
      h('section', { class: 'chat' }, chatTitle, chatLog, chatForm, chatGuest),
      ctx.user?.admin ? adminTools() : ''));
  fill(root, view);
  // In blind mode the console's log says what these would: one voice, not several at once.
  if (blind) for (const el of [status, hint, passPanel, resultPanel, watchingNote, chatLog]) el.setAttribute('aria-live', 'off');

  // An administrator's tools (docs/moderation.md): annul the game (void; a rated one's ratings are
  // rebuilt without it), or decide a stuck one. The server's answer comes back as the game's end.
  function adminTools() {
    const reason = h('input', { id: 'admin-game-reason', maxlength: 500, autocomplete: 'off' });
    const result = h('select', { id: 'admin-game-result' },
      ...['B+R', 'W+R', 'B+T', 'W+T', 'B+F', 'W+F', '0', 'Void'].map((r) => h('option', { value: r }, describeResult(r))));
    const act = (body) => async () => {
      try {
        await fetchJson(`/api/v1/admin/games/${gameId}`, { method: 'POST', body: { ...body, reason: reason.value.trim() } });
        ctx.toast(t('admin.game_done'), { kind: 'info' });
      } catch (err) {
        ctx.toast(err.message);
      }
    };
    return h('details', { class: 'admin-tools' }, h('summary', {}, t('admin.game_tools')),
      h('div', { class: 'field' }, h('label', { for: reason.id }, t('admin.reason_log')), reason),
      h('div', { class: 'buttons' },
        h('button', { class: 'danger-quiet', onclick: act({ action: 'annul' }) }, t('admin.annul')),
        h('label', { for: result.id, class: 'muted' }, t('admin.decide')), result,
        h('button', { onclick: () => act({ action: 'adjudicate', result: result.value })() }, t('admin.adjudicate'))));
  }

  function playerCard(color) {
    const name = h('a', { class: 'name' });
    const rank = h('span', { class: 'rank-slot' });
    const captures = h('span', { class: 'captures' });
    const clockMain = h('span', { class: 'clock-main' });
    const clockExtra = h('span', { class: 'clock-extra' });
    const note = h('span', { class: 'player-note' });
    // Reporting this player from the game (docs/moderation.md); hidden for oneself and guests.
    const report = h('button', { class: 'report-line report-player', hidden: true, title: t('report.player'), 'aria-label': t('report.player'),
      onclick: () => openReport(ctx, { user: st[color].name, game: gameId }) }, '⚑');
    const el = h('div', { class: `player ${color}`, dataset: { color } },
      h('span', { class: `swatch ${color}`, 'aria-hidden': 'true' }),
      h('div', { class: 'who' }, h('span', { class: 'name-line' }, name, rank, report), note, captures),
      h('div', { class: 'clock', role: 'timer', 'aria-label': t('game.clock_of', { color: colorName(color) }) }, clockMain, clockExtra));
    return { el, name, rank, captures, clockMain, clockExtra, note, report };
  }

  // ---- state from the server ----

  function applySnapshot(s) {
    st = fromSnapshot(s, { now: performance.now() });
    if (!board || board.width !== s.settings.width || board.height !== s.settings.height) {
      board = new BoardView(s.settings.width, s.settings.height, {
        onPoint: clickPoint, ghost: ghostColor, label: t('game.board_label', { width: s.settings.width, height: s.settings.height }),
      });
      fill(boardHolder, board.el);
      boardHolder.style.setProperty('--ratio', String(board.aspect));
    }
    if (myTurn()) turnSeenAt = performance.now();
    if (st.nigiri?.secret) check(st.nigiri);
    plan.set(s.conditional_moves);
    if (st.phase === Enum.Phase.finished) describeEnd();
    render();
    if (blind && !blindGreeted) {
      blindGreeted = true;
      blind.opened(`${t('common.vs', { black: sideName(st, 'black'), white: sideName(st, 'white') })}, ${describeSettings(st.settings)}.`);
      blind.focus();
    }
  }

  // A snapshot of a finished game has its result but not how it ended: the archive knows.
  async function describeEnd() {
    try {
      const { game } = await fetchJson(`/api/v1/games/${gameId}`);
      if (st && !st.endReason) st.endReason = game.end_reason;
      render();
    } catch {
      // the result alone is shown
    }
  }

  function myColor() {
    return st && (st.role === 'black' || st.role === 'white') ? st.role : null;
  }
  function myTurn() {
    if (!st || st.phase !== Enum.Phase.playing || myColor() !== st.toMove) return false;
    const next = memberToMove(st, st.toMove);  // pair Go: the partner's turn is not mine
    return !next || next.id === ctx.user?.id;
  }
  function freePlacementPending() {
    return placementPending(st);
  }

  // The next state (game_state.js), and what else the event asks of the page.
  function applyEvent(m) {
    const { st: next, effects } = reduce(st, m, { now: performance.now(), viewer: ctx.user?.id ?? null });
    st = next;
    for (const effect of effects) {
      if (effect === 'turn') { if (myTurn()) turnSeenAt = performance.now(); }
      else if (effect === 'snapshot') sync();
      else if (effect === 'conditional') plan.set(m.lines);
      else if (effect === 'nigiri') check(m.nigiri);
      else if (effect === 'ranks') refreshRanks([st.black.id, st.white.id]);
      else if (effect === 'scoring') setHint('');
    }
  }

  function onMessage(e) {
    const m = e.detail;
    if (m.game !== gameId || destroyed) return;
    if (m.type === Message.snapshot) {
      applySnapshot(m);
      return;
    }
    if (m.type === Message.watching) {  // to players, whenever the number of spectators changes
      if (st) st.watching = m.count;
      render();
      return;
    }
    if (m.seq === undefined || !st || m.seq <= st.seq) return;  // seen already (a resumption may repeat)
    st.seq = m.seq;
    if (resuming && m.clock) clockWasReplayed = true;
    const wasMyTurn = myTurn();
    const said = systemLine(m);
    applyEvent(m);
    if (said) st.system.push({ seq: m.seq, text: said, at: Date.now() });
    if (m.type === Message.game_ended) st.system.push({ seq: m.seq, text: null, at: Date.now() });
    if (!resuming) tell(m, wasMyTurn);
    if (!resuming) blind?.event(m, said);
    render();
  }

  // A line for the chat when the event is one both players should see in its history.
  function systemLine(m) {
    const name = (color) => st[color]?.name ?? colorName(color);
    switch (m.type) {
      case Message.move: return m.vertex === 'pass' && st.phase === Enum.Phase.playing ? t('game.passed', { name: name(m.color) }) : null;
      case Message.undo_answered:
        return st.undoBy ? t(m.accepted ? 'system.undo_allowed' : 'system.undo_refused', { name: name(other(st.undoBy)), asker: name(st.undoBy) }) : null;
      case Message.scoring_started: return t('system.scoring');
      case Message.play_resumed: return t('system.resumed', { color: colorName(m.to_move) });
      default: return null;
    }
  }

  // Sounds and (when the tab is hidden and the player asked) notifications for what just happened.
  function tell(m, wasMyTurn) {
    const opponent = myColor() ? st[other(myColor())].name : null;
    if (m.type === Message.move) {
      clearPending();
      if (myTurn() && !wasMyTurn) {
        playTurnSound();
        notify(t('game.your_move'), m.vertex === 'pass' ? t('game.passed', { name: opponent }) : t('game.played', { name: opponent, vertex: m.vertex }), `game-${gameId}`);
      } else if (m.vertex !== 'pass') {
        playStoneSound();
      }
    } else if (m.type === Message.scoring_started && myColor()) {
      playTurnSound();
      notify(t('notify.counting'), t('notify.counting_body'), `game-${gameId}`);
    } else if (m.type === Message.game_ended && myColor()) {
      notify(t('notify.game_over'), resultWords(), `game-${gameId}`);
    } else if (m.type === Message.play_resumed && myTurn()) {
      playTurnSound();
      notify(t('game.your_move'), t('notify.resumed'), `game-${gameId}`);
    }
  }

  // A fresh snapshot.
  function sync() {
    conn.command(Command.join, { game: gameId }, { resend: false }).catch(showError);
  }

  // Enter the room; after a reconnection, only what happened since the last event seen.
  function join() {
    if (!st) {
      sync();
      return;
    }
    resuming = true;
    clockWasReplayed = false;
    conn.command(Command.join, { game: gameId, since: st.seq }, { resend: false }).then(() => {
      resuming = false;
      // Replayed clocks are as of their events, not of now: take the current ones.
      if (clockWasReplayed && st.clock) sync();
    }, (err) => {
      resuming = false;
      showError(err);
    });
  }

  function showError(err) {
    if (err.code === 'disconnected') return;  // the indicator says so; the view catches up after
    if (err.code === 'forbidden' && !st) {
      fill(boardHolder, h('p', { class: 'empty' }, err.message));
      return;
    }
    if (err.code === 'not_found' && !st) {
      fill(boardHolder, h('p', { class: 'empty' }, t('game.no_such', { id: String(gameId) })));
      return;
    }
    ctx.toast(err.message);
  }

  async function send(type, fields = {}) {
    try {
      return await conn.command(type, { game: gameId, ...fields });
    } catch (err) {
      showError(err);
      return null;
    }
  }

  // ---- what the player does ----

  function setHint(text) {
    hint.textContent = text;
    clearTimeout(hintTimer);
    if (text) hintTimer = setTimeout(() => { hint.textContent = ''; }, 4000);
  }

  function clearPending() {
    pending = null;
    confirmBar.hidden = true;
    board?.setPending(null);
  }

  function clickPoint(vertex, event) {
    if (!st || !conn.isOpen) return;
    const p = parseVertex(vertex, st.settings.width, st.settings.height);
    if (!p) {
      setHint(t('game.not_a_point', { vertex: vertex || '?' }));
      return;
    }
    if (review.browsing || (review.canAnalyse() && st.phase !== Enum.Phase.scoring)) {
      review.play(vertex);  // a variation: the server judges it; the game is not touched
      return;
    }
    if (st.phase === Enum.Phase.scoring && myColor()) {
      const i = p.y * st.settings.width + p.x;
      if (!st.position.points[i]) return;
      const dead = new Set((st.marking?.dead ?? []).map((v) => st.position.index(v)));
      send(Command.mark, { vertex, dead: !dead.has(i) });
      return;
    }
    if (plan.planning) {  // a line of conditional moves, not a move
      plan.add(vertex);
      return;
    }
    if (!myTurn()) {
      if (st.phase === Enum.Phase.playing && myColor()) {
        // Pair Go: the partner's turn is said as the server would refuse it.
        const next = memberToMove(st, st.toMove);
        setHint(next && st.toMove === myColor() ? t('pair.partners_turn', { name: next.name })
          : t('game.their_move', { name: next?.name ?? st[st.toMove].name }));
      }
      return;
    }
    if (st.position.points[st.position.index(vertex)]) {
      board.flash(vertex);
      setHint(t('game.taken', { vertex }));
      return;
    }
    // A finger covers the point it taps: the first tap shows the stone, a second (or Play) plays.
    if (event?.pointerType === 'touch' && confirmTouch() && pending !== vertex) {
      pending = vertex;
      board.setPending(vertex, short(st.toMove));
      fill(confirmBar,
        h('button', { type: 'button', class: 'primary', onclick: () => playAt(vertex) }, t('game.play_vertex', { vertex })),
        h('button', { type: 'button', onclick: clearPending }, t('common.cancel')),
        h('span', { class: 'muted' }, t('game.tap_again')));
      confirmBar.hidden = false;
      return;
    }
    playAt(vertex);
  }

  async function playAt(vertex) {
    clearPending();
    setHint('');
    await move(Command.play, { vertex, think_ms: thinkMs() });
  }

  function thinkMs() {
    return turnSeenAt === null ? undefined : Math.round(performance.now() - turnSeenAt);
  }

  // A command whose refusal the caller says itself (blind mode): null, or the refusal's words.
  async function attempt(type, fields = {}) {
    try {
      await conn.command(type, { game: gameId, ...fields });
      return null;
    } catch (err) {
      return err.code === 'disconnected' ? t('net.reconnecting') : err.message;
    }
  }

  // A move or a pass. The rules' refusals (ko, suicide) and the game having moved on meanwhile
  // (the opponent's pass ended it, a flag fell) are said under the board, not in a toast.
  async function move(type, fields) {
    try {
      await conn.command(type, { game: gameId, ...fields });
    } catch (err) {
      // A move that crossed the game's move to counting or its end: the scoring panel or the
      // result already says so (and on a phone the words would push its buttons down).
      if (st && st.phase !== Enum.Phase.playing && ['conflict', 'game_over', 'not_your_turn'].includes(err.code)) return;
      if (['illegal_move', 'not_your_turn', 'conflict', 'game_over'].includes(err.code)) setHint(err.message.replace(/^./, (c) => c.toUpperCase()));
      else showError(err);
    }
  }

  // A conditional line being planned, drawn on the board: its stones numbered in order (their
  // move 1, your reply 2, ...), captures taken off as the server would.
  function plannedView(planned) {
    const p = new Position(st.settings.width, st.settings.height);
    p.points = [...st.position.points];
    const mine = short(myColor());
    const theirs = mine === 'b' ? 'w' : 'b';
    const labels = new Map();
    planned.forEach(({ vertex, mine: ours }, k) => {
      const i = p.index(vertex);
      if (i === null || p.points[i]) return;  // the server will say what is wrong with it
      p.play(ours ? mine : theirs, vertex);
      labels.set(i, String(k + 1));
    });
    for (const i of labels.keys()) if (!p.points[i]) labels.delete(i);
    return { position: p.points, labels };
  }

  function ghostColor() {
    if (plan.planning) return plan.ghost();
    if (st && (review.browsing || (review.canAnalyse() && st.phase !== Enum.Phase.scoring))) return short(review.toMove());
    return st && myTurn() && conn.isOpen ? short(st.toMove) : null;
  }

  function sendChat(e) {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    const team = !teamChat.hidden && teamBox.checked;
    send(Command.chat, team ? { text, team: true } : { text }).then((ack) => { if (ack) chatInput.value = ''; });
  }

  async function check(n) {
    proof = { state: 'checking' };
    proof = await verifyNigiri(n);
    if (!destroyed) render();
  }

  // ---- rendering ----

  function render() {
    if (!st || destroyed) return;
    const s = st.settings;
    title.textContent = t('common.vs', { black: sideName(st, 'black'), white: sideName(st, 'white') });
    subtitle.textContent = `${t('title.game', { id: String(gameId) })} · ${describeSettings(s)}`;
    const tg = st.tournament;
    tournamentLine.hidden = !tg;
    if (tg && tournamentLine.dataset.shown !== `${tg.tournament}:${tg.round}:${tg.board}`) {
      tournamentLine.dataset.shown = `${tg.tournament}:${tg.round}:${tg.board}`;
      fill(tournamentLine, h('a', { href: `#/tournament/${tg.tournament}` }, tg.name), ` · ${t('game.tournament_round', { round: tg.round, board: tg.board })}`);
    }
    watchingNote.textContent = st.watching ? t('game.watching', { n: st.watching }) : '';
    const live = conn.isOpen;
    view.classList.toggle('stale', !live);
    view.dataset.moves = String(st.moves.length);  // for tests and styles: moves so far
    staleNote.hidden = live;
    const scoring = st.phase === Enum.Phase.scoring;
    const dead = new Set();
    let ownership = null;
    if (scoring && st.marking) {
      for (const v of st.marking.dead) for (const i of st.position.chainAt(v)) dead.add(i);
      ownership = st.marking.score?.ownership ?? null;
    } else if (st.phase === Enum.Phase.finished && st.finalScore?.ownership) {
      ownership = st.finalScore.ownership;
      // The agreed dead stones: the snapshot's final_dead, or the last marking when the end was seen live.
      for (const v of st.finalDead ?? []) for (const i of st.position.chainAt(v)) dead.add(i);
    }
    const last = st.lastMove && st.lastMove.vertex !== 'pass' ? st.position.index(st.lastMove.vertex) : null;
    review.setGame({
      width: s.width, height: s.height, ruleset: s.ruleset, handicap: st.handicap, moves: st.moves, time: s.time,
    });
    const shown = review.view();
    const planned = plan.planned();
    // Where the engine would have played, at the move shown (analysis.js).
    const best = review.browsing ? analysis.bestAt(review.shown) : null;
    const bestMark = best ? [{ i: st.position.index(best), shape: 'circle' }] : [];
    if (shown && review.browsing) board.render({ position: shown.points, last: shown.last, labels: shown.labels, shapes: bestMark });
    else if (planned.length) board.render(plannedView(planned));
    else board.render({ position: st.position.points, last, dead, ownership, labels: shown?.labels });
    board.el.classList.toggle('reviewing', review.browsing);
    review.renderBar(reviewBar);
    analysis.update(st.phase === Enum.Phase.finished, st.moves);
    board.el.classList.toggle('marking', scoring && !!myColor());
    board.el.classList.toggle('my-turn', myTurn());
    keyboardForm.hidden = !myColor() || !(st.phase === Enum.Phase.playing || scoring);
    const playing = st.phase === Enum.Phase.playing && !!myColor();
    plan.update({ visible: playing && s.time.system === 'correspondence', color: myColor(), opponentToMove: playing && st.toMove !== myColor() });

    for (const color of ['black', 'white']) {
      const card = cards[color];
      const player = st[color];
      const role = st.phase === Enum.Phase.nigiri ? t(color === 'black' ? 'nigiri.holds' : 'nigiri.guesses') : '';
      const team = teamOf(st, color);
      card.name.textContent = team ? sideName(st, color) : player.name;
      if (team) {
        // A pair Go team: its names, and who of them plays the colour's next move.
        card.name.removeAttribute('href');
        fill(card.rank);
        card.rank.dataset.user = '';
        const next = memberToMove(st, color);
        const mine = team.some((m) => m.id === ctx.user?.id);
        card.report.hidden = true;
        card.note.textContent = [st.phase === Enum.Phase.playing ? t('pair.next', { name: next.id === ctx.user?.id ? t('pair.you') : next.name }) : '',
          mine ? t('pair.your_team') : ''].filter(Boolean).join(' · ');
      } else {
        if (card.rank.dataset.user !== String(player.id)) {
          card.rank.dataset.user = String(player.id);
          fill(card.rank, rankTag(player));
        }
        card.name.href = `#/user/${encodeURIComponent(player.name)}`;
        card.report.hidden = !ctx.user || ctx.user.id === player.id;
        card.note.textContent = [role, ctx.user?.id === player.id ? t('lobby.you') : ''].filter(Boolean).join(' ');
      }
      card.captures.textContent = t('game.captured', { n: (shown && review.browsing ? shown.captures : st.captures)[color] });
      card.el.classList.toggle('to-move', st.phase === Enum.Phase.playing && st.toMove === color);
      card.el.classList.toggle('absent', st.settings.time.system !== 'correspondence' && st.absent.some((a) => a.color === color));
      const swatch = card.el.querySelector('.swatch');
      swatch.className = `swatch ${st.phase === Enum.Phase.nigiri ? 'unknown' : color}`;
    }
    tickClocks();

    status.textContent = [lastMoveText(), statusText()].filter(Boolean).join(' ');
    showTurn(needsMe(), `${t('common.vs', { black: sideName(st, 'black'), white: sideName(st, 'white') })} · Tengen`);
    renderPassed();
    renderCountdown();
    renderNigiri();
    renderUndo();
    renderAbsence();
    renderControls();
    renderScoring();
    renderResult();
    renderChat();
  }

  // "White played D5, capturing 1." (for everyone, and read out by screen readers).
  function lastMoveText() {
    const m = st.lastMove;
    if (!m || st.phase !== Enum.Phase.playing) return '';
    if (st.resumed && st.resumed.moves === st.moves.length) return t('notify.resumed');
    if (m.vertex === 'pass') return t('game.passed', { name: colorName(m.color) });
    if (m.captured) return t('game.played_capturing', { name: colorName(m.color), vertex: m.vertex, n: m.captured });
    return t('game.played', { name: colorName(m.color), vertex: m.vertex });
  }

  function statusText() {
    const me = myColor();
    switch (st.phase) {
      case Enum.Phase.nigiri: return t('status.nigiri');
      case Enum.Phase.playing:
        if (freePlacementPending()) return t('status.placing', { placed: st.handicap.length, of: st.settings.handicap });
        if (me && teamOf(st, me)) {
          const next = memberToMove(st, st.toMove);
          if (myTurn()) return t('status.your_move');
          return me === st.toMove ? t('pair.partners_move', { name: next.name }) : t('pair.to_move', { color: colorName(st.toMove), name: next.name });
        }
        if (me) return me === st.toMove ? t('status.your_move') : t('status.to_move', { color: colorName(st.toMove) });
        return t('status.to_move_n', { color: colorName(st.toMove), n: st.moves.length + 1 });
      case Enum.Phase.scoring: return me ? t('status.scoring_player') : t('status.scoring');
      case Enum.Phase.finished: return t('status.over');
      default: return '';
    }
  }

  // Whether the game waits for this player: their move, their acceptance, their nigiri choice.
  function needsMe() {
    const me = myColor();
    if (myTurn()) return true;
    if (st.phase === Enum.Phase.scoring && me && st.marking) return st.marking.accepted[me] !== st.marking.version;
    if (st.phase === Enum.Phase.nigiri && st.nigiri && !st.nigiri.secret && ctx.user) {
      const n = st.nigiri;
      return (ctx.user.id === n.holder.id && !n.holder_chose) || (ctx.user.id === n.guesser.id && !n.guesser_chose);
    }
    return false;
  }

  // "You won by 2.5 points" to the winner, "alice won by resignation" to the loser; the
  // colours' words to spectators.
  function resultWords() {
    const parts = resultParts(st.result);
    const me = myColor();
    if (!me || !parts) return describeResult(st.result);
    return parts.winner === me ? t('result.you_won', { how: parts.how }) : t('result.they_won', { name: st[parts.winner].name, how: parts.how });
  }

  // A pass, said so that nobody misses it: it decides whether the next pass ends the game.
  function renderPassed() {
    const last = st.lastMove;
    const me = myColor();
    // Play resumed from the count and nobody has moved since: why, not the stale pass.
    if (st.phase === Enum.Phase.playing && st.resumed && st.resumed.moves === st.moves.length) {
      passPanel.hidden = false;
      const title = st.resumed.by === null ? t('resumed.unknown')
        : me === st.resumed.by ? t('resumed.you') : t('resumed.they', { name: st[st.resumed.by].name });
      fill(passPanel, h('p', { class: 'passed-title' }, title),
        h('p', {}, t('resumed.explain')));
      return;
    }
    passPanel.hidden = !(st.phase === Enum.Phase.playing && last?.vertex === 'pass');
    if (passPanel.hidden) return;
    const name = st[last.color].name;
    if (me && last.color !== me) {
      fill(passPanel, h('p', { class: 'passed-title' }, t('game.passed', { name })),
        h('p', {}, t('pass.if_you_pass')));
    } else if (me) {
      fill(passPanel, h('p', { class: 'passed-title' }, t('pass.you_passed')),
        h('p', {}, t('pass.if_they_pass', { name: st[other(me)].name })));
    } else {
      fill(passPanel, h('p', { class: 'passed-title' }, t('game.passed', { name })));
    }
  }

  // Before both players have moved, each has a short time for a first move (the nigiri too).
  function renderCountdown() {
    const on = st.firstMoveAt !== null && (st.phase === Enum.Phase.playing || st.phase === Enum.Phase.nigiri) && !freePlacementPending();
    countdown.hidden = !on;
    if (!on) return;
    const secs = Math.max(0, Math.ceil((st.firstMoveAt - performance.now()) / 1000));
    // A correspondence game's first move may take days: said in days and hours.
    const left = secs >= 3600 ? formatDays(secs * 1000) : null;
    if (st.phase === Enum.Phase.nigiri) countdown.textContent = t('countdown.nigiri', { n: secs });
    else if (myTurn()) countdown.textContent = left ? t('countdown.yours_long', { left }) : t('countdown.yours', { n: secs });
    else countdown.textContent = left ? t('countdown.theirs_long', { name: memberToMove(st, st.toMove)?.name ?? st[st.toMove].name, left }) : t('countdown.theirs', { name: memberToMove(st, st.toMove)?.name ?? st[st.toMove].name, n: secs });
    countdown.classList.toggle('urgent', secs <= 15);
  }

  function renderNigiri() {
    const n = st.nigiri;
    // Shown while it is drawn and until the first move; then the game is what matters (the
    // proof stays in the game's record).
    nigiriPanel.hidden = !n || st.moves.length > 0;
    if (nigiriPanel.hidden) return;
    const me = ctx.user?.id;
    const items = [h('h2', {}, t('nigiri.title'))];
    if (!n.secret) {
      items.push(h('p', {}, t('nigiri.explain', { holder: n.holder.name, guesser: n.guesser.name })));
      items.push(h('p', { class: 'hash' }, h('span', {}, `${t('nigiri.commitment')} `), h('code', {}, n.commitment)));
      if (me === n.holder.id && !n.holder_chose) {
        items.push(h('button', { class: 'primary', onclick: () => send(Command.nigiri, { seed: randomHex(12) }) }, t('nigiri.grab')));
      } else if (me === n.guesser.id && !n.guesser_chose) {
        items.push(h('div', { class: 'row' },
          h('button', { class: 'primary', onclick: () => send(Command.nigiri, { seed: randomHex(12), guess: 'odd' }) }, t('nigiri.odd')),
          h('button', { class: 'primary', onclick: () => send(Command.nigiri, { seed: randomHex(12), guess: 'even' }) }, t('nigiri.even'))));
      }
      items.push(h('p', { class: 'muted' },
        `${n.holder.name}: ${t(n.holder_chose ? 'nigiri.ready' : 'nigiri.choosing')} · ${n.guesser.name}: ${t(n.guesser_chose ? 'nigiri.ready' : 'nigiri.choosing')}`));
    } else {
      const parity = n.stones % 2 === 0 ? 'even' : 'odd';
      const guesserBlack = parity === n.guess;
      items.push(h('p', { class: 'nigiri-result' },
        t('nigiri.result', { n: n.stones, parity: t(`nigiri.${parity}`).toLocaleLowerCase(), guesser: n.guesser.name, guess: t(`nigiri.${n.guess}`).toLocaleLowerCase(), black: guesserBlack ? n.guesser.name : n.holder.name })));
      const verdict = proof?.state === 'ok' ? ['ok', `✓ ${t('nigiri.proof_ok')}`]
        : proof?.state === 'bad' ? ['bad', `✗ ${t('nigiri.proof_bad', { why: proof.why })}`]
          : proof?.state === 'unavailable' ? ['muted', t('nigiri.proof_unavailable')]
            : ['muted', t('nigiri.proof_checking')];
      items.push(h('p', { class: `proof ${verdict[0]}` }, verdict[1]));
      items.push(h('details', { class: 'proof-values' }, h('summary', {}, t('nigiri.proof')),
        h('dl', {},
          ...[['commitment', n.commitment], ['secret', n.secret], ['nonce', n.nonce], ['holder_seed', n.holder_seed],
            ['guesser_seed', n.guesser_seed], ['guess', n.guess], ['stones', n.stones]]
            .flatMap(([k, v]) => [h('dt', {}, t(`nigiri.field_${k}`)), h('dd', {}, h('code', {}, String(v)))])),
        h('p', { class: 'muted' }, t('nigiri.formula'))));
    }
    fill(nigiriPanel, ...items);
  }

  function renderUndo() {
    const me = myColor();
    const show = st.undoBy && st.phase === Enum.Phase.playing;
    undoPanel.hidden = !show;
    if (!show) return;
    if (me && me !== st.undoBy) {
      fill(undoPanel, h('p', {}, t('undo.asks', { color: colorName(st.undoBy) })),
        h('div', { class: 'row' },
          h('button', { class: 'primary', onclick: () => send(Command.undo_answer, { accept: true }) }, t('undo.allow')),
          h('button', { onclick: () => send(Command.undo_answer, { accept: false }) }, t('undo.refuse'))));
    } else {
      fill(undoPanel, h('p', {}, me ? t('undo.you_asked') : t('undo.asked', { color: colorName(st.undoBy) })));
    }
  }

  function renderAbsence() {
    // Correspondence players are away most of the time: nobody's absence is news there.
    const entries = st.absent.filter(() => st.phase !== Enum.Phase.finished && st.settings.time.system !== 'correspondence');
    absencePanel.hidden = entries.length === 0;
    if (!entries.length) return;
    fill(absencePanel, ...entries.map((a) => {
      const name = st[a.color].name;
      if (a.claim_in_ms === null || a.claim_in_ms === undefined) {
        if (myTurn()) return h('p', {}, t('absence.left_your_move', { name }));
        return h('p', {}, t('absence.left', { name }));
      }
      const left = a.claim_in_ms - (performance.now() - a.at);
      const mine = myColor() && myColor() !== a.color;
      // "You may claim the win" is for the opponent; a spectator is told what may happen.
      if (left > 0) return h('p', { 'data-claim': a.color }, t(mine ? 'absence.claim_in' : 'absence.claim_in_watching', { name, n: Math.ceil(left / 1000), other: st[other(a.color)].name }));
      return h('p', {}, `${t('absence.not_back', { name })} `,
        mine ? h('button', { class: 'primary', onclick: () => send(Command.claim_win) }, t('absence.claim')) : '');
    }));
  }

  function renderControls() {
    const me = myColor();
    const playing = st.phase === Enum.Phase.playing && me;
    controls.hidden = !(playing || (st.phase === Enum.Phase.nigiri && st.role === 'player'));
    if (controls.hidden) return;
    const buttons = [];
    if (playing) {
      buttons.push(h('button', { onclick: () => move(Command.pass, passThink()), disabled: !myTurn() || freePlacementPending() }, t('game.pass')));
      const myMoves = st.moves.filter((m) => m.color === me).length;
      buttons.push(h('button', { onclick: () => send(Command.undo_request), disabled: myMoves === 0 || !!st.undoBy }, t('game.undo')));
    }
    if (st.abortable) buttons.push(h('button', { onclick: () => send(Command.abort) }, t('game.abort')));
    if (playing) {
      if (confirmingResign) {
        buttons.push(h('span', { class: 'confirm' }, t('game.resign_question'),
          h('button', { class: 'danger', onclick: () => { confirmingResign = false; send(Command.resign); } }, t('game.resign_yes')),
          h('button', { onclick: () => { confirmingResign = false; render(); } }, t('common.no'))));
      } else {
        buttons.push(h('button', { class: 'danger-quiet', onclick: () => { confirmingResign = true; render(); } }, t('game.resign')));
      }
    }
    fill(controls, ...buttons);
  }

  function passThink() {
    return turnSeenAt === null ? {} : { think_ms: Math.round(performance.now() - turnSeenAt) };
  }

  function renderScoring() {
    const m = st.marking;
    scoringPanel.hidden = !(st.phase === Enum.Phase.scoring && m);
    if (scoringPanel.hidden) return;
    const me = myColor();
    const score = m.score;
    const accepted = (c) => m.accepted[c] === m.version;
    const items = [h('h2', {}, t('scoring.title')),
      h('p', { class: 'score-line' },
        h('span', {}, t('scoring.black', { n: score.black })), ' · ', h('span', {}, t('scoring.white', { n: score.white })), ' → ',
        h('strong', { class: 'live-score' }, describeResult(score.result)))];
    // The buttons high in the panel: on a phone they must show without scrolling.
    if (me) {
      items.push(h('div', { class: 'row' },
        h('button', { class: 'primary', onclick: () => send(Command.accept_score, { version: m.version }), disabled: accepted(me) }, accepted(me) ? t('scoring.accepted') : t('scoring.accept')),
        h('button', { onclick: () => send(Command.resume) }, t('scoring.resume'))));
    }
    items.push(h('p', { class: 'acceptances' },
      ...['black', 'white'].map((c) => h('span', { class: accepted(c) ? 'accepted' : 'waiting' },
        `${st[c].name}: ${accepted(c) ? t('scoring.accepted_mark') : t('scoring.not_yet')}`))),
    breakdown(score),
    h('p', { class: 'muted' }, deadWords(m.dead) +
      (m.resumptions ? ` · ${t('scoring.resumptions', { n: m.resumptions })}` : '')));
    scoringPanel.dataset.version = String(m.version);  // which marking an acceptance is for
    fill(scoringPanel, ...items);
  }

  // After the game, either player may offer the other a game with the same settings (colours
  // swapped in an even game); the other sees the offer here, as well as in the lobby.
  function rematch() {
    const me = myColor();
    if (!me || st.settings.private === undefined) return '';
    const them = st[other(me)];
    const offers = [...ctx.lobby.challenges.values()];
    const mine = offers.find((c) => c.challenger.id === ctx.user.id && c.opponent?.id === them.id);
    const theirs = offers.find((c) => c.challenger.id === them.id && c.opponent?.id === ctx.user.id);
    const act = (type, id) => conn.command(type, { challenge: id }).catch((err) => setHint(err.message));
    if (theirs) {
      return h('div', { class: 'rematch offer' }, h('p', {}, t('rematch.offered_by', { name: them.name })),
        h('div', { class: 'row' },
          h('button', { type: 'button', class: 'primary', onclick: () => act(Command.accept_challenge, theirs.id) }, t('common.accept')),
          h('button', { type: 'button', onclick: () => act(Command.decline_challenge, theirs.id) }, t('common.decline'))));
    }
    if (mine) {
      return h('div', { class: 'rematch' }, h('p', { class: 'muted' }, t('rematch.offered_to', { name: them.name })),
        h('button', { type: 'button', onclick: () => act(Command.cancel_challenge, mine.id) }, t('common.cancel')));
    }
    const s = st.settings;
    const settings = {
      width: s.width, height: s.height, ruleset: s.ruleset, handicap: s.handicap, placement: s.placement,
      color: s.handicap ? me : other(me), time: s.time, rated: s.rated, private: s.private,
    };
    if (s.komi !== undefined && s.komi !== null) settings.komi = s.komi;
    return h('button', {
      type: 'button', class: 'rematch-button', onclick: () => conn.command(Command.create_challenge, { settings, opponent: them.name }).catch((err) => setHint(err.message)),
    }, t('rematch.button'));
  }

  // "2 dead groups (5 stones)": `dead` lists every dead stone; groups are its chains.
  function deadWords(dead) {
    const seen = new Set();
    let groups = 0;
    for (const v of dead) {
      const i = st.position.index(v);
      if (seen.has(i)) continue;
      groups += 1;
      for (const j of st.position.chainAt(v)) seen.add(j);
    }
    if (!groups) return t('scoring.no_dead');
    return `${t('scoring.dead_groups', { n: groups })} (${t('scoring.stones', { n: dead.length })})`;
  }

  // How each side's points are made, in the rules' own terms (the server's count).
  function breakdown(score) {
    const b = score?.breakdown;
    if (!b) return '';
    const line = (color) => h('li', {}, h('span', { class: `swatch ${color}`, 'aria-hidden': 'true' }),
      `${colorName(color)}: ${countTerms(b, color).join(' + ')} = `, h('strong', {}, num(score[color])));
    return h('ul', { class: 'breakdown', 'aria-label': t(b.area ? 'count.by_area' : 'count.by_territory') },
      line('black'), line('white'));
  }

  function renderResult() {
    resultPanel.hidden = st.phase !== Enum.Phase.finished;
    if (resultPanel.hidden) return;
    ctx.finishedGame = gameId;  // app.js: a game started from here (a rematch) opens at once
    const reason = st.endReason ? endReason(st.endReason) : '';
    const score = st.finalScore;
    fill(resultPanel,
      h('p', { class: 'result-banner', 'data-result': st.result ?? '' }, myColor() ? resultWords() : describeResult(st.result)),
      h('p', { class: 'muted' }, [st.result, reason].filter(Boolean).join(' · ')),
      score ? (score.breakdown ? breakdown(score) : h('p', { class: 'muted' }, `${t('scoring.black', { n: score.black })} · ${t('scoring.white', { n: score.white })} (${t('settings.komi', { komi: komiOf(st.settings) })})`)) : '',
      rematch(),
      // A shared board for a teacher and others, with its own tree of variations (review_room.js).
      ctx.user && st.result !== 'Void'
        ? h('button', { type: 'button', class: 'open-review', onclick: () => openReview(ctx, { game: gameId }).catch((err) => ctx.toast(err.message)) }, t('game.open_review'))
        : '');
  }

  function renderChat() {
    const player = !!(myColor() || st.role === 'player');
    const teamPlayer = !!(myColor() && teamOf(st, myColor()));
    chatTitle.textContent = teamPlayer ? t('pair.chat_title') : player ? t('chat.with_opponent') : t('chat.title');
    chatForm.hidden = !ctx.user;
    chatGuest.hidden = !!ctx.user;
    teamChat.hidden = !teamPlayer;
    chatInput.placeholder = teamPlayer ? t(teamBox.checked ? 'pair.to_team' : 'pair.to_players') : player ? t('chat.to_opponent') : t('chat.to_spectators');
    // A program among the players is said so, in the page's words (a bot's own greeting, if it
    // sends one, is in its own language).
    const bot = [st.black, st.white].find((u) => isBot(u.id));
    const shown = `${gameId}:${st.chatOmitted}:${st.chat.length}:${st.chatDeleted || 0}:${st.system.length}:${st.result}:${bot?.id ?? ''}`;
    if (chatLog.dataset.shown === shown) return;
    chatLog.dataset.shown = shown;
    const earlier = st.chatOmitted
      ? h('li', { class: 'chat-omitted muted' }, t('chat.omitted', { n: st.chatOmitted }))
      : '';
    const time = (ms) => (ms ? h('time', { class: 'chat-time', datetime: new Date(ms).toISOString() }, formatTime(ms)) : '');
    const lines = [
      ...st.chat.map((line) => ({ seq: line.seq, el: h('li', { class: `chat-line chat-${line.channel}` }, time(line.at_ms),
        line.channel === 'spectators' ? h('span', { class: 'channel' }, t('chat.spectator'))
          : line.channel === 'team' ? h('span', { class: 'channel team' }, t('pair.team_tag')) : '',
        h('strong', {}, line.from.name), ' ',
        line.deleted ? h('em', { class: 'chat-deleted' }, t('chat.deleted')) : line.text,
        ctx.user && line.from.id !== ctx.user.id && !line.deleted
          ? h('button', { class: 'report-line', title: t('report.line'), 'aria-label': t('report.line'),
            onclick: () => openReport(ctx, { user: line.from.name, game: gameId, chatSeq: line.seq, chatText: line.text }) }, '⚑')
          : '',
        ctx.user?.admin && !line.deleted
          ? h('button', { class: 'report-line delete-line', title: t('chat.delete'), 'aria-label': t('chat.delete'),
            onclick: () => deleteLine(line) }, '✕')
          : '') })),
      // The result's line says it in this viewer's words; the others as they happened.
      ...st.system.map((s) => ({ seq: s.seq, el: h('li', { class: 'chat-line chat-system' }, time(s.at), s.text ?? t('system.game_over', { result: st.phase === Enum.Phase.finished ? resultWords() : '' })) })),
    ].sort((a, b) => a.seq - b.seq);
    const botNote = bot ? h('li', { class: 'chat-line chat-system bot-note' }, t('game.bot_note', { name: bot.name })) : '';
    fill(chatLog, earlier, botNote, ...lines.map((l) => l.el));
    // An administrator's deletion (docs/moderation.md): the server tells every page.
    async function deleteLine(line) {
      if (!window.confirm(t('chat.delete_confirm', { name: line.from.name }))) return;
      try {
        await fetchJson(`/api/v1/admin/games/${gameId}`, { method: 'POST', body: { action: 'delete_chat', line: line.seq } });
      } catch (err) {
        ctx.toast(err.message);
      }
    }
    chatLog.scrollTop = chatLog.scrollHeight;
  }

  function tickClocks() {
    if (!st) return;
    const time = st.settings.time;
    const now = performance.now();
    for (const color of ['black', 'white']) {
      const card = cards[color];
      if (!st.clock || time.system === 'none') {
        card.clockMain.textContent = time.system === 'none' ? '' : '–';
        card.clockExtra.textContent = '';
        continue;
      }
      const running = st.clock.running === color && st.phase === Enum.Phase.playing;
      // A correspondence player's weekend or vacation: their clock stands still for time_off_ms,
      // then runs.
      const since = now - st.clockAt;
      const off = running && since < (st.clock.time_off_ms || 0) ? (st.clock.vacation ? 'vacation' : 'weekend') : '';
      const side = running ? runDown(st.clock[color], time, Math.max(0, since - (st.clock.time_off_ms || 0))) : st.clock[color];
      const text = clockText(side, time, off);
      card.clockMain.textContent = text.main;
      card.clockExtra.textContent = text.extra;
      card.el.classList.toggle('clock-running', running);
      card.el.classList.toggle('clock-low', running && isLow(side, time));
      card.el.classList.toggle('overtime', text.overtime);
    }
    if (!absencePanel.hidden) renderAbsence();
    if (!countdown.hidden) renderCountdown();
    blind?.tick();
  }

  // ---- life cycle ----
  const onOpen = () => join();
  const onStatus = () => render();
  // Arrow keys, Home and End step through the moves (not while typing).
  function onKey(e) {
    if (!st || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest?.('input, textarea, select, [contenteditable]')) return;
    const keys = { ArrowLeft: () => review.previous(), ArrowRight: () => review.next(), Home: () => review.first(), End: () => review.last() };
    if (!keys[e.key]) return;
    e.preventDefault();
    keys[e.key]();
  }
  document.addEventListener('keydown', onKey);
  conn.addEventListener('message', onMessage);
  conn.addEventListener('open', onOpen);
  conn.addEventListener('status', onStatus);
  const onLobby = () => { if (st?.phase === Enum.Phase.finished) render(); };  // a rematch offered or taken back
  ctx.events.addEventListener('lobby', onLobby);
  const onRanks = () => { if (st) renderChat(); };  // who is a bot is known once ranks arrive
  ranksEvents.addEventListener('ranks', onRanks);
  const timer = setInterval(tickClocks, 100);
  if (conn.isOpen) join();
  else fill(boardHolder, h('p', { class: 'empty' }, t('net.connecting')));

  return () => {
    destroyed = true;
    if (ctx.finishedGame === gameId) ctx.finishedGame = null;
    showTurn(false, document.title.replace(`● ${t('game.your_move')} · `, ''));
    clearTimeout(hintTimer);
    clearInterval(timer);
    document.removeEventListener('keydown', onKey);
    conn.removeEventListener('message', onMessage);
    conn.removeEventListener('open', onOpen);
    conn.removeEventListener('status', onStatus);
    ctx.events.removeEventListener('lobby', onLobby);
    analysis.destroy();
    ranksEvents.removeEventListener('ranks', onRanks);
    if (conn.isOpen) conn.command(Command.leave, { game: gameId }, { resend: false }).catch(() => {});
  };
}
