// A review room's state (web/js/review_state.js) in Node, fed the wire fixture's own messages
// (tests/fixtures/wire/v1.txt): the state a review_snapshot starts, then review updates of every
// kind the fixture holds and the followers, each applied to a deeply frozen state.
//   node --test tests/web/review_state.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fromSnapshot, reduce, MAX_CHAT_LINES } from '../../web/js/review_state.js';

const fixture = new Map(readFileSync(new URL('../fixtures/wire/v1.txt', import.meta.url), 'utf8')
  .split('\n').filter(Boolean).map((line) => {
    const tab = line.indexOf('\t');
    return [line.slice(0, tab), JSON.parse(line.slice(tab + 1))];
  }));
const message = (name) => structuredClone(fixture.get(`server ${name}`) ?? assert.fail(`no fixture line 'server ${name}'`));

function frozen(value) {
  if (value instanceof Map) {
    if (Object.isFrozen(value)) return value;
    for (const v of value.values()) frozen(v);
    for (const method of ['set', 'delete', 'clear']) value[method] = () => { throw new TypeError('a frozen Map'); };
    return Object.freeze(value);
  }
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) frozen(v);
  }
  return value;
}

// The fixture's snapshot (seq 4: the root with C3, White's E5 below it), and an update's message
// renumbered to come next.
const snapshot = () => frozen(fromSnapshot(message('review_snapshot')));
const next = (st, name, extra = {}) => ({ ...message(name), seq: st.seq + 1, ...extra });

test('a snapshot: its nodes by id, each with its children', () => {
  const st = snapshot();
  assert.deepEqual([...st.nodes.keys()], [0, 1]);
  assert.deepEqual(st.nodes.get(0).children, [1]);
  assert.equal(st.current, 1);
  assert.equal(st.controller.name, 'bob');
});

test('a node added below the current one, the old state unchanged', () => {
  const st = snapshot();
  const { st: after, gap } = reduce(st, next(st, 'review_update, node added'));
  assert.equal(gap, false);
  assert.deepEqual(after.nodes.get(1).children, [2]);
  assert.equal(after.nodes.get(2).vertex, 'pass');
  assert.equal(after.current, 2);
  assert.equal(after.seq, st.seq + 1);
  assert.deepEqual(st.nodes.get(1).children, [], 'the state given keeps its nodes');
  assert.equal(st.nodes.has(2), false);
});

test('a missed update is a gap: the page joins again', () => {
  const st = snapshot();
  const { st: same, gap } = reduce(st, { ...message('review_update, control'), seq: st.seq + 2 });
  assert.equal(gap, true);
  assert.equal(same, st);
});

test('a deleted node goes with everything below it', () => {
  let st = snapshot();
  st = reduce(st, next(st, 'review_update, node added')).st;  // 2 below 1
  const deeper = next(st, 'review_update, node added');
  deeper.node = { ...deeper.node, id: 3, parent: 2, vertex: 'D4' };
  st = frozen(reduce(st, deeper).st);
  const { st: after } = reduce(st, next(st, 'review_update, control', { change: 'deleted', deleted: 2, current: 1 }));
  assert.deepEqual([...after.nodes.keys()], [0, 1]);
  assert.deepEqual(after.nodes.get(1).children, []);
  assert.deepEqual([...st.nodes.keys()], [0, 1, 2, 3], 'the state given keeps them');
});

test('control, invitations, chat to its bound, closing, followers', () => {
  let st = snapshot();
  st = reduce(st, next(st, 'review_update, control')).st;
  assert.equal(st.controller.name, 'carol');
  st = reduce(frozen(st), next(st, 'review_update, invited')).st;
  assert.deepEqual(st.invited.map((u) => u.name), ['dan']);
  for (let i = 0; i < MAX_CHAT_LINES + 1; i++) st = reduce(frozen(st), next(st, 'review_update, chat')).st;
  assert.equal(st.chat.length, MAX_CHAT_LINES);
  st = reduce(frozen(st), next(st, 'review_update, control', { change: 'closed' })).st;
  assert.equal(st.closed, true);
  const followers = reduce(frozen(st), message('review_followers')).st;
  assert.deepEqual(followers.followers.map((u) => u.name), ['bob', 'carol']);
  assert.equal(followers.guests, 2);
  assert.equal(followers.seq, st.seq, 'followers are not a numbered update');
});

test('every review update of the fixture is taken', () => {
  for (const [name] of fixture) {
    if (!name.startsWith('server review_update')) continue;
    const st = snapshot();
    assert.doesNotThrow(() => reduce(st, next(st, name.slice('server '.length))), name);
  }
});
