// The game page's state from what the server says (docs/web-client.md, "The game page"): the
// state a snapshot starts, and a pure function of the state and one room event giving the next.
// No page, no clock of its own (`now` is given: performance.now() on the page), nothing sent:
// what the page must do besides showing the new state comes back as `effects`. The page
// (game.js) holds the state and renders it; tests/web/game_state.test.mjs feeds this the wire
// fixture's messages in Node.
import { Position } from './position.js';
import { vertexName } from './util.js';
import { Enum, Message } from './wire.js';

export const MAX_CHAT_LINES = 300;  // kept in the page: older lines are counted, not shown

export const short = (c) => (c === Enum.Color.black ? 'b' : 'w');
export const other = (c) => (c === Enum.Color.black ? Enum.Color.white : Enum.Color.black);

// Pair Go and rengo (docs/events.md): a colour's team (null in an ordinary game), the member whose
// move it is when that colour plays (members take turns in their order, the colour's moves so far
// choosing which, as the server counts them), and the colour's players by name.
export const teamOf = (st, color) => st.settings.teams?.[color] ?? null;
export function memberToMove(st, color) {
  const team = teamOf(st, color);
  if (!team) return null;
  const played = st.moves.filter((m) => m.color === color).length;
  return team[played % team.length];
}
export const sideName = (st, color) => teamOf(st, color)?.map((m) => m.name).join(' & ') ?? st[color].name;

// The state a snapshot (`snapshot` message) starts, its position rebuilt from its moves.
export function fromSnapshot(s, { now }) {
  const position = new Position(s.settings.width, s.settings.height);
  for (const v of s.handicap_stones) position.play('b', v);
  const moves = s.moves.map((m) => {
    const taken = m.vertex === 'pass' ? [] : position.play(short(m.color), m.vertex);
    // What each move took, for blind mode's `last`.
    return { ...m, captured: taken.map((i) => vertexName(i % s.settings.width, Math.floor(i / s.settings.width), s.settings.height)) };
  });
  return {
    seq: s.seq, settings: s.settings, black: s.black, white: s.white, role: s.role, phase: s.phase,
    toMove: s.to_move, result: s.result, endReason: null, captures: { ...s.captures },
    undoBy: s.undo_requested && s.moves.length ? s.moves[s.moves.length - 1].color : null,
    chat: [...s.chat], chatOmitted: s.chat_omitted || 0, chatDeleted: 0,
    clock: s.clock, clockAt: now, nigiri: s.nigiri,
    marking: s.marking, absent: s.absent.map((a) => ({ ...a, at: now })),
    finalScore: s.final_score, finalDead: s.final_dead, abortable: s.abortable, moves, handicap: [...s.handicap_stones],
    tournament: s.tournament ?? null,
    // Play resumed from the count and nobody has moved since (the last move a pass, but none in a
    // row now): said so after a reload too.
    resumed: s.resumed ? { by: null, moves: s.moves.length } : null,
    lastMove: s.moves.length ? { ...s.moves[s.moves.length - 1], captured: 0 } : null,
    firstMoveAt: s.first_move_in_ms === null || s.first_move_in_ms === undefined ? null : now + s.first_move_in_ms,
    firstMoveMs: s.first_move_ms || 0,
    watching: s.watching || 0,
    // What happened, said in the chat between the lines ({seq, text, at}): passes, undos, the
    // count and its resumption, the result, as seen on this page since it opened.
    system: s.phase === Enum.Phase.finished ? [{ seq: s.seq, text: null, at: null }] : [],
    position,
  };
}

// Free handicap stones are still being placed (Black places them one by one before any move).
export function freePlacementPending(st) {
  return st.settings.handicap >= 2 && st.moves.length === 0 && st.handicap.length < st.settings.handicap &&
    st.settings.placement !== 'fixed' && st.phase === Enum.Phase.playing;
}

