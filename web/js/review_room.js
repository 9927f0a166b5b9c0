// A review or demonstration board (docs/reviews.md): a tree of variations on the server, driven
// by whoever has control and followed live by everyone in the room. The view holds no rules:
// every move is the server's (review_play), and the board it draws is the position the server
// sends with each change of node.
import { h, fill, svg, parseVertex, rulesetName } from './util.js';
import { BoardView } from './board.js';
import { fetchJson } from './api.js';
import { icon } from './review.js';
import { t, tn } from './i18n.js';
import { blindOn } from './blind.js';
import { ReviewConsole } from './blind_review.js';
import { reviewEnginePanel } from './review_engine.js';
import { Command, Enum, Message } from './wire.js';
import { fromSnapshot, reduce } from './review_state.js';

const TOOLS = [
  ['play', null, 'review.tool_play'],
  ['triangle', '△', 'review.tool_triangle'],
  ['square', '□', 'review.tool_square'],
  ['circle', '○', 'review.tool_circle'],
  ['cross', '✕', 'review.tool_cross'],
  ['label', 'A', 'review.tool_label'],
];
const colorName = (c) => t(`common.${c}`);

// Opens a review from a source ({game}, {sgf}, or {size, komi, ruleset}) and goes to it.
export async function openReview(ctx, source) {
  const { review } = await fetchJson('/api/v1/reviews', { method: 'POST', body: source });
  ctx.navigate(`#/review/${review.id}`);
}

