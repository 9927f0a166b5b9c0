// Analysis after the game (docs/analysis.md): the panel under a finished game's board. It asks the
// server for the game's analysis (GET /api/v1/games/{id}/analysis), offers to ask for one, shows
// the queue and the progress while a worker analyses, then the score (and win-rate) graph, the
// largest swings and, at every move, the engine's better move and its line. Everything shown comes
// from the server as numbers and moves, written here as text (never as HTML).
import { fetchJson } from './api.js';
import { t } from './i18n.js';
import { fill, h, svg } from './util.js';

const WIDTH = 600;      // the graph's own units (it is drawn to the panel's width)
const HEIGHT = 150;
const SWINGS = 5;       // the largest losses listed and marked
const POLL_MS = 2000;   // while queued or running
const NONE_POLL_MS = 10000;  // while nobody has asked (the opponent may, on their page)…
const NONE_POLLS = 60;       // …for ten minutes; a page opened later asks when it opens

const colorWord = (color) => t(`common.${color}`);

// Whether a result measures in points (KataGo, GNU Go) or in win rate only (Leela Zero's
// lz-analyze gives no score): every position has a score, or none has.
export const scored = (positions) => positions[0]?.score !== undefined;

// "B+4.5" / "W+3.0": who is ahead by how much, from Black's lead.
export function leadText(score) {
  if (Math.abs(score) < 0.05) return t('analysis.even');
  return `${score > 0 ? 'B' : 'W'}+${Math.abs(score).toFixed(1)}`;
}

// Each move's gain (positive) or loss (negative) for the player who made it, in points (or, with
// win rates only, in points of percent): [{ k, color, vertex, points, better, line }] for
// k = 1..n (the move that led to position k).
export function swingsOf(positions, moves) {
  const value = scored(positions) ? (p) => p.score : (p) => (p.winrate ?? 0.5) * 100;
  const out = [];
  for (let k = 1; k < positions.length && k <= moves.length; k++) {
    const m = moves[k - 1];
    const sign = m.color === 'black' ? 1 : -1;
    const before = positions[k - 1];
    const better = before.line[0] && before.line[0] !== m.vertex ? before.line[0] : null;
    out.push({ k, color: m.color, vertex: m.vertex, points: (value(positions[k]) - value(before)) * sign, better, line: before.line });
  }
  return out;
}

// The lead (or win rate) and the engine's move at one position, in words.
export function positionFacts(p) {
  const facts = [];
  if (p.score !== undefined) facts.push(leadText(p.score));
  if (p.winrate !== undefined) facts.push(t('analysis.winrate', { percent: String(Math.round(p.winrate * 100)) }));
  return facts;
}

// A finished analysis drawn: the engine's name, the graph, the position shown and the largest
// swings. `shown` is the position the board shows (0: the start; null when the board is off the
// game's line: no marker, no position); `go(k)` shows position k;
// `showLine(k, line)` (optional) plays the engine's line at position k as a variation; `inVariation`
// hides that button while one is shown. Used by the game page and by review boards.
export function drawAnalysis({ engine, positions: ps, moves, shown, go, showLine, inVariation }) {
  const points = scored(ps);
  const all = swingsOf(ps, moves);
  const worst = all.filter((s) => s.points <= (points ? -1 : -5)).sort((a, b) => a.points - b.points).slice(0, SWINGS);
  const parts = [];
  parts.push(h('p', { class: 'muted analysis-engine' }, t('analysis.by', { engine })));
  parts.push(graph(ps, worst, shown, go));
  const swingList = () => {
    if (!worst.length) return [];
    return [h('h3', {}, t('analysis.swings')), h('ol', { class: 'swings' }, ...[...worst].sort((a, b) => a.k - b.k).map((s) => h('li', {},
      h('button', { type: 'button', class: 'link', onclick: () => go(s.k) },
        t(points ? 'analysis.swing' : 'analysis.swing_percent', { k: String(s.k), color: colorWord(s.color), move: s.vertex === 'pass' ? t('review.passed') : s.vertex, points: s.points.toFixed(points ? 1 : 0).replace('-', '−') })),
      s.better && showLine ? [' · ', h('button', { type: 'button', class: 'link', onclick: () => showLine(s.k - 1, s.line) }, t('analysis.better', { move: s.better }))]
        : s.better ? ` · ${t('analysis.better', { move: s.better })}` : '')))];
  };
  parts.push(h('p', { class: 'analysis-legend muted' },
    h('span', { class: 'key lead' }), ` ${t(points ? 'analysis.legend_lead' : 'analysis.legend_winrate')}`,
    points && ps.some((p) => p.winrate !== undefined) ? h('span', {}, ' ', h('span', { class: 'key winrate' }), ` ${t('analysis.legend_winrate')}`) : ''));
  if (shown === null) return [...parts, ...swingList()];
  const k = Math.min(shown, ps.length - 1);
  const here = ps[k];
  const best = here.line[0];
  parts.push(h('div', { class: 'analysis-here' },
    h('p', { 'data-analysis': 'here' }, [t('analysis.at_move', { k: String(k) }), ...positionFacts(here)].join(' · '),
      best ? ` · ${t('analysis.best', { move: best === 'pass' ? t('review.passed') : best })}` : ''),
    best && showLine && !inVariation ? h('button', { type: 'button', onclick: () => showLine(k, here.line) },
      here.line.length > 1 ? t('analysis.show_line', { n: String(here.line.length) }) : t('analysis.show_move')) : ''));
  parts.push(...swingList());
  return parts;
}

