// The game page's state (web/js/game_state.js) in Node, fed the wire fixture's own messages
// (tests/fixtures/wire/v1.txt, the text the server's codec is held to): the state a snapshot
// starts, then every room event type, each applied to a deeply frozen state (so that changing
// the state it was given throws), with what the page must do besides.
//   node --test tests/web/game_state.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fromSnapshot, reduce, freePlacementPending, MAX_CHAT_LINES, teamOf, memberToMove, sideName } from '../../web/js/game_state.js';
import { Message } from '../../web/js/wire.js';

const fixture = new Map(readFileSync(new URL('../fixtures/wire/v1.txt', import.meta.url), 'utf8')
  .split('\n').filter(Boolean).map((line) => {
    const tab = line.indexOf('\t');
    return [line.slice(0, tab), JSON.parse(line.slice(tab + 1))];
  }));
const message = (name) => structuredClone(fixture.get(`server ${name}`) ?? assert.fail(`no fixture line 'server ${name}'`));

function frozen(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) frozen(v);
  }
  return value;
}

// A game in play between ann (1, Black) and bob (2, White), as ann sees it, from a snapshot
// whose moves are given.
function playing(moves = [], extra = {}) {
  const s = message('snapshot, bare');
  Object.assign(s, { phase: 'playing', role: 'black', to_move: moves.length % 2 ? 'white' : 'black', moves,
    white: { id: 2, name: 'bob' }, clock: null, ...extra });
  s.settings = { ...s.settings, width: 9, height: 9, handicap: 0, rated: true };
  return frozen(fromSnapshot(s, { now: 1000 }));
}
const apply = (st, m, viewer = 1) => reduce(st, m, { now: 5000, viewer });

test('a snapshot: the position rebuilt from its moves, with what each took', () => {
  const st = playing([{ color: 'black', vertex: 'B1' }, { color: 'white', vertex: 'A1' }, { color: 'black', vertex: 'A2' }]);
  assert.equal(st.position.points[st.position.index('A1')], null, 'White A1 taken by A2');
  assert.deepEqual(st.moves.map((m) => m.captured), [[], [], ['A1']]);
  assert.deepEqual(st.lastMove, { color: 'black', vertex: 'A2', captured: 0 });
  assert.equal(st.toMove, 'white');
  const full = fromSnapshot(message('snapshot, full'), { now: 7 });
  assert.equal(full.seq, message('snapshot, full').seq);
  assert.deepEqual(full.absent.map((a) => a.at), [7, 7], 'absences counted from now');
  assert.equal(full.chat.length, message('snapshot, full').chat.length);
});

test('a move: stones, captures, clock, turn; the state given is not changed', () => {
  const st = playing([{ color: 'black', vertex: 'C3' }, { color: 'white', vertex: 'D3' }, { color: 'black', vertex: 'E5' }, { color: 'white', vertex: 'D4' }]);
  // The fixture's timed move (White's), played here at E3, away from the stones above.
  const m = message('move, timed');
  m.captured = [];
  m.vertex = 'E3';
  const { st: next, effects } = apply(st, m);
  assert.equal(next.position.points[next.position.index('E3')], 'w');
  assert.equal(st.position.points[st.position.index('E3')], null, 'the old position stays');
  assert.equal(next.moves.length, 5);
  assert.equal(next.toMove, 'black');
  assert.deepEqual(next.clock, m.clock);
  assert.equal(next.clockAt, 5000);
  assert.deepEqual(effects, ['turn']);
  // A capture: Black surrounds White's E3.
  const taking = { ...message('move, untimed pass'), vertex: 'E2', color: 'black', captured: [] };
  let s2 = apply(next, taking).st;
  s2 = apply(s2, { ...message('move, untimed pass'), color: 'white', vertex: 'J9', captured: [] }).st;
  s2 = apply(s2, { ...message('move, untimed pass'), color: 'black', vertex: 'F3', captured: [] }).st;
  s2 = apply(s2, { ...message('move, untimed pass'), color: 'white', vertex: 'J8', captured: [] }).st;
  const took = apply(frozen(s2), { ...message('move, untimed pass'), color: 'black', vertex: 'E4', captured: ['E3'] }).st;
  assert.equal(took.position.points[took.position.index('E3')], null);
  assert.equal(took.captures.black, s2.captures.black + 1);
});

