// Stepping through a game and analysing it: which move is shown, and the variation someone is
// trying from there. The game's own moves are drawn as a snapshot's are (stones placed, captured
// chains taken off, as the server reported them); every variation move is judged by the server's
// rules engine (POST /api/v1/positions), which answers the whole board: nothing here decides
// what is legal.
import { Position } from './position.js';
import { fetchJson } from './api.js';
import { h, fill, svg } from './util.js';
import { clockText } from './clock.js';
import { t } from './i18n.js';

const colorName = (c) => t(`common.${c}`);
const other = (c) => (c === 'black' ? 'white' : 'black');
const short = (c) => (c === 'black' ? 'b' : 'w');

// The position after the first `count` moves of a game: stones, captures, and each stone's move
// number (for "show move numbers").
export function replay(game, count) {
  const position = new Position(game.width, game.height);
  for (const v of game.handicap) position.play('b', v);
  const captures = { black: 0, white: 0 };
  const numbers = new Map();
  for (let k = 0; k < count && k < game.moves.length; k++) {
    const m = game.moves[k];
    if (m.vertex === 'pass') continue;
    const taken = position.play(short(m.color), m.vertex);
    const i = position.index(m.vertex);
    for (const x of taken) numbers.delete(x);
    if (position.points[i]) numbers.set(i, k + 1);
    for (const x of taken) captures[x === i ? other(m.color) : m.color] += 1;
  }
  return { position, captures, numbers };
}