// `gameLine`, for a relay's commentary room (relays.js): the relayed game's moves so far
// ([{color, vertex}]); the controller then has a button back to the game's latest move.
export function mountReviewRoom(root, ctx, reviewId, { gameLine = null } = {}) {
  const conn = ctx.conn;
  let st = null;  // {seq, title, owner, controller, width, height, nodes: Map, current, position, followers, guests, closed}
  let board = null;
  let tool = 'play';
  let destroyed = false;
  // The node last asked for and not yet reached: steps taken faster than the server answers go
  // on from there, not from the node shown.
  let aim = null;
  // A follower looking around on their own (as KGS lets one "unfollow"): the node looked at and
  // its position, from the server's rules engine (POST /api/v1/positions); null while following.
  let local = null;
  let looking = 0;  // the last look asked for: older answers are dropped
  const shown = () => (local ? local.node : st?.current);
  const here = () => (iControl() ? aim ?? st?.current : shown());

  const title = h('h1', { class: 'game-title' }, t('title.review', { id: String(reviewId) }));
  const subtitle = h('p', { class: 'game-settings' });
  const sgfLink = h('a', { href: `/api/v1/reviews/${reviewId}.sgf`, download: `tengen-review-${reviewId}.sgf`, class: 'sgf' }, t('game.download_sgf'));
  const boardHolder = h('div', { class: 'board-holder' });
  const toolbar = h('div', { class: 'review-tools', role: 'toolbar', 'aria-label': t('review.tools'), hidden: true });
  const navBar = h('div', { class: 'review-bar review-nav' });
  const problem = h('p', { class: 'analysis-error', role: 'alert' });
  const backButton = h('button', { type: 'button', class: 'back-to-board', hidden: true, onclick: () => { local = null; looking += 1; render(); } }, t('review.back_shared'));
  const whereLine = h('p', { class: 'review-where', 'aria-live': 'polite' });
  const gameButton = h('button', { type: 'button', class: 'back-to-game', hidden: true, onclick: () => goTo(gameEnd()) }, t('relay.back_to_game'));
  const controlLine = h('p', { class: 'status review-control', role: 'status', 'aria-live': 'polite' });
  const handOver = h('div', { class: 'hand-over' });
  const commentBox = h('textarea', { name: 'comment', rows: 4, maxlength: 4000, placeholder: t('review.comment_placeholder'), 'aria-label': t('review.comment_label') });
  const commentSave = h('button', { type: 'submit' }, t('review.save_comment'));
  const commentForm = h('form', { class: 'comment-form', onsubmit: saveComment }, commentBox, commentSave);
  const commentText = h('div', { class: 'comment-text', 'aria-live': 'polite' });
  // Focusable, so that a keyboard can scroll a tree wider than its box.
  const treeHolder = h('div', { class: 'review-tree', role: 'group', 'aria-label': t('review.variations'), tabindex: '0' });
  const followersLine = h('p', { class: 'muted followers' });
  // Focusable, so that a keyboard can scroll it.
  const chatLog = h('ol', { class: 'chat-log', 'aria-live': 'polite', 'aria-label': t('chat.messages'), tabindex: '0' });
  const chatInput = h('input', { name: 'chat', maxlength: 1000, autocomplete: 'off', placeholder: t('review.chat_placeholder'), 'aria-label': t('chat.message') });
  const chatForm = h('form', { class: 'chat-form', onsubmit: sendChat }, chatInput, h('button', { type: 'submit' }, t('chat.send')));
  const chatGuest = h('p', { class: 'muted' }, ...tn('chat.guest', { link: h('a', { href: '#/login' }, t('nav.log_in')) }));
  const closeButton = h('button', { class: 'danger-quiet', hidden: true, onclick: closeReview }, t('review.close'));
  const closedNote = h('p', { class: 'panel result', hidden: true }, t('review.closed'));
  // A private game's review: who sees it, and (for the game's players) whom they invite.
  const privacyBox = h('section', { class: 'privacy', hidden: true });
  const inviteName = h('input', { name: 'invite', maxlength: 32, autocomplete: 'off', placeholder: t('review.invite_placeholder'), 'aria-label': t('review.invite_label') });
  const inviteForm = h('form', { class: 'invite-form row', onsubmit: invite }, inviteName, h('button', { type: 'submit' }, t('review.invite')));
  // Blind mode (blind_review.js): the board read and stepped through by typed commands.
  const blind = blindOn() ? new ReviewConsole({
    state: () => st,
    points: () => pointsOf(shownPosition()),
    where: () => whereParts().join(', '),
    comment: () => st.nodes.get(shown())?.comment ?? '',
    captures: () => shownPosition().captures,
    iControl: () => iControl(),
    controller: () => st.controller.name,
    go: (step) => {
      const to = { next: () => firstChild(here()), back: () => parentOf(here()), first: () => 0, end: () => endOfLine(here()) }[step]();
      if (to === undefined || to < 0 || to === here()) return false;
      goTo(to);
      return true;
    },
    play: (vertex) => send(Command.review_play, { vertex }),
  }) : null;
  // The engine (review_engine.js): the game's analysis, and positions asked about.
  const engine = reviewEnginePanel({
    reviewId, ctx,
    board: { state: () => st, shown: () => shown(), goTo: (node) => goTo(node), iControl: () => iControl(), play: (vertex) => send(Command.review_play, { vertex }), changed: () => render() },
  });
  const view = h('div', { class: 'game review-room' },
    h('div', { class: 'board-area' }, boardHolder, whereLine, backButton, gameButton, toolbar, navBar, problem),
    h('aside', { class: 'side' },
      h('header', { class: 'game-head' }, title, subtitle, h('div', { class: 'row' }, sgfLink, closeButton)),
      blind?.el ?? '',
      closedNote, controlLine, handOver, privacyBox,
      h('section', { class: 'comment' }, h('h2', {}, t('review.comment')), commentText, commentForm),
      engine.el,
      h('section', { class: 'tree' }, h('h2', {}, t('review.variations')), treeHolder),
      followersLine,
      h('section', { class: 'chat' }, h('h2', {}, t('chat.title')), chatLog, chatForm, chatGuest)));
  fill(root, view);
  fill(boardHolder, h('p', { class: 'empty' }, t('net.connecting')));
  // In blind mode the console says where the board is: one voice, not three.
  if (blind) for (const el of [whereLine, commentText, controlLine]) el.setAttribute('aria-live', 'off');

  for (const [name, text, key] of TOOLS) {
    const label = t(key);
    // A symbol is named by its label; the stone's visible word starts its name (as axe asks).
    const named = text ? label : `${t('review.stone')}: ${label}`;
    toolbar.append(h('button', { type: 'button', class: 'tool', dataset: { tool: name }, title: label, 'aria-label': named, 'aria-pressed': String(name === tool), onclick: () => { tool = name; render(); } }, text ?? t('review.stone')));
  }
  toolbar.append(h('button', { type: 'button', class: 'tool', title: t('game.pass'), onclick: () => send(Command.review_play, { vertex: 'pass' }) }, t('game.pass')),
    h('button', { type: 'button', class: 'tool danger-text', title: t('review.delete_title'), onclick: deleteNode }, t('review.delete')));
  const navButton = (label, name, go) => h('button', { type: 'button', class: 'step', 'aria-label': label, title: label, onclick: go }, icon(name));
  navBar.append(h('div', { class: 'steps' },
    navButton(t('review.nav_start'), 'first', () => goTo(0)),
    navButton(t('review.previous'), 'previous', () => goTo(parentOf(here()))),
    navButton(t('review.next'), 'next', () => goTo(firstChild(here()))),
    navButton(t('review.nav_end'), 'last', () => goTo(endOfLine(here()))),
    h('span', { class: 'muted nav-hint' }, t('review.nav_hint'))));

  const iControl = () => !!st && !st.closed && ctx.user?.id === st.controller.id;
  const iOwn = () => !!st && ctx.user?.id === st.owner.id;

  // ---- state from the server ----

  function applySnapshot(s) {
    aim = null;
    local = null;
    st = fromSnapshot(s);
    if (!board || board.width !== s.width || board.height !== s.height) {
      board = new BoardView(s.width, s.height, { onPoint: clickPoint, ghost: ghostColor, label: t('review.board_label', { width: s.width, height: s.height }) });
      fill(boardHolder, board.el);
      boardHolder.style.setProperty('--ratio', String(board.aspect));
    }
    render();
  }

  // The next state (review_state.js); what is the page's own follows it.
  function applyUpdate(m) {
    const { st: next, gap } = reduce(st, m);
    if (gap) { join(); return; }  // an update was missed: the snapshot is the truth
    st = next;
    if (m.node && m.node.id === labelsSent.node) {  // the labels it shows are no longer on their way
      const shown = new Set((m.node.marks ?? []).filter((k) => k.mark === 'label').map((k) => k.label));
      labelsSent.letters = labelsSent.letters.filter((c) => !shown.has(c));
    }
    if (local && !st.nodes.has(local.node)) local = null;  // the line looked at is gone
    if (m.current === aim) aim = null;
    render();
  }

  // ---- navigation (the controller's: everyone else follows) ----

  const parentOf = (id) => (id === undefined ? undefined : st.nodes.get(id)?.parent);
  const firstChild = (id) => (id === undefined ? undefined : st.nodes.get(id)?.children[0]);
  function endOfLine(id) {
    if (id === undefined) return undefined;
    let at = id;
    while (st.nodes.get(at)?.children.length) at = st.nodes.get(at).children[0];
    return at;
  }
  // The commentary's node of the relayed game's latest move: its line followed from the root.
  function gameEnd() {
    let at = 0;
    for (const m of gameLine?.() ?? []) {
      const next = st.nodes.get(at)?.children.find((c) => st.nodes.get(c)?.color === m.color && st.nodes.get(c)?.vertex === m.vertex);
      if (next === undefined) break;
      at = next;
    }
    return at;
  }
  function goTo(node) {
    if (!st || node === undefined || node < 0 || node === here()) return;
    if (!iControl()) { look(node); return; }
    aim = node;
    send(Command.review_goto, { node });
  }

  // A follower's own look at a node: the line from the root, replayed by the server.
  async function look(node) {
    problem.textContent = '';
    const ticket = ++looking;
    if (node === st.current) { local = null; render(); return; }
    const path = [];
    for (let at = st.nodes.get(node); at; at = st.nodes.get(at.parent)) path.unshift(at);
    if (path.slice(1).some((n) => n.add_black.length || n.add_white.length || n.add_empty.length)) {
      problem.textContent = t('review.setup_line');
      return;
    }
    const body = {
      width: st.width, height: st.height, black: path[0].add_black, white: path[0].add_white,
      moves: path.slice(1).filter((n) => n.color).map((n) => ({ color: n.color, vertex: n.vertex })),
    };
    let position;
    try {
      try {
        position = await fetchJson('/api/v1/positions', { method: 'POST', body: st.rules ? { ...body, ruleset: st.rules } : body });
      } catch (err) {
        if (err.status !== 400 || !st.rules) throw err;  // rules the positions API does not name: the review's default
        position = await fetchJson('/api/v1/positions', { method: 'POST', body });
      }
    } catch (err) {
      if (ticket === looking) problem.textContent = err.message;
      return;
    }
    if (ticket !== looking || destroyed || !st.nodes.has(node)) return;
    local = { node, position };
    render();
  }

  // A command for the review; a refusal is said under the board (and returned, for blind mode).
  async function send(type, fields) {
    problem.textContent = '';
    try {
      await conn.command(type, { review: reviewId, ...fields });
      return null;
    } catch (err) {
      aim = null;
      problem.textContent = err.message;
      return err.message;
    }
  }

  function ghostColor() {
    if (!iControl() || tool !== 'play') return null;
    return st.position.to_move === 'black' ? 'b' : 'w';
  }

  let labelsSent = { node: -1, letters: [] };  // the labels of clickPoint awaiting their update

  function clickPoint(vertex, event) {
    if (!iControl()) return;
    const node = st.nodes.get(st.current);
    const existing = node.marks.find((k) => k.vertex === vertex);
    if (tool === 'play') {
      const other = event?.shiftKey ? (st.position.to_move === 'black' ? 'white' : 'black') : undefined;
      send(Command.review_play, other ? { vertex, color: other } : { vertex });
    } else if (existing && existing.mark === tool) {
      send(Command.review_mark, { vertex });  // the same mark again: cleared
    } else if (tool === 'label') {
      // Letters sent but not yet back count as used: two quick clicks label A and B, not A twice.
      if (labelsSent.node !== st.current) labelsSent = { node: st.current, letters: [] };
      const used = new Set(node.marks.filter((k) => k.mark === 'label').map((k) => k.label));
      for (const c of labelsSent.letters) used.add(c);
      const letter = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].find((c) => !used.has(c)) ?? '?';
      labelsSent.letters.push(letter);
      send(Command.review_mark, { vertex, mark: 'label', label: letter });
    } else {
      send(Command.review_mark, { vertex, mark: tool });
    }
  }

  function deleteNode() {
    if (!iControl() || st.current === 0) return;
    send(Command.review_delete, { node: st.current });
  }

  function saveComment(e) {
    e.preventDefault();
    if (!iControl()) return;
    send(Command.review_comment, { text: commentBox.value });
  }

  async function sendChat(e) {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    try {
      await conn.command(Command.review_chat, { review: reviewId, text });
      chatInput.value = '';
    } catch (err) {
      problem.textContent = err.message;
    }
  }

  async function invite(e) {
    e.preventDefault();
    const user = inviteName.value.trim();
    if (!user) return;
    problem.textContent = '';
    try {
      await conn.command(Command.review_invite, { review: reviewId, user });
      inviteName.value = '';
    } catch (err) {
      problem.textContent = err.message;
    }
  }

  // No longer invited: the room is closed to this reader.
  function removed() {
    st = null;
    fill(view, h('p', { class: 'panel empty', role: 'alert' }, t('review.removed')), h('p', {}, h('a', { href: '#/' }, t('review.to_lobby'))));
  }

  async function closeReview() {
    if (!iOwn() || !confirm(t('review.close_confirm'))) return;
    send(Command.review_close, {});
  }

  // ---- drawing ----

  function render() {
    if (!st || destroyed) return;
    title.textContent = st.title;
    subtitle.textContent = [`${st.width}×${st.height}`, t('settings.komi', { komi: st.komi }), rulesetName(st.rules || 'japanese'),
      t('review.by', { name: st.owner.name }), st.game ? t('title.game', { id: String(st.game) }) : ''].filter(Boolean).join(' · ');
    const index = (v) => { const p = parseVertex(v, st.width, st.height); return p ? p.y * st.width + p.x : null; };
    const at = shown();
    const position = pointsOf(shownPosition());
    const node = st.nodes.get(at);
    const labels = new Map();
    const shapes = [];
    for (const k of node?.marks ?? []) {
      const i = index(k.vertex);
      if (i === null) continue;
      if (k.mark === 'label') labels.set(i, k.label);
      else shapes.push({ i, shape: k.mark });
    }
    const last = node?.vertex && node.vertex !== 'pass' ? index(node.vertex) : null;
    // The engine's move here (review_engine.js), circled, unless a mark of the node's own is there.
    const best = index(engine.bestAt(at) ?? '');
    if (best !== null && !shapes.some((k) => k.i === best) && !labels.has(best)) shapes.push({ i: best, shape: 'circle' });
    board.render({ position, last, labels, shapes });

    const mine = iControl();
    toolbar.hidden = !mine;
    for (const b of toolbar.querySelectorAll('[data-tool]')) b.setAttribute('aria-pressed', String(b.dataset.tool === tool));
    board.el.classList.toggle('my-turn', mine && tool === 'play');
    view.classList.toggle('controlling', mine);
    whereLine.textContent = whereParts().join(' · ');
    backButton.hidden = !local;
    gameButton.hidden = !gameLine || !mine || here() === gameEnd();
    backButton.textContent = t('review.back_to', { name: st.controller.name });
    controlLine.textContent = st.closed ? '' : mine ? t('review.you_control')
      : local ? t('review.they_control_local', { name: st.controller.name })
        : t('review.they_control', { name: st.controller.name });

    // The comment: editable by whoever has control.
    commentForm.hidden = !mine;
    if (mine && document.activeElement !== commentBox) commentBox.value = node?.comment ?? '';
    commentText.hidden = mine;
    fill(commentText, node?.comment ? h('p', {}, node.comment) : h('p', { class: 'muted' }, t('review.no_comment')));

    // Handing control over: the owner to anyone following (and back to themselves at any time),
    // whoever has it to anyone following.
    const items = [];
    if (!st.closed && iOwn() && !mine) {
      items.push(h('button', { type: 'button', onclick: () => send(Command.review_control, { to: st.owner.name }) }, t('review.take_control')));
    }
    const candidates = st.followers.filter((u) => u.id !== st.controller.id && u.id !== ctx.user?.id);
    if (!st.closed && (iOwn() || mine) && candidates.length) {
      const pick = h('select', { 'aria-label': t('review.hand_to') }, ...candidates.map((u) => h('option', { value: u.name }, u.name)));
      items.push(h('label', {}, `${t('review.hand_to')} `), pick, h('button', { type: 'button', onclick: () => send(Command.review_control, { to: pick.value }) }, t('review.hand_over')));
    }
    const chosen = handOver.querySelector('select')?.value;
    fill(handOver, ...items);
    const again = handOver.querySelector('select');
    if (again && chosen && [...again.options].some((o) => o.value === chosen)) again.value = chosen;
    closeButton.hidden = !iOwn() || st.closed;
    closedNote.hidden = !st.closed;
    const names = st.followers.map((u) => u.name);
    if (st.guests) names.push(t('review.guests', { n: st.guests }));
    followersLine.textContent = names.length ? t('review.here', { names: names.join(', ') }) : '';
    renderPrivacy();
    drawTree();
    renderChat();
    engine.update();
    if (blind) {
      const first = blind.shown === null;
      blind.drawn(`${local ? 'own' : 'shared'}:${at}`);
      if (first) blind.focus();
    }
  }

  // The position shown: the follower's own look, or the shared board.
  function shownPosition() {
    return local ? local.position : st.position;
  }

  // Where the board shown is: the move (and whether the viewer looks around on their own), whose
  // turn, the captures.
  function whereParts() {
    const at = shown();
    const node = st.nodes.get(at);
    const where = shownPosition();
    const depth = depthOf(at);
    const move = node?.color ? `${colorName(node.color)} ${node.vertex === 'pass' ? t('review.passes') : node.vertex}` : t('review.the_start');
    const caps = where.captures;
    return [`${local ? `${t('review.on_your_own')} ` : ''}${depth ? t('review.move_n', { n: depth }) : move}`, ...(depth ? [move] : []),
      t('review.to_play', { color: colorName(where.to_move) }), t('review.captures', { black: caps.black, white: caps.white })];
  }

  function renderPrivacy() {
    privacyBox.hidden = !st.private;
    if (!st.private) return;
    const players = st.players.map((u) => u.name);
    const mayInvite = !st.closed && st.players.some((u) => u.id === ctx.user?.id);
    const invited = st.invited.map((u) => h('li', {}, u.name, mayInvite
      ? h('button', { type: 'button', class: 'link-button', 'aria-label': t('review.uninvite', { name: u.name }), title: t('review.uninvite', { name: u.name }), onclick: () => send(Command.review_invite, { user: u.name, remove: true }) }, '×')
      : null));
    const typed = document.activeElement === inviteName ? inviteName.value : null;
    fill(privacyBox,
      h('h2', {}, icon('lock'), ' ', t('review.private')),
      h('p', { class: 'muted' }, t('review.private_note', { black: players[0] ?? '', white: players[1] ?? '' })),
      invited.length ? h('p', {}, t('review.invited')) : null,
      invited.length ? h('ul', { class: 'invited' }, ...invited) : null,
      mayInvite ? inviteForm : null);
    if (typed !== null) { inviteName.value = typed; inviteName.focus(); }
  }

  function renderChat() {
    chatForm.hidden = !ctx.user || st.closed;
    chatGuest.hidden = !!ctx.user;
    const shown = `${st.chat.length}:${st.chat[st.chat.length - 1]?.seq ?? 0}`;
    if (chatLog.dataset.shown === shown) return;
    chatLog.dataset.shown = shown;
    fill(chatLog, ...st.chat.map((line) => h('li', { class: 'chat-line' }, h('strong', {}, line.from.name), ' ', line.text)));
    chatLog.scrollTop = chatLog.scrollHeight;
  }

  function depthOf(id) {
    let d = 0;
    for (let at = st.nodes.get(id); at && at.parent >= 0; at = st.nodes.get(at.parent)) d += 1;
    return d;
  }

  // The tree as rows: the main line on the first, each variation on a row of its own below,
  // starting under the move it branches from. Moves are numbered by their depth.
  function drawTree() {
    const place = new Map();  // id -> [column, row]
    let rows = 0;
    const todo = [[0, 0, 0]];
    while (todo.length) {
      let [id, col, row] = todo.pop();
      if (row === null) row = ++rows;  // a variation: the next free row, in depth-first order
      place.set(id, [col, row]);
      const kids = st.nodes.get(id)?.children ?? [];
      for (let k = kids.length - 1; k >= 1; k--) todo.push([kids[k], col + 1, null]);
      if (kids.length) todo.push([kids[0], col + 1, row]);
    }
    const cell = 26;
    let maxCol = 0;
    for (const [c] of place.values()) maxCol = Math.max(maxCol, c);
    const width = (maxCol + 1) * cell + 8;
    const height = (rows + 1) * cell + 8;
    const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'tree-svg', role: 'tree' });
    const at = (id) => { const [c, r] = place.get(id); return [c * cell + cell / 2 + 4, r * cell + cell / 2 + 4]; };
    for (const [id, n] of st.nodes) {
      if (n.parent < 0 || !place.has(n.parent) || !place.has(id)) continue;
      const [x1, y1] = at(n.parent);
      const [x2, y2] = at(id);
      root.append(svg('path', { d: y1 === y2 ? `M${x1},${y1}L${x2},${y2}` : `M${x1},${y1}L${x2 - cell / 2},${y2}L${x2},${y2}`, class: 'edge' }));
    }
    for (const [id, n] of st.nodes) {
      if (!place.has(id)) continue;
      const [x, y] = at(id);
      const cls = `node ${n.color ?? 'root'}${id === st.current ? ' current' : ''}${local && id === local.node ? ' looked' : ''}${n.comment ? ' commented' : ''}`;
      const named = n.color ? `${t('review.move_n', { n: depthOf(id) })} · ${colorName(n.color)} ${n.vertex}` : t('review.the_start');
      const g = svg('g', { class: cls, 'data-node': id, role: 'treeitem', 'aria-label': named });
      g.append(svg('circle', { cx: x, cy: y, r: id === st.current ? 10 : 8 }));
      const number = svg('text', { x, y });
      number.textContent = n.color ? String(depthOf(id)) : '◆';
      g.append(number);
      g.addEventListener('click', () => goTo(id));
      root.append(g);
    }
    fill(treeHolder, root);
    if (place.has(shown())) {
      const [x, y] = at(shown());
      if (x < treeHolder.scrollLeft || x > treeHolder.scrollLeft + treeHolder.clientWidth - cell) treeHolder.scrollLeft = x - treeHolder.clientWidth / 2;
      if (y < treeHolder.scrollTop || y > treeHolder.scrollTop + treeHolder.clientHeight - cell) treeHolder.scrollTop = y - treeHolder.clientHeight / 2;
    }
  }

  // ---- the connection ----

  function join() {
    conn.command(Command.review_join, { review: reviewId }, { resend: false }).catch((err) => {
      fill(boardHolder, h('p', { class: 'empty' }, err.message));
    });
  }
  function onMessage(e) {
    const m = e.detail;
    if (m.review !== reviewId) return;
    if (m.type === Message.review_snapshot) applySnapshot(m);
    else if (m.type === Message.review_update && m.change === Enum.ReviewChange.removed) removed();
    else if (m.type === Message.review_update && st) applyUpdate(m);
    else if (m.type === Message.review_followers && st) { st = reduce(st, m).st; render(); }
  }
  function onKey(e) {
    if (!st || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest?.('input, textarea, select, [contenteditable]')) return;
    const siblings = () => st.nodes.get(parentOf(here()))?.children ?? [];
    const sibling = (step) => { const s = siblings(); const i = s.indexOf(here()); return s[i + step]; };
    const keys = {
      ArrowLeft: () => goTo(parentOf(here())), ArrowRight: () => goTo(firstChild(here())),
      ArrowUp: () => goTo(sibling(-1)), ArrowDown: () => goTo(sibling(1)),
      Home: () => goTo(0), End: () => goTo(endOfLine(here())),
    };
    if (!keys[e.key]) return;
    e.preventDefault();
    keys[e.key]();
  }
  const onOpen = () => join();
  // A relay's page says when the game's line changed (its own board's update may come after ours).
  const onGameLine = () => render();
  if (gameLine) root.addEventListener('game-line', onGameLine);
  conn.addEventListener('message', onMessage);
  conn.addEventListener('open', onOpen);
  document.addEventListener('keydown', onKey);
  if (conn.isOpen) join();

  return () => {
    destroyed = true;
    engine.destroy();
    conn.removeEventListener('message', onMessage);
    conn.removeEventListener('open', onOpen);
    document.removeEventListener('keydown', onKey);
    root.removeEventListener('game-line', onGameLine);
    if (conn.isOpen) conn.command(Command.review_leave, { review: reviewId }, { resend: false }).catch(() => {});
  };
}