// The next state after the room event `m` (one of the game's, with its seq), and what the page
// must do besides showing it:
//   'snapshot'    ask for a fresh snapshot (an undo was allowed: its position and clocks)
//   'conditional' the player's conditional moves are now m.lines
//   'nigiri'      check the revealed nigiri's proof (m.nigiri)
//   'ranks'       the players' ranks changed (a rated game ended)
//   'scoring'     the count began: what was said under the board was about play
//   'turn'        the turn may have come to the viewer: note when they saw it
// `viewer` is the user looking (null for a guest). `st` is not changed.
export function reduce(st, m, { now, viewer = null }) {
  const next = { ...st, seq: m.seq ?? st.seq };
  const effects = [];
  switch (m.type) {
    case Message.move: {
      const c = short(m.color);
      if (m.vertex === 'pass') {
        next.moves = [...st.moves, { color: m.color, vertex: 'pass', left: m.clock?.[m.color], captured: [] }];
      } else {
        const placingHandicap = freePlacementPending(st);
        const position = st.position.clone();
        const captures = { ...st.captures };
        position.points[position.index(m.vertex)] = c;
        for (const v of m.captured) {
          const i = position.index(v);
          const capturedColor = position.points[i];
          position.points[i] = null;
          captures[capturedColor === c ? other(m.color) : m.color] += 1;
        }
        next.position = position;
        next.captures = captures;
        if (placingHandicap) next.handicap = [...st.handicap, m.vertex];
        else next.moves = [...st.moves, { color: m.color, vertex: m.vertex, left: m.clock?.[m.color], captured: m.captured }];
      }
      next.lastMove = { color: m.color, vertex: m.vertex, captured: m.captured.length };
      next.toMove = freePlacementPending(next) ? Enum.Color.black : other(m.color);
      next.clock = m.clock;
      next.clockAt = now;
      next.undoBy = null;
      next.abortable = st.abortable && !(next.moves.some((x) => x.color === Enum.Color.black) && next.moves.some((x) => x.color === Enum.Color.white));
      // Until both have moved, each turn has the start timeout again (docs/games.md).
      next.firstMoveAt = next.abortable && st.firstMoveMs ? now + st.firstMoveMs : null;
      effects.push('turn');
      break;
    }
    case Message.undo_requested: next.undoBy = m.by; break;
    case Message.undo_answered:
      next.undoBy = null;
      if (m.accepted) effects.push('snapshot');  // the position and clocks after an undo come from a snapshot
      break;
    case Message.chat: {
      const chat = [...st.chat, m.line];
      const dropped = Math.max(0, chat.length - MAX_CHAT_LINES);
      next.chat = chat.slice(dropped);
      next.chatOmitted = st.chatOmitted + dropped;
      break;
    }
    case Message.conditional_moves: effects.push('conditional'); break;
    case Message.chat_deleted:  // by an administrator: the words go, the line's place stays
      next.chat = st.chat.map((l) => (l.seq === m.line ? { ...l, text: '', deleted: true } : l));
      next.chatDeleted = (st.chatDeleted || 0) + 1;
      break;
    case Message.nigiri_started: next.nigiri = m.nigiri; break;
    case Message.nigiri_done:
      next.nigiri = m.nigiri;
      next.black = m.black;
      next.white = m.white;
      next.phase = Enum.Phase.playing;
      next.toMove = Enum.Color.black;
      next.firstMoveAt = st.firstMoveMs ? now + st.firstMoveMs : null;
      if (viewer) next.role = viewer === m.black.id ? Enum.Color.black : viewer === m.white.id ? Enum.Color.white : 'spectator';
      effects.push('turn', 'nigiri');
      break;
    case Message.scoring_started:
      next.phase = Enum.Phase.scoring;
      next.marking = m.marking;
      next.clock = st.clock && { ...st.clock, running: null };
      effects.push('scoring');
      break;
    case Message.marking: next.marking = m.marking; break;
    case Message.score_accepted:
      if (st.marking?.version === m.version) next.marking = { ...st.marking, accepted: { ...st.marking.accepted, [m.by]: m.version } };
      break;
    case Message.play_resumed:
      next.phase = Enum.Phase.playing;
      next.marking = null;
      // Said under the board until the next move: who resumed, and what it means.
      next.resumed = { by: m.by, moves: st.moves.length };
      next.toMove = m.to_move;
      next.clock = m.clock;
      next.clockAt = now;
      effects.push('turn');
      break;
    case Message.player_left:
      next.absent = [...st.absent.filter((a) => a.color !== m.absence.color), { ...m.absence, at: now }];
      break;
    case Message.player_returned: next.absent = st.absent.filter((a) => a.color !== m.color); break;
    case Message.game_ended:
      next.phase = Enum.Phase.finished;
      next.result = m.result;
      next.endReason = m.reason;
      next.finalScore = m.score;
      // The dead stones of an agreed count are the last marking's (a snapshot's final_dead).
      next.finalDead = m.reason === Enum.EndReason.score && st.marking ? st.marking.dead : null;
      next.clock = m.clock;
      next.clockAt = now;
      next.marking = null;
      next.undoBy = null;
      next.absent = [];
      next.abortable = false;
      next.firstMoveAt = null;
      if (st.settings.rated) effects.push('ranks');
      break;
    default: break;
  }
  return { st: next, effects };
}
