// The engine on a review board (docs/analysis.md, "In a review board"): the reviewed game's
// analysis as on the game page (its graph, its largest swings, the engine's move at each move of
// the main line), and the engine asked about the position the board shows, whatever line it is
// on. Everything shown comes from the server as numbers and moves, written here as text.
import { fetchJson } from './api.js';
import { t } from './i18n.js';
import { fill, h } from './util.js';
import { drawAnalysis, positionFacts } from './analysis.js';

// A position is one search: the page asks twice a second while it waits (a few seconds at most).
const POLL_MS = 500;

// `board` gives the room's state and its actions: state() (nodes, game, controller...), shown()
// (the node on the board), goTo(node), iControl(), play(vertex) (a review_play, awaited), and
// changed() (the room draws itself again, this panel and the board's circle with it).
export function reviewEnginePanel({ reviewId, ctx, board }) {
  let game = null;        // the reviewed game's analysis, once done
  let gameAsked = false;
  const asked = new Map();  // node -> the position's analysis view, as the server last said
  let problem = '';
  let asking = false;
  let timer = null;
  let gone = false;
  const body = h('div', { class: 'analysis-body' });
  const el = h('section', { class: 'panel analysis review-engine', 'aria-labelledby': `review-engine-${reviewId}` },
    h('h2', { id: `review-engine-${reviewId}` }, t('analysis.engine')), body);

  // The board's main line: the node at each depth, and its moves.
  function mainLine() {
    const st = board.state();
    const nodes = [0];
    const moves = [];
    for (let at = st.nodes.get(0); at?.children.length;) {
      at = st.nodes.get(at.children[0]);
      if (!at?.color) break;
      nodes.push(at.id);
      moves.push({ color: at.color, vertex: at.vertex });
    }
    return { nodes, moves };
  }

  // The moves from the start to `node`; null if stones are set up on the way.
  function lineTo(node) {
    const st = board.state();
    const path = [];
    for (let at = st.nodes.get(node); at; at = st.nodes.get(at.parent)) path.unshift(at);
    if (path.slice(1).some((n) => n.add_black.length || n.add_white.length || n.add_empty.length)) return null;
    return path.slice(1).filter((n) => n.color).map((n) => ({ color: n.color, vertex: n.vertex }));
  }

  async function loadGame() {
    const st = board.state();
    if (gameAsked || !st?.game) return;
    gameAsked = true;
    try {
      const data = await fetchJson(`/api/v1/games/${st.game}/analysis`);
      if (data.state === 'done') game = data;
    } catch {
      // No analysis to show (a private game, a server without analysis): the panel asks for
      // positions only.
    }
    render();
  }

  async function ask() {
    const node = board.shown();
    const line = lineTo(node);
    if (!line) { problem = t('review.setup_line'); render(); return; }
    asking = true;
    problem = '';
    render();
    try {
      const view = await fetchJson(`/api/v1/reviews/${reviewId}/analysis`, { method: 'POST', body: { node, line } });
      asked.set(node, view);
      watch();
    } catch (err) {
      problem = err.message;
    } finally {
      asking = false;
      board.changed();
    }
  }

  // Asks again, twice a second, about the positions still waiting or being analysed.
  function watch() {
    clearTimeout(timer);
    const waiting = [...asked.values()].filter((v) => v.state === 'queued' || v.state === 'running');
    if (!waiting.length || gone) return;
    timer = setTimeout(async () => {
      for (const v of waiting) {
        try {
          asked.set(v.node, await fetchJson(`/api/v1/reviews/${reviewId}/analysis/${v.id}`));
        } catch (err) {
          problem = err.message;
        }
      }
      if (gone) return;
      board.changed();
      watch();
    }, POLL_MS);
  }

  const answerAt = (node) => asked.get(node);

  // The engine's line played on the board from the node it was asked at (by whoever controls it).
  async function playLine(node, line) {
    board.goTo(node);
    for (const vertex of line) {
      if (await board.play(vertex)) break;  // refused: said under the board
    }
  }

  function render() {
    const st = board.state();
    if (!st || gone) return;
    const parts = [];
    const at = board.shown();
    if (game) {
      const { nodes, moves } = mainLine();
      const k = nodes.indexOf(at);
      const positions = game.positions.slice(0, nodes.length);
      parts.push(...drawAnalysis({
        engine: game.engine, positions, moves,
        shown: k < 0 ? null : Math.min(k, positions.length - 1), go: (n) => board.goTo(nodes[Math.min(n, nodes.length - 1)]),
      }));
      if (k < 0) parts.push(h('p', { class: 'muted' }, t('analysis.off_main_line')));
    }
    const here = asked.get(at);
    if (here?.state === 'done' && here.position) {
      const p = here.position;
      const best = p.line[0];
      parts.push(h('div', { class: 'analysis-here', 'data-analysis': 'position' },
        h('p', {}, [t('analysis.position_by', { engine: here.engine }), ...positionFacts(p)].join(' · '),
          best ? ` · ${t('analysis.best', { move: best === 'pass' ? t('review.passed') : best })}` : ''),
        p.line.length ? h('p', { class: 'muted analysis-line' }, t('analysis.line', { moves: p.line.join(' ') })) : '',
        best && board.iControl() ? h('button', { type: 'button', onclick: () => playLine(at, p.line) }, t('analysis.play_line')) : ''));
    } else if (here && (here.state === 'queued' || here.state === 'running')) {
      parts.push(h('p', { role: 'status' }, t(here.state === 'queued' ? 'analysis.queued' : 'analysis.position_running')));
    } else {
      if (here?.state === 'failed') parts.push(h('p', { class: 'review-error' }, t('analysis.failed'), ' ', h('span', { class: 'muted' }, here.error)));
      if (ctx.user) parts.push(h('button', { type: 'button', class: 'ask-position', disabled: asking, onclick: ask }, t('analysis.ask_position')));
      else if (!game) parts.push(h('p', { class: 'muted' }, t('analysis.log_in')));
    }
    if (problem) parts.push(h('p', { class: 'review-error', role: 'alert' }, problem));
    fill(body, ...parts);
  }

  return {
    el,
    // The engine's move at the node the board shows, to circle on the board, once someone asked
    // about that position (the game's analysis alone circles nothing: a teacher's own circles
    // stay theirs); null if none, or a pass.
    bestAt(node) {
      const asked = answerAt(node);
      const best = asked?.state === 'done' ? asked.position?.line[0] : null;
      return best && best !== 'pass' ? best : null;
    },
    // The room's state changed (a snapshot, an update, a look of one's own).
    update() {
      loadGame();
      render();
    },
    destroy() {
      gone = true;
      clearTimeout(timer);
    },
  };
}