// The graph: Black's lead over the game (or, with win rates only, Black's win rate around 50%),
// the win rate dashed beside a lead, the largest swings marked; a click goes to that move.
function graph(ps, swings, shown, go) {
  const n = Math.max(1, ps.length - 1);
  const points = scored(ps);
  const value = points ? (p) => p.score : (p) => ((p.winrate ?? 0.5) - 0.5) * 100;
  const most = Math.max(10, ...ps.map((p) => Math.abs(value(p))));
  const scale = points ? Math.ceil(most / 10) * 10 : 50;
  const x = (k) => (k / n) * WIDTH;
  const y = (v) => HEIGHT / 2 - (v / scale) * (HEIGHT / 2 - 4);
  const line = ps.map((p, k) => `${k ? 'L' : 'M'}${x(k).toFixed(1)} ${y(value(p)).toFixed(1)}`).join('');
  const area = `${line}L${x(ps.length - 1).toFixed(1)} ${HEIGHT / 2}L0 ${HEIGHT / 2}Z`;
  const chart = svg('svg', {
    class: 'analysis-graph', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', role: 'img',
    'aria-label': points ? t('analysis.graph_label', { scale: String(scale) }) : t('analysis.graph_label_winrate'),
  });
  chart.append(svg('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT / 2, class: 'black-side' }));
  chart.append(svg('path', { d: area, class: 'lead-area' }));
  chart.append(svg('line', { x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: 'even' }));
  chart.append(svg('path', { d: line, class: 'lead' }));
  if (points && ps.some((p) => p.winrate !== undefined)) {
    const wr = ps.map((p, k) => `${k ? 'L' : 'M'}${x(k).toFixed(1)} ${(HEIGHT - (p.winrate ?? 0.5) * HEIGHT).toFixed(1)}`).join('');
    chart.append(svg('path', { d: wr, class: 'winrate' }));
  }
  for (const s of swings) {
    chart.append(svg('circle', { cx: x(s.k), cy: y(value(ps[s.k])), r: 4, class: 'swing', 'data-move': String(s.k) }));
  }
  if (shown !== null) chart.append(svg('line', { x1: x(shown), y1: 0, x2: x(shown), y2: HEIGHT, class: 'now', 'data-move': String(shown) }));
  // A click (or a tap) goes to the move under it; the page's arrow keys step through the moves
  // and the graph follows.
  chart.addEventListener('click', (e) => {
    const box = chart.getBoundingClientRect();
    go(Math.round(((e.clientX - box.left) / box.width) * n));
  });
  return chart;
}

export function analysisPanel({ gameId, review, loggedIn, onChange }) {
  let data = null;      // the server's answer: { state, done, total, ahead, engine, error, positions }
  let problem = '';     // why asking failed, in words
  let asking = false;
  let started = false;
  let timer = null;
  let gone = false;
  let moves = [];       // the game's moves ({ color, vertex }), for the swings
  let nonePolls = 0;
  const heading = h('h2', { id: `analysis-${gameId}` }, t('analysis.title'));
  const body = h('div', { class: 'analysis-body' });
  const el = h('section', { class: 'panel analysis', hidden: true, 'aria-labelledby': `analysis-${gameId}` }, heading, body);

  async function load() {
    clearTimeout(timer);
    try {
      data = await fetchJson(`/api/v1/games/${gameId}/analysis`);
      if (data.state === 'none') data = null;  // nobody has asked yet
      problem = '';
    } catch (err) {
      problem = err.message;
    }
    if (gone) return;
    if (data && (data.state === 'queued' || data.state === 'running')) timer = setTimeout(load, POLL_MS);
    else if (!data && ++nonePolls <= NONE_POLLS) timer = setTimeout(load, NONE_POLL_MS);
    render();
    onChange();
  }

  async function ask() {
    clearTimeout(timer);
    asking = true;
    problem = '';
    render();
    try {
      data = await fetchJson(`/api/v1/games/${gameId}/analysis`, { method: 'POST', body: {} });
      if (data.state === 'queued' || data.state === 'running') timer = setTimeout(load, POLL_MS);
    } catch (err) {
      problem = err.message;
    } finally {
      asking = false;
      render();
      onChange();
    }
  }

  const positions = () => (data?.state === 'done' ? data.positions : null);

  // Goes to position k and plays the engine's line there as a variation (judged by the server,
  // as any variation is).
  async function showLine(k, line) {
    review.go(k);
    for (const vertex of line) {
      await review.play(vertex);
      if (review.variation?.error) break;
    }
  }

  function render() {
    if (!started) return;
    const parts = [];
    if (!data) {
      parts.push(h('p', { class: 'muted' }, t('analysis.none')));
      if (loggedIn()) parts.push(h('button', { type: 'button', class: 'primary', disabled: asking, onclick: ask }, t('analysis.ask')));
      else parts.push(h('p', { class: 'muted' }, t('analysis.log_in')));
    } else if (data.state === 'queued' || data.state === 'running') {
      const total = Math.max(1, data.total);
      parts.push(h('p', { role: 'status' }, data.state === 'queued'
        ? (data.ahead ? t('analysis.queued_behind', { n: String(data.ahead) }) : t('analysis.queued'))
        : t('analysis.running', { done: String(data.done), total: String(data.total) })));
      parts.push(h('progress', { max: String(total), value: String(data.done), 'aria-label': t('analysis.progress') }));
    } else if (data.state === 'failed') {
      parts.push(h('p', { class: 'review-error' }, t('analysis.failed'), ' ', h('span', { class: 'muted' }, data.error)));
      // Asked again, it waits for a worker again (a broken engine may have been mended since).
      if (loggedIn()) parts.push(h('button', { type: 'button', disabled: asking, onclick: ask }, t('analysis.try_again')));
    } else {
      parts.push(...drawAnalysis({
        engine: data.engine, positions: data.positions, moves, shown: review.shown,
        go: (k) => review.go(k), showLine, inVariation: !!review.variation,
      }));
    }
    if (problem) parts.push(h('p', { class: 'review-error', role: 'alert' }, problem));
    fill(body, ...parts);
  }

  return {
    el,
    // The game as it stands: the panel shows once the game is over (never during play).
    update(finished, gameMoves) {
      moves = gameMoves;
      el.hidden = !finished;
      if (!finished) return;
      if (!started) {
        started = true;
        load();
      }
      render();
    },
    // The engine's best move at the position the board shows (not in a variation): a vertex.
    bestAt(k) {
      const ps = positions();
      if (!ps || review.variation || k >= ps.length) return null;
      const best = ps[k].line[0];
      return best && best !== 'pass' ? best : null;
    },
    destroy() {
      gone = true;
      clearTimeout(timer);
    },
  };
}
