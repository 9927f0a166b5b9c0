// A review or demonstration board (docs/reviews.md): a tree of variations on the server, driven
// by whoever has control and followed live by everyone in the room. The view holds no rules:
// every move is the server's (review_play), and the board it draws is the position the server
// sends with each change of node.
import { h, fill, svg, parseVertex } from './util.js';
import { BoardView } from './board.js';
import { fetchJson } from './api.js';
import { icon } from './review.js';

const TOOLS = [
  ['play', 'Stone', 'Play a move (either colour: the side to move, or hold Shift for the other)'],
  ['triangle', '△', 'Triangle'],
  ['square', '□', 'Square'],
  ['circle', '○', 'Circle'],
  ['cross', '✕', 'Cross'],
  ['label', 'A', 'Letter label: the next free letter'],
];
const COLOR_NAME = { black: 'Black', white: 'White' };

// Opens a review from a source ({game}, {sgf}, or {size, komi, ruleset}) and goes to it.
export async function openReview(ctx, source) {
  const { review } = await fetchJson('/api/v1/reviews', { method: 'POST', body: source });
  ctx.navigate(`#/review/${review.id}`);
}

export function mountReviewRoom(root, ctx, reviewId) {
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

  const title = h('h1', { class: 'game-title' }, `Review ${reviewId}`);
  const subtitle = h('p', { class: 'game-settings' });
  const sgfLink = h('a', { href: `/api/v1/reviews/${reviewId}.sgf`, download: `tengen-review-${reviewId}.sgf`, class: 'sgf' }, 'Download SGF');
  const boardHolder = h('div', { class: 'board-holder' });
  const toolbar = h('div', { class: 'review-tools', role: 'toolbar', 'aria-label': 'Board tools', hidden: true });
  const navBar = h('div', { class: 'review-bar review-nav' });
  const problem = h('p', { class: 'analysis-error', role: 'alert' });
  const backButton = h('button', { type: 'button', class: 'back-to-board', hidden: true, onclick: () => { local = null; looking += 1; render(); } }, 'Back to the shared board');
  const whereLine = h('p', { class: 'review-where', 'aria-live': 'polite' });
  const controlLine = h('p', { class: 'status review-control', role: 'status', 'aria-live': 'polite' });
  const handOver = h('div', { class: 'hand-over' });
  const commentBox = h('textarea', { name: 'comment', rows: 4, maxlength: 4000, placeholder: 'A comment on this move…', 'aria-label': 'Comment on this node' });
  const commentSave = h('button', { type: 'submit' }, 'Save comment');
  const commentForm = h('form', { class: 'comment-form', onsubmit: saveComment }, commentBox, commentSave);
  const commentText = h('div', { class: 'comment-text', 'aria-live': 'polite' });
  const treeHolder = h('div', { class: 'review-tree', 'aria-label': 'Variations' });
  const followersLine = h('p', { class: 'muted followers' });
  // Focusable, so that a keyboard can scroll it.
  const chatLog = h('ol', { class: 'chat-log', 'aria-live': 'polite', 'aria-label': 'Chat messages', tabindex: '0' });
  const chatInput = h('input', { name: 'chat', maxlength: 1000, autocomplete: 'off', placeholder: 'Ask or answer…', 'aria-label': 'Chat message' });
  const chatForm = h('form', { class: 'chat-form', onsubmit: sendChat }, chatInput, h('button', { type: 'submit' }, 'Send'));
  const chatGuest = h('p', { class: 'muted' }, h('a', { href: '#/login' }, 'Log in'), ' to chat.');
  const closeButton = h('button', { class: 'danger-quiet', hidden: true, onclick: closeReview }, 'Close review');
  const closedNote = h('p', { class: 'panel result', hidden: true }, 'This review is closed. Its record stays downloadable.');
  const view = h('div', { class: 'game review-room' },
    h('div', { class: 'board-area' }, boardHolder, whereLine, backButton, toolbar, navBar, problem),
    h('aside', { class: 'side' },
      h('header', { class: 'game-head' }, title, subtitle, h('div', { class: 'row' }, sgfLink, closeButton)),
      closedNote, controlLine, handOver,
      h('section', { class: 'comment' }, h('h2', {}, 'Comment'), commentText, commentForm),
      h('section', { class: 'tree' }, h('h2', {}, 'Variations'), treeHolder),
      followersLine,
      h('section', { class: 'chat' }, h('h2', {}, 'Chat'), chatLog, chatForm, chatGuest)));
  fill(root, view);
  fill(boardHolder, h('p', { class: 'empty' }, 'Connecting…'));

  for (const [name, text, label] of TOOLS) {
    toolbar.append(h('button', { type: 'button', class: 'tool', dataset: { tool: name }, title: label, 'aria-label': label, 'aria-pressed': String(name === tool), onclick: () => { tool = name; render(); } }, text));
  }
  toolbar.append(h('button', { type: 'button', class: 'tool', title: 'Pass', onclick: () => send('review_play', { vertex: 'pass' }) }, 'Pass'),
    h('button', { type: 'button', class: 'tool danger-text', title: 'Delete this move and the lines after it', onclick: deleteNode }, 'Delete'));
  const navButton = (label, name, go) => h('button', { type: 'button', class: 'step', 'aria-label': label, title: label, onclick: go }, icon(name));
  navBar.append(h('div', { class: 'steps' },
    navButton('Start (Home)', 'first', () => goTo(0)),
    navButton('Previous move (←)', 'previous', () => goTo(parentOf(here()))),
    navButton('Next move (→)', 'next', () => goTo(firstChild(here()))),
    navButton('End of this line (End)', 'last', () => goTo(endOfLine(here()))),
    h('span', { class: 'muted nav-hint' }, '↑ ↓ switch variation')));

  const iControl = () => !!st && !st.closed && ctx.user?.id === st.controller.id;
  const iOwn = () => !!st && ctx.user?.id === st.owner.id;

  // ---- state from the server ----

  function applySnapshot(s) {
    aim = null;
    local = null;
    const nodes = new Map();
    for (const n of s.nodes) nodes.set(n.id, { ...n, children: [] });
    for (const n of s.nodes) if (n.parent >= 0) nodes.get(n.parent)?.children.push(n.id);
    st = {
      seq: s.seq, title: s.title, owner: s.owner, controller: s.controller, width: s.width, height: s.height,
      komi: s.komi, rules: s.rules, game: s.game, nodes, current: s.current, position: s.position,
      followers: s.followers, guests: s.guests, closed: s.closed, chat: [...(s.chat ?? [])],
    };
    if (!board || board.width !== s.width || board.height !== s.height) {
      board = new BoardView(s.width, s.height, { onPoint: clickPoint, ghost: ghostColor, label: `Review board, ${s.width} by ${s.height}` });
      fill(boardHolder, board.el);
      boardHolder.style.setProperty('--ratio', String(board.aspect));
    }
    render();
  }

  function applyUpdate(m) {
    if (m.seq !== st.seq + 1) { join(); return; }  // a gap: the snapshot is the truth
    st.seq = m.seq;
    if (m.node) {
      const old = st.nodes.get(m.node.id);
      st.nodes.set(m.node.id, { ...m.node, children: old ? old.children : [] });
      if (!old && m.node.parent >= 0) st.nodes.get(m.node.parent)?.children.push(m.node.id);
    }
    if (m.change === 'deleted') removeSubtree(m.deleted);
    if (local && !st.nodes.has(local.node)) local = null;  // the line looked at is gone
    if (m.change === 'control') st.controller = m.controller;
    if (m.change === 'closed') st.closed = true;
    if (m.change === 'chat' && m.line) {
      st.chat.push(m.line);
      if (st.chat.length > 300) st.chat.shift();
    }
    st.current = m.current;
    if (m.current === aim) aim = null;
    if (m.position) st.position = m.position;
    render();
  }

  function removeSubtree(id) {
    const node = st.nodes.get(id);
    if (!node) return;
    const parent = st.nodes.get(node.parent);
    if (parent) parent.children = parent.children.filter((c) => c !== id);
    const todo = [id];
    while (todo.length) {
      const n = st.nodes.get(todo.pop());
      if (!n) continue;
      st.nodes.delete(n.id);
      todo.push(...n.children);
    }
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
  function goTo(node) {
    if (!st || node === undefined || node < 0 || node === here()) return;
    if (!iControl()) { look(node); return; }
    aim = node;
    send('review_goto', { node });
  }

  // A follower's own look at a node: the line from the root, replayed by the server.
  async function look(node) {
    problem.textContent = '';
    const ticket = ++looking;
    if (node === st.current) { local = null; render(); return; }
    const path = [];
    for (let at = st.nodes.get(node); at; at = st.nodes.get(at.parent)) path.unshift(at);
    if (path.slice(1).some((n) => n.add_black.length || n.add_white.length || n.add_empty.length)) {
      problem.textContent = 'This line has stones set up along it: the shared board shows it when it gets there.';
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

  async function send(type, fields) {
    problem.textContent = '';
    try {
      await conn.command(type, { review: reviewId, ...fields });
    } catch (err) {
      aim = null;
      problem.textContent = err.message;
    }
  }

  function ghostColor() {
    if (!iControl() || tool !== 'play') return null;
    return st.position.to_move === 'black' ? 'b' : 'w';
  }

  function clickPoint(vertex, event) {
    if (!iControl()) return;
    const node = st.nodes.get(st.current);
    const existing = node.marks.find((k) => k.vertex === vertex);
    if (tool === 'play') {
      const other = event?.shiftKey ? (st.position.to_move === 'black' ? 'white' : 'black') : undefined;
      send('review_play', other ? { vertex, color: other } : { vertex });
    } else if (existing && existing.mark === tool) {
      send('review_mark', { vertex });  // the same mark again: cleared
    } else if (tool === 'label') {
      const used = new Set(node.marks.filter((k) => k.mark === 'label').map((k) => k.label));
      const letter = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].find((c) => !used.has(c)) ?? '?';
      send('review_mark', { vertex, mark: 'label', label: letter });
    } else {
      send('review_mark', { vertex, mark: tool });
    }
  }

  function deleteNode() {
    if (!iControl() || st.current === 0) return;
    send('review_delete', { node: st.current });
  }

  function saveComment(e) {
    e.preventDefault();
    if (!iControl()) return;
    send('review_comment', { text: commentBox.value });
  }

  async function sendChat(e) {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    try {
      await conn.command('review_chat', { review: reviewId, text });
      chatInput.value = '';
    } catch (err) {
      problem.textContent = err.message;
    }
  }

  async function closeReview() {
    if (!iOwn() || !confirm('Close this review? Nobody can change it afterwards; it stays downloadable.')) return;
    send('review_close', {});
  }

  // ---- drawing ----

  function render() {
    if (!st || destroyed) return;
    title.textContent = st.title;
    subtitle.textContent = `${st.width}×${st.height} · komi ${st.komi} · ${st.rules || 'japanese'} rules · by ${st.owner.name}` +
      (st.game ? ` · game ${st.game}` : '');
    const index = (v) => { const p = parseVertex(v, st.width, st.height); return p ? p.y * st.width + p.x : null; };
    const at = shown();
    const where = local ? local.position : st.position;
    const position = [...where.board].map((c) => (c === 'b' ? 'b' : c === 'w' ? 'w' : null));
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
    board.render({ position, last, labels, shapes });

    const mine = iControl();
    toolbar.hidden = !mine;
    for (const b of toolbar.querySelectorAll('[data-tool]')) b.setAttribute('aria-pressed', String(b.dataset.tool === tool));
    board.el.classList.toggle('my-turn', mine && tool === 'play');
    view.classList.toggle('controlling', mine);
    const depth = depthOf(at);
    const move = node?.color ? `${COLOR_NAME[node.color]} ${node.vertex === 'pass' ? 'passes' : node.vertex}` : 'The start';
    const caps = where.captures;
    whereLine.textContent = `${local ? 'On your own: ' : ''}${depth ? `Move ${depth} · ${move}` : move} · ${COLOR_NAME[where.to_move]} to play · captures: Black ${caps.black}, White ${caps.white}`;
    backButton.hidden = !local;
    backButton.textContent = `Back to ${st.controller.name}'s board`;
    controlLine.textContent = st.closed ? '' : mine ? 'You have control.'
      : local ? `${st.controller.name} has control; you are looking around on your own.`
        : `${st.controller.name} has control; you follow the board. Step or click the tree to look around on your own.`;

    // The comment: editable by whoever has control.
    commentForm.hidden = !mine;
    if (mine && document.activeElement !== commentBox) commentBox.value = node?.comment ?? '';
    commentText.hidden = mine;
    fill(commentText, node?.comment ? h('p', {}, node.comment) : h('p', { class: 'muted' }, 'No comment on this move.'));

    // Handing control over: the owner to anyone following (and back to themselves at any time),
    // whoever has it to anyone following.
    const items = [];
    if (!st.closed && iOwn() && !mine) {
      items.push(h('button', { type: 'button', onclick: () => send('review_control', { to: st.owner.name }) }, 'Take control back'));
    }
    const candidates = st.followers.filter((u) => u.id !== st.controller.id && u.id !== ctx.user?.id);
    if (!st.closed && (iOwn() || mine) && candidates.length) {
      const pick = h('select', { 'aria-label': 'Hand control to' }, ...candidates.map((u) => h('option', { value: u.name }, u.name)));
      items.push(h('label', {}, 'Hand control to '), pick, h('button', { type: 'button', onclick: () => send('review_control', { to: pick.value }) }, 'Hand over'));
    }
    const chosen = handOver.querySelector('select')?.value;
    fill(handOver, ...items);
    const again = handOver.querySelector('select');
    if (again && chosen && [...again.options].some((o) => o.value === chosen)) again.value = chosen;
    closeButton.hidden = !iOwn() || st.closed;
    closedNote.hidden = !st.closed;
    const names = st.followers.map((u) => u.name);
    if (st.guests) names.push(`${st.guests} guest${st.guests === 1 ? '' : 's'}`);
    followersLine.textContent = names.length ? `Here: ${names.join(', ')}` : '';
    drawTree();
    renderChat();
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
      const g = svg('g', { class: cls, 'data-node': id, role: 'treeitem', 'aria-label': n.color ? `${COLOR_NAME[n.color]} ${n.vertex}` : 'The start' });
      g.append(svg('circle', { cx: x, cy: y, r: id === st.current ? 10 : 8 }));
      const t = svg('text', { x, y });
      t.textContent = n.color ? String(depthOf(id)) : '◆';
      g.append(t);
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
    conn.command('review_join', { review: reviewId }, { resend: false }).catch((err) => {
      fill(boardHolder, h('p', { class: 'empty' }, err.message));
    });
  }
  function onMessage(e) {
    const m = e.detail;
    if (m.review !== reviewId) return;
    if (m.type === 'review_snapshot') applySnapshot(m);
    else if (m.type === 'review_update' && st) applyUpdate(m);
    else if (m.type === 'review_followers' && st) { st.followers = m.followers; st.guests = m.guests; render(); }
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
  conn.addEventListener('message', onMessage);
  conn.addEventListener('open', onOpen);
  document.addEventListener('keydown', onKey);
  if (conn.isOpen) join();

  return () => {
    destroyed = true;
    conn.removeEventListener('message', onMessage);
    conn.removeEventListener('open', onOpen);
    document.removeEventListener('keydown', onKey);
    if (conn.isOpen) conn.command('review_leave', { review: reviewId }, { resend: false }).catch(() => {});
  };
}

// The lobby's list of open reviews and the ways to start one.
export function reviewsCard(ctx) {
  const list = h('ul', { class: 'live-reviews' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const size = h('select', { name: 'demo-size', 'aria-label': 'Board size' }, ...[19, 13, 9].map((n) => h('option', { value: n }, `${n}×${n}`)));
  const file = h('input', { type: 'file', accept: '.sgf,application/x-go-sgf', 'aria-label': 'SGF file to review', class: 'sgf-file' });
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
    if (f.size > 200 * 1024) { problem.textContent = 'That file is over 200 KiB: an SGF of a game is a few KiB.'; return; }
    start({ sgf: await f.text() });
    file.value = '';
  });
  const tools = ctx.user
    ? h('div', { class: 'review-start' },
      h('div', { class: 'row' }, size, h('button', { type: 'button', onclick: () => start({ size: Number(size.value) }) }, 'New demo board')),
      h('label', { class: 'upload' }, 'Review an SGF file: ', file), problem)
    : h('p', { class: 'muted' }, h('a', { href: '#/login' }, 'Log in'), ' to open a review board. Anyone may follow one.');
  const el = h('section', { class: 'card lobby-reviews' }, h('h2', {}, 'Reviews and demonstrations'), list, tools);
  async function load() {
    try {
      const { reviews } = await fetchJson('/api/v1/reviews');
      if (!reviews.length) fill(list, h('li', { class: 'empty' }, 'No reviews right now.'));
      else fill(list, ...reviews.slice(0, 20).map((r) => h('li', {},
        h('a', { href: `#/review/${r.id}` }, r.title),
        h('span', { class: 'muted' }, ` by ${r.owner.name} · ${r.width}×${r.height} · ${r.nodes - 1} moves · ${r.followers} here`))));
    } catch (err) {
      fill(list, h('li', { class: 'empty' }, err.message));
    }
  }
  return { el, load };
}