test('a pass is a move without a stone', () => {
  const st = playing([{ color: 'black', vertex: 'C3' }]);
  const pass = { ...message('move, untimed pass'), color: 'white' };
  const { st: next } = apply(st, pass);
  assert.deepEqual(next.position.points, st.position.points);
  assert.equal(next.moves.at(-1).vertex, 'pass');
  assert.equal(next.lastMove.vertex, 'pass');
  assert.equal(next.toMove, 'black');
});

test('undo asked and allowed: a fresh snapshot is asked for', () => {
  const st = playing([{ color: 'black', vertex: 'C3' }]);
  const asked = apply(st, message('undo_requested')).st;
  assert.equal(asked.undoBy, 'black');
  const { st: answered, effects } = apply(frozen(asked), message('undo_answered'));
  assert.equal(answered.undoBy, null);
  assert.deepEqual(effects, ['snapshot']);
  assert.deepEqual(apply(frozen(asked), { ...message('undo_answered'), accepted: false }).effects, []);
});

test('chat: lines kept up to the page\'s bound, deleted lines keep their place', () => {
  let st = playing();
  for (let i = 0; i < MAX_CHAT_LINES + 2; i++) {
    st = apply(st, { ...message('chat'), line: { ...message('chat').line, seq: i + 1, text: `line ${i}` } }).st;
  }
  assert.equal(st.chat.length, MAX_CHAT_LINES);
  assert.equal(st.chatOmitted, 2);
  assert.equal(st.chat[0].text, 'line 2');
  const deleted = apply(frozen(st), { ...message('chat_deleted'), line: 10 }).st;
  assert.equal(deleted.chat.find((l) => l.seq === 10).deleted, true);
  assert.equal(deleted.chat.find((l) => l.seq === 10).text, '');
  assert.equal(deleted.chat.length, MAX_CHAT_LINES);
  assert.equal(deleted.chatDeleted, 1);
});

test('the nigiri: started, then done, the viewer\'s colour from its result', () => {
  const s = message('snapshot, bare');  // phase nigiri, a spectator's
  const st = frozen(fromSnapshot(s, { now: 0 }));
  const started = apply(st, message('nigiri_started')).st;
  assert.equal(started.nigiri.commitment, '9f2c');
  const { st: done, effects } = apply(frozen(started), message('nigiri_done'), 1);
  assert.equal(done.phase, 'playing');
  assert.equal(done.role, 'white', 'ann (1) took White');
  assert.equal(done.black.name, 'bob');
  assert.equal(done.toMove, 'black');
  assert.deepEqual(effects, ['turn', 'nigiri']);
  assert.equal(apply(frozen(started), message('nigiri_done'), null).st.role, st.role, 'a guest stays one');
});

test('the count: started, marked, accepted, resumed', () => {
  const st = playing([{ color: 'black', vertex: 'C3' }], { clock: message('move, timed').clock });
  const { st: scoring, effects } = apply(st, message('scoring_started'));
  assert.equal(scoring.phase, 'scoring');
  assert.equal(scoring.clock.running, null, 'no clock runs while counting');
  assert.deepEqual(effects, ['scoring']);
  const marked = apply(frozen(scoring), message('marking')).st;
  assert.deepEqual(marked.marking.dead, ['A1', 'B1']);
  const accepted = apply(frozen(marked), { ...message('score_accepted'), by: 'white' }).st;
  assert.equal(accepted.marking.accepted.white, 4);
  assert.equal(marked.marking.accepted.white, null, 'the old marking stays');
  const stale = apply(frozen(marked), { ...message('score_accepted'), version: 3 }).st;
  assert.equal(stale.marking, marked.marking, 'an acceptance of an older marking changes nothing');
  const { st: resumed, effects: e2 } = apply(frozen(accepted), message('play_resumed, timed'));
  assert.equal(resumed.phase, 'playing');
  assert.equal(resumed.marking, null);
  assert.deepEqual(resumed.resumed, { by: 'white', moves: 1 });
  assert.equal(resumed.toMove, 'black');
  assert.deepEqual(e2, ['turn']);
});

