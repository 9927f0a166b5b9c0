// A review room's state from what the server says (docs/reviews.md, docs/web-client.md "The
// game page's state"): the state a `review_snapshot` starts, and a pure function of the state and
// one `review_update` (or `review_followers`) giving the next. No page, nothing sent: the page
// (review_room.js) holds the state, renders it and keeps what is its own (the line a follower
// looks at, where the controller is going, labels on their way). tests/web/review_state.test.mjs
// feeds it the wire fixture's messages in Node.
import { Enum, Message } from './wire.js';

export const MAX_CHAT_LINES = 300;  // kept in the page

// The state a snapshot starts: its nodes by id, each with its children in order.
export function fromSnapshot(s) {
  const nodes = new Map();
  for (const n of s.nodes) nodes.set(n.id, { ...n, children: [] });
  for (const n of s.nodes) if (n.parent >= 0) nodes.get(n.parent)?.children.push(n.id);
  return {
    seq: s.seq, title: s.title, owner: s.owner, controller: s.controller, width: s.width, height: s.height,
    komi: s.komi, rules: s.rules, game: s.game, nodes, current: s.current, position: s.position,
    followers: s.followers, guests: s.guests, closed: s.closed, chat: [...(s.chat ?? [])],
    private: !!s.private, players: s.players ?? [], invited: s.invited ?? [],
  };
}

// The nodes without `id` and everything below it.
function withoutSubtree(nodes, id) {
  const node = nodes.get(id);
  if (!node) return nodes;
  const next = new Map(nodes);
  const parent = next.get(node.parent);
  if (parent) next.set(parent.id, { ...parent, children: parent.children.filter((c) => c !== id) });
  const todo = [id];
  while (todo.length) {
    const n = next.get(todo.pop());
    if (!n) continue;
    next.delete(n.id);
    todo.push(...n.children);
  }
  return next;
}

// The next state after `m`, or { gap: true } when an update was missed (its seq is not the next
// one): then the snapshot is the truth, and the page joins again. `st` is not changed.
export function reduce(st, m) {
  if (m.type === Message.review_followers) return { st: { ...st, followers: m.followers, guests: m.guests }, gap: false };
  if (m.type !== Message.review_update) return { st, gap: false };
  if (m.seq !== st.seq + 1) return { st, gap: true };
  const next = { ...st, seq: m.seq, current: m.current };
  if (m.node) {
    const nodes = new Map(st.nodes);
    const old = nodes.get(m.node.id);
    nodes.set(m.node.id, { ...m.node, children: old ? old.children : [] });
    const parent = nodes.get(m.node.parent);
    if (!old && parent) nodes.set(parent.id, { ...parent, children: [...parent.children, m.node.id] });
    next.nodes = nodes;
  }
  switch (m.change) {
    case Enum.ReviewChange.deleted: next.nodes = withoutSubtree(next.nodes, m.deleted); break;
    case Enum.ReviewChange.control: next.controller = m.controller; break;
    case Enum.ReviewChange.invited: next.invited = m.invited ?? []; break;
    case Enum.ReviewChange.closed: next.closed = true; break;
    case Enum.ReviewChange.chat:
      if (m.line) next.chat = [...st.chat, m.line].slice(-MAX_CHAT_LINES);
      break;
    default: break;
  }
  if (m.position) next.position = m.position;
  return { st: next, gap: false };
}