// A position's board string as the board view takes it (b, w or null per point).
export const pointsOf = (position) => [...position.board].map((c) => (c === 'b' ? 'b' : c === 'w' ? 'w' : null));

const QUIET_MS = 24 * 3600 * 1000;

// The lobby's list of open reviews and the ways to start one.
export function reviewsCard(ctx) {
  const list = h('ul', { class: 'live-reviews' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const size = h('select', { name: 'demo-size', 'aria-label': t('quick.board_size') }, ...[19, 13, 9].map((n) => h('option', { value: n }, `${n}×${n}`)));
  const file = h('input', { type: 'file', accept: '.sgf,application/x-go-sgf', 'aria-label': t('review.upload'), class: 'sgf-file' });
  const start = async (source) => {
    problem.textContent = '';
    try {
      await openReview(ctx, source);
    } catch (err) {
      problem.textContent = err.message;
    }
  };
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    if (f.size > 200 * 1024) { problem.textContent = t('review.file_too_large'); return; }
    start({ sgf: await f.text() });
    file.value = '';
  });
  const tools = ctx.user
    ? h('div', { class: 'review-start' },
      h('div', { class: 'row' }, size, h('button', { type: 'button', onclick: () => start({ size: Number(size.value), title: t('review.demo_title') }) }, t('review.new_demo'))),
      h('label', { class: 'upload' }, `${t('review.upload')} `, file), problem)
    : h('p', { class: 'muted' }, ...tn('review.guest', { link: h('a', { href: '#/login' }, t('nav.log_in')) }));
  const el = h('section', { class: 'card lobby-reviews' }, h('h2', {}, t('review.card_title')), list, tools);
  async function load() {
    try {
      const { reviews: all } = await fetchJson('/api/v1/reviews');
      // What is going on: followed now, or changed in the last day; the quiet ones counted.
      const live = (r) => r.followers > 0 || Date.now() - (r.active_at_ms ?? 0) < QUIET_MS || r.owner.id === ctx.user?.id;
      const reviews = all.filter(live);
      const quiet = all.length - reviews.length;
      const quietNote = quiet ? h('li', { class: 'muted quiet' }, tn('review.quiet', { n: quiet })) : null;
      if (!reviews.length) fill(list, h('li', { class: 'empty' }, t('review.none')), quietNote);
      else fill(list, ...reviews.slice(0, 20).map((r) => h('li', {},
        h('a', { href: `#/review/${r.id}` }, r.title),
        r.private ? h('span', { class: 'tag', title: t('review.private_title') }, icon('lock'), ` ${t('review.private')}`) : null,
        h('span', { class: 'muted' }, ` ${t('review.by', { name: r.owner.name })} · ${r.width}×${r.height} · ${t('review.moves', { n: r.nodes - 1 })} · ${t('review.n_here', { n: r.followers })}`))), quietNote);
    } catch (err) {
      fill(list, h('li', { class: 'empty' }, err.message));
    }
  }
  return { el, load };
}