test('absences: one per colour, gone when the player returns', () => {
  const st = playing();
  const left = apply(st, message('player_left, counting')).st;
  assert.deepEqual(left.absent, [{ claim_in_ms: 30000, color: 'white', at: 5000 }]);
  const again = apply(frozen(left), message('player_left, counting')).st;
  assert.equal(again.absent.length, 1);
  assert.deepEqual(apply(frozen(again), message('player_returned')).st.absent, []);
});

test('the end: result and reason, a scored game\'s dead stones, ranks asked again when rated', () => {
  const st = playing([{ color: 'black', vertex: 'C3' }]);
  const scoring = apply(st, message('scoring_started')).st;
  const { st: ended, effects } = apply(frozen(scoring), message('game_ended, scored'));
  assert.equal(ended.phase, 'finished');
  assert.equal(ended.result, 'B+3.5');
  assert.equal(ended.endReason, 'score');
  assert.deepEqual(ended.finalDead, ['A1', 'B1']);
  assert.equal(ended.marking, null);
  assert.equal(ended.abortable, false);
  assert.deepEqual(effects, ['ranks']);
  const resigned = apply(st, message('game_ended, bare')).st;
  assert.equal(resigned.finalDead, null);
  assert.equal(resigned.endReason, 'resignation');
});

test('conditional moves are the page\'s to show; a free handicap is placed before play', () => {
  assert.deepEqual(apply(playing(), message('conditional_moves')).effects, ['conditional']);
  const s = message('snapshot, bare');
  Object.assign(s, { phase: 'playing', moves: [], handicap_stones: [] });
  s.settings = { ...s.settings, width: 9, height: 9, handicap: 2, placement: 'free' };
  let st = frozen(fromSnapshot(s, { now: 0 }));
  assert.equal(freePlacementPending(st), true);
  const stone = { ...message('move, untimed pass'), color: 'black', vertex: 'C3', captured: [] };
  st = apply(st, stone).st;
  assert.deepEqual(st.handicap, ['C3']);
  assert.equal(st.toMove, 'black', 'Black places the second stone');
  st = apply(frozen(st), { ...stone, vertex: 'G7' }).st;
  assert.equal(freePlacementPending(st), false);
  assert.equal(st.toMove, 'white');
  assert.equal(st.moves.length, 0);
});

test('every room event type the server sends is one the state takes', () => {
  const room = ['move', 'undo_requested', 'undo_answered', 'chat', 'game_ended', 'nigiri_started', 'nigiri_done',
    'scoring_started', 'marking', 'score_accepted', 'play_resumed', 'player_left', 'player_returned', 'chat_deleted',
    'conditional_moves'];
  for (const type of room) assert.equal(Message[type], type);
  const st = playing([{ color: 'black', vertex: 'C3' }]);
  for (const [name, m] of fixture) {
    if (!name.startsWith('server ') || !room.includes(m.type)) continue;
    assert.doesNotThrow(() => apply(st, structuredClone(m)), name);
  }
});

test('pair Go: each colour\'s next player, round its team in order, as the server counts', () => {
  const teams = { black: [{ id: 1, name: 'amy' }, { id: 3, name: 'bob' }], white: [{ id: 2, name: 'carl' }, { id: 4, name: 'dora' }] };
  const at = (moves) => {
    const st = playing(moves);
    return { ...st, settings: { ...st.settings, teams } };
  };
  let st = at([]);
  assert.equal(memberToMove(st, 'black').name, 'amy');
  assert.equal(memberToMove(st, 'white').name, 'carl');
  st = at([{ color: 'black', vertex: 'E5' }, { color: 'white', vertex: 'pass' }, { color: 'black', vertex: 'C3' }]);
  assert.equal(memberToMove(st, 'black').name, 'amy', 'B1, B2, then B1 again');
  assert.equal(memberToMove(st, 'white').name, 'dora', 'a pass is a move in the order');
  assert.equal(sideName(st, 'black'), 'amy & bob');
  assert.equal(teamOf(playing([]), 'black'), null, 'an ordinary game has no teams');
  assert.equal(memberToMove(playing([]), 'black'), null);
  assert.equal(sideName(playing([]), 'white'), 'bob');
});