// The step buttons' icons, drawn (the arrow glyphs are missing from many fonts).
const ICONS = {
  first: 'M3 3h2v10H3z M13 3v10L6 8z',
  previous: 'M11 3v10L4 8z',
  next: 'M5 3v10l7-5z',
  last: 'M11 3h2v10h-2z M3 3v10l7-5z',
  // A padlock: a private game's review.
  lock: 'M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7zM6 7h4V5a2 2 0 0 0-4 0z',
};
export function icon(name) {
  const el = svg('svg', { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true' });
  el.append(svg('path', { d: ICONS[name], fill: 'currentColor' }));
  return el;
}

export class Review {
  // onChange(): something to draw. canAnalyse(): may this viewer branch variations now.
  constructor({ onChange, canAnalyse }) {
    this.onChange = onChange;
    this.canAnalyse = canAnalyse;
    this.at = null;          // null: the game as it stands (and follows it); else moves shown
    this.variation = null;   // { from, moves, answers, error, pending }
    this.numbers = false;    // move numbers on the stones
    this.game = null;
  }

  // The game's record: { width, height, ruleset, handicap, moves, time }.
  setGame(game) {
    this.game = game;
    if (this.at !== null && this.at > game.moves.length) this.at = game.moves.length;
    if (this.variation && this.variation.from > game.moves.length) this.variation = null;
  }

  get total() { return this.game ? this.game.moves.length : 0; }
  get shown() { return this.at ?? this.total; }
  get browsing() { return this.at !== null || this.variation !== null; }

  go(k) {
    if (!this.game) return;
    const target = Math.max(0, Math.min(this.total, k));
    this.variation = null;
    this.at = target === this.total ? null : target;
    this.onChange();
  }
  first() { this.go(0); }
  previous() {
    if (this.variation) {
      if (this.variation.moves.length > 1) this.undoVariationMove();
      else this.leaveVariation();
      return;
    }
    this.go(this.shown - 1);
  }
  next() { if (!this.variation) this.go(this.shown + 1); }
  last() { this.go(this.total); }
  leaveVariation() { this.variation = null; this.onChange(); }
  undoVariationMove() {
    const v = this.variation;
    if (!v) return;
    v.moves.pop();
    v.answers.pop();
    v.error = null;
    if (!v.moves.length) this.variation = null;
    this.onChange();
  }
  toggleNumbers(on) { this.numbers = on; this.onChange(); }

  // Whose move it is at the shown position (in a variation, after its last move).
  toMove() {
    const v = this.variation;
    if (v?.answers.length) return v.answers[v.answers.length - 1].to_move;
    const k = this.shown;
    if (k > 0) return other(this.game.moves[k - 1].color);
    return this.game.handicap.length >= 2 ? 'white' : 'black';
  }

  // A click on the board while analysing: the next move of the variation, judged by the server.
  async play(vertex) {
    if (!this.game || !this.canAnalyse()) return;
    if (this.variation?.pending) return;
    if (!this.variation) this.variation = { from: this.shown, moves: [], answers: [], error: null, pending: false };
    const v = this.variation;
    const move = { color: this.toMove(), vertex };
    const line = [...this.game.moves.slice(0, v.from).map((m) => ({ color: m.color, vertex: m.vertex })), ...v.moves, move];
    v.pending = true;
    v.error = null;
    try {
      const answer = await fetchJson('/api/v1/positions', {
        method: 'POST',
        body: { width: this.game.width, height: this.game.height, ruleset: this.game.ruleset, black: this.game.handicap, moves: line },
      });
      if (this.variation !== v) return;  // left meanwhile
      v.moves.push(move);
      v.answers.push(answer);
    } catch (err) {
      v.error = err.message;
    } finally {
      v.pending = false;
      this.onChange();
    }
  }

  // What the board shows: { points, last, captures, labels } (labels: Map index -> text), or
  // null when it shows the game as it stands (unless its moves are numbered).
  view() {
    if (!this.game || !(this.browsing || this.numbers)) return null;
    const v = this.variation;
    const base = replay(this.game, v ? v.from : this.shown);
    if (!v?.answers.length) {
      const lastMove = this.shown > 0 ? this.game.moves[this.shown - 1] : null;
      return {
        points: base.position.points,
        last: lastMove && lastMove.vertex !== 'pass' ? base.position.index(lastMove.vertex) : null,
        captures: base.captures,
        labels: this.numbers ? new Map([...base.numbers].map(([i, n]) => [i, String(n)])) : null,
      };
    }
    const answer = v.answers[v.answers.length - 1];
    const points = [...answer.board].map((c) => (c === '.' ? null : c));
    const labels = new Map();
    v.moves.forEach((m, n) => {  // the variation's own numbers, on its stones still standing
      const i = m.vertex === 'pass' ? null : base.position.index(m.vertex);
      if (i !== null && points[i] === short(m.color)) labels.set(i, String(n + 1));
    });
    return { points, last: null, captures: answer.captures, labels };
  }

  // The words under the board: which move, who played where, the clocks then.
  describe() {
    if (!this.game) return '';
    const v = this.variation;
    if (v) {
      const n = v.moves.length;
      const last = v.moves[n - 1];
      return t('review.variation_from', { from: v.from, moves: t('review.moves', { n }) }) +
        (last ? ` · ${colorName(last.color)} ${last.vertex === 'pass' ? t('review.passed') : last.vertex}` : '');
    }
    const k = this.shown;
    if (k === 0) return `${t('review.start')} · ${t('review.moves', { n: this.total })}`;
    const m = this.game.moves[k - 1];
    const what = `${colorName(m.color)} ${m.vertex === 'pass' ? t('review.passed') : m.vertex}`;
    let clock = '';
    if (m.left && this.game.time && this.game.time.system !== 'none') {
      const c = clockText(m.left, this.game.time);
      clock = ` · ${t('game.clock_of', { color: colorName(m.color) })} ${c.main}${c.extra ? ` (${c.extra})` : ''}`;
    }
    return `${t('review.move_of', { k, total: this.total })} · ${what}${clock}`;
  }

  // The bar under the board: first / previous / next / last, the slider, move numbers, and the
  // variation's state.
  renderBar(bar) {
    if (!this.game) { bar.hidden = true; return; }
    bar.hidden = false;
    const k = this.shown;
    const total = this.total;
    const v = this.variation;
    const button = (label, title, onclick, disabled) =>
      h('button', { type: 'button', class: 'step', title, 'aria-label': title, onclick, disabled }, label);
    const slider = h('input', {
      type: 'range', min: 0, max: total, value: v ? v.from : k, class: 'move-slider', 'aria-label': t('review.move'),
      oninput: (e) => this.go(Number(e.target.value)),
    });
    const numbers = h('label', { class: 'check' },
      h('input', { type: 'checkbox', checked: this.numbers, onchange: (e) => this.toggleNumbers(e.target.checked) }), ` ${t('review.numbers')}`);
    const parts = [
      h('div', { class: 'steps' },
        button(icon('first'), t('review.first'), () => this.first(), k === 0 && !v),
        button(icon('previous'), t('review.previous'), () => this.previous(), k === 0 && !v),
        slider,
        button(icon('next'), t('review.next'), () => this.next(), k === total || !!v),
        button(icon('last'), t('review.last'), () => this.last(), k === total && !v)),
      h('div', { class: 'review-line' }, h('span', { class: 'review-where', 'data-review': 'where' }, this.describe()), numbers),
    ];
    if (v) {
      parts.push(h('div', { class: 'variation-line' },
        h('button', { type: 'button', onclick: () => this.undoVariationMove() }, t('review.take_back')),
        h('button', { type: 'button', onclick: () => this.leaveVariation() }, t('review.leave'))));
    } else if (this.canAnalyse()) {
      parts.push(h('p', { class: 'muted review-hint' }, t('review.try')));
    } else if (this.at !== null) {
      parts.push(h('p', { class: 'muted review-hint' }, `${t('review.earlier')} `,
        h('button', { type: 'button', class: 'link', onclick: () => this.last() }, t('review.back'))));
    }
    if (v?.error) parts.push(h('p', { class: 'review-error', role: 'alert' }, v.error));
    fill(bar, ...parts);
  }
}
