// The local board: two people, one screen, taking turns (pass and play); a board to try a line
// on with a friend at the club; a game on the train with no signal. Every verdict is the rules
// engine's, running in this browser (engine.js: the server's C++ compiled to WebAssembly), so it
// works offline; nothing here knows the rules. The game is kept in this browser (localStorage)
// until a new one starts, so a reload, a closed tab or a phone that ran out of battery loses
// nothing.
import { h, fill, field, selectInput, RULESETS, rulesetName, describeResult, vertexName, parseVertex } from './util.js';
import { BoardView } from './board.js';
import { Position } from './position.js';
import { engineLocalGame } from './engine.js';
import { t } from './i18n.js';

const KEY = 'tengen-local-game';
const SIZES = [9, 13, 19];

function saved() {
  try {
    const g = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (g && SIZES.includes(g.size) && RULESETS[g.ruleset] && Array.isArray(g.moves)) return g;
  } catch { /* a damaged entry: a new game */ }
  return null;
}
const keep = (g) => localStorage.setItem(KEY, JSON.stringify(g));

export function mountLocal(root) {
  let game = saved();  // {size, ruleset, komi, handicap, moves: [vertex|'pass'], resigned?, dead?, done?}
  let answer = null;   // the engine's last answer for `game`
  let board = null;
  let busy = false;
  let gone = false;

  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const hint = h('p', { class: 'board-hint', role: 'status', 'aria-live': 'polite' });
  const holder = h('div', { class: 'board-holder local-board' });
  const side = h('div', { class: 'side' });
  const page = h('section', { class: 'local', 'aria-labelledby': 'local-title' });
  fill(root, page);

  // The colour of the i-th move: Black first, White first after handicap stones.
  const colourOf = (i) => ((i + (game.handicap >= 2 ? 1 : 0)) % 2 === 0 ? 'black' : 'white');
  const query = (extra = {}) => {
    return {
      width: game.size, height: game.size, ruleset: game.ruleset, komi: game.komi, handicap: game.handicap,
      moves: game.moves.map((vertex, i) => ({ color: colourOf(i), vertex })),
      ...(game.resigned ? { resigned: game.resigned } : {}),
      ...extra,
    };
  };

  // The setup: size, rules, komi (the rules' own until changed), handicap.
  function showSetup() {
    board = null;
    const size = selectInput('local-size', 'size', Object.fromEntries(SIZES.map((n) => [n, `${n}×${n}`])), '9');
    const ruleset = selectInput('local-rules', 'ruleset', Object.fromEntries(Object.keys(RULESETS).map((r) => [r, rulesetName(r)])), 'japanese');
    const komi = h('input', { id: 'local-komi', name: 'komi', type: 'number', step: '0.5', min: '-150', max: '150', value: '6.5' });
    ruleset.addEventListener('change', () => { komi.value = String(RULESETS[ruleset.value].komi); });
    const handicap = selectInput('local-handicap', 'handicap',
      { 0: t('form.handicap_none'), ...Object.fromEntries([2, 3, 4, 5, 6, 7, 8, 9].map((n) => [n, String(n)])) }, '0');
    const problem = h('p', { class: 'error', role: 'alert' });
    fill(page,
      h('h1', { id: 'local-title' }, t('local.title')),
      h('p', { class: 'muted' }, t('local.intro')),
      h('form', {
        class: 'card local-setup',
        onsubmit: async (e) => {
          e.preventDefault();
          const k = Number(komi.value);
          if (!Number.isFinite(k) || k * 2 !== Math.round(k * 2) || Math.abs(k) > 150) {
            problem.textContent = t('local.bad_komi');
            return;
          }
          game = { size: Number(size.value), ruleset: ruleset.value, komi: k, handicap: Number(handicap.value), moves: [] };
          try {
            answer = await engineLocalGame(query());
          } catch (err) {
            // Said where the setup is: the engine could not be loaded (an old browser, a build
            // without it), or the handicap does not fit the board.
            problem.textContent = err.message;
            game = null;
            return;
          }
          keep(game);
          showGame();
        },
      },
      h('div', { class: 'field-row' }, field(t('form.board'), size), field(t('form.rules'), ruleset), field(t('form.komi'), komi), field(t('form.handicap'), handicap)),
      problem,
      h('button', { type: 'submit', class: 'primary' }, t('local.start'))));
  }

  // The engine's answer for the game as it stands (with `extra`: a count, a guess at the dead);
  // null, and the refusal said, when it refuses.
  const askInGame = async (extra = {}) => {
    try {
      answer = await engineLocalGame(query(extra));
      return answer;
    } catch (err) {
      hint.textContent = err.message;
      return null;
    }
  };

  const points = () => [...answer.position.board].map((c) => (c === '.' ? null : c));
  const position = () => {
    const p = new Position(game.size, game.size);
    p.points = points();
    return p;
  };
  const vertexOf = (i) => vertexName(i % game.size, Math.floor(i / game.size), game.size);
  const indexOf = (v) => {
    const p = parseVertex(v, game.size, game.size);
    return p ? p.y * game.size + p.x : null;
  };
  const lastMove = () => game.moves.at(-1);

  const passes = h('button', { type: 'button', onclick: () => move('pass') }, t('game.pass'));
  const undo = h('button', { type: 'button', onclick: () => takeBack() }, t('game.undo'));
  const resign = h('button', { type: 'button', class: 'danger', onclick: () => resignNow() }, t('game.resign'));
  const finish = h('button', { type: 'button', class: 'primary', onclick: () => agree() }, t('local.done'));
  const fresh = h('button', { type: 'button', onclick: () => { localStorage.removeItem(KEY); game = null; showSetup(); } }, t('local.new_game'));
  const vertexInput = h('input', { id: 'local-vertex', name: 'vertex', autocomplete: 'off', size: 6, placeholder: t('game.vertex_placeholder'), 'aria-label': t('game.vertex_label') });
  const keyboard = h('form', { class: 'keyboard-play', onsubmit: (e) => { e.preventDefault(); point(vertexInput.value.trim().toUpperCase()); vertexInput.value = ''; } },
    h('label', { for: 'local-vertex' }, t('game.play_at')), vertexInput, h('button', { type: 'submit' }, t('game.play')));
  const scoreBox = h('div', { class: 'local-score', 'aria-live': 'polite' });

  function showGame() {
    board = new BoardView(game.size, game.size, {
      onPoint: (vertex) => point(vertex),
      ghost: () => (answer?.phase === 'playing' && !busy ? answer.position.to_move[0] : null),
      label: t('game.board_label', { width: game.size, height: game.size }),
    });
    holder.style.setProperty('--ratio', '1');
    fill(holder, board.el);
    fill(page,
      h('h1', { id: 'local-title', class: 'sr-only' }, t('local.title')),
      h('div', { class: 'game' },
        h('div', { class: 'main' }, holder, hint),
        side));
    fill(side,
      h('section', { class: 'panel' },
        h('h2', {}, t('local.title')),
        h('p', { class: 'muted' }, `${game.size}×${game.size} · ${rulesetName(game.ruleset)} · ${t('settings.komi', { komi: game.komi })}${game.handicap ? ` · ${t('settings.handicap_ruleset', { n: game.handicap })}` : ''}`),
        status, scoreBox,
        h('div', { class: 'controls' }, passes, undo, resign, finish, fresh)),
      keyboard);
    draw();
  }

  function draw() {
    if (!board || !answer || gone) return;
    const phase = game.done ? 'over' : answer.phase;
    const dead = new Set((game.dead ?? []).map(indexOf));
    const last = lastMove() && lastMove() !== 'pass' ? indexOf(lastMove()) : null;
    board.render({ position: points(), last, dead, ownership: phase !== 'playing' ? answer.position.score?.ownership ?? null : null });
    const caps = answer.position.captures;
    passes.hidden = resign.hidden = phase !== 'playing';
    finish.hidden = phase !== 'scoring';
    undo.hidden = phase === 'over' || game.moves.length === 0;
    keyboard.hidden = phase === 'over';
    if (phase === 'playing') {
      const toMove = t(`local.${answer.position.to_move}_to_play`);
      status.textContent = lastMove() === 'pass' ? `${t('local.passed', { color: t(`local.${colourOf(game.moves.length - 1)}`) })} ${toMove}` : toMove;
      fill(scoreBox, h('p', { class: 'muted' }, t('local.captures', { black: caps.black, white: caps.white })));
    } else if (phase === 'scoring') {
      status.textContent = t('local.scoring');
      fill(scoreBox, ...scoreLines());
    } else {
      status.textContent = game.resigned ? describeResult(answer.result) : `${t('local.final')} ${describeResult(answer.position.score?.result)}`;
      fill(scoreBox, ...(game.resigned ? [] : scoreLines()));
    }
  }

  function scoreLines() {
    const s = answer.position.score;
    if (!s) return [];
    return [h('p', { class: 'local-totals' }, `${t('scoring.black', { n: s.black })} · ${t('scoring.white', { n: s.white })}`),
      h('p', { class: 'local-result' }, describeResult(s.result))];
  }

  async function move(vertex) {
    if (busy || !answer || answer.phase !== 'playing' || game.done) return;
    busy = true;
    hint.textContent = '';
    game.moves.push(vertex);
    const next = await askInGame();
    if (!next) game.moves.pop();
    else if (next.phase === 'scoring') await startCount();
    keep(game);
    busy = false;
    draw();
  }

  // Play stopped: the engine's guess at the dead stones, for the players to correct by tapping.
  async function startCount() {
    const guess = await askInGame({ suggest_dead: true });
    game.dead = guess?.suggested_dead ?? [];
    await askInGame({ dead: game.dead });
  }

  async function point(vertex) {
    if (!vertex || busy || !answer || game.done) return;
    if (answer.phase === 'playing') return move(vertex);
    if (answer.phase !== 'scoring') return;
    // Marking: a tap marks or unmarks the whole chain.
    const chain = position().chainAt(vertex).map(vertexOf);
    if (!chain.length) return;
    busy = true;
    const dead = new Set(game.dead);
    const on = !dead.has(chain[0]);
    for (const v of chain) { if (on) dead.add(v); else dead.delete(v); }
    const before = game.dead;
    game.dead = [...dead];
    if (!(await askInGame({ dead: game.dead }))) game.dead = before;
    keep(game);
    busy = false;
    draw();
  }

  async function takeBack() {
    if (busy || !game.moves.length || game.done) return;
    busy = true;
    hint.textContent = '';
    game.moves.pop();
    delete game.dead;
    await askInGame();
    keep(game);
    busy = false;
    draw();
  }

  async function resignNow() {
    if (busy || answer?.phase !== 'playing') return;
    const who = answer.position.to_move;
    if (!window.confirm(t('local.resign_question', { color: t(`local.${who}`) }))) return;
    game.resigned = who;
    game.done = true;
    await askInGame();
    keep(game);
    draw();
  }

  function agree() {
    if (answer?.phase !== 'scoring') return;
    game.done = true;
    keep(game);
    draw();
  }

  async function resume() {
    if (!game) return showSetup();
    if (!(await askInGame(game.dead && !game.resigned ? { dead: game.dead } : {}))) {
      game = null;  // a saved game the engine refuses (from an older version?): a new one
      return showSetup();
    }
    if (answer.phase === 'scoring' && !game.dead) await startCount();
    showGame();
  }
  resume();
  return () => { gone = true; };
}
