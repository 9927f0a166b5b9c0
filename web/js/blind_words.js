// Blind mode's words (docs/accessibility.md): the command box's parser and the sentences that
// answer it, from the board as the server reported it. Pure (no page), so that Node tests them.
//
// Chains and liberties are geometry, read off the stones on the board; nothing here judges a
// move: the server says what is legal (a refused move comes back in its words), what is a ko
// (POST /api/v1/positions answers `ko`) and how a position counts.
import { t, num } from './i18n.js';
import { vertexName, parseVertex, COLUMNS, countTerms } from './util.js';

// Every command, in the order help lists them. Each is typed as its English name, or as one of
// its words in the page's language (the catalog's blind.words.NAME: "bord|b").
export const COMMANDS = ['play', 'pass', 'board', 'point', 'liberties', 'chain', 'last', 'captures', 'clock',
  'score', 'mark', 'accept', 'resume', 'ko', 'who', 'say', 'nigiri', 'undo', 'allow', 'refuse', 'abort', 'resign', 'help'];
// A review board's commands (blind_review.js).
export const REVIEW_COMMANDS = ['play', 'board', 'point', 'liberties', 'chain', 'captures', 'where', 'next', 'back',
  'first', 'end', 'help'];
export const ALL_COMMANDS = [...new Set([...COMMANDS, ...REVIEW_COMMANDS])];
const REGION_SIDES = ['top', 'bottom', 'left', 'right'];
export const MAX_COMMAND_CHARS = 100;  // the box's maxlength

const wordsOf = (key, words) => new Set(words(key).toLowerCase().split('|').map((w) => w.trim()).filter(Boolean));

// "d4" → play D4; "liberties d4" → {name: 'liberties', args: ['d4']}; a word it does not know:
// {name: 'unknown'}; nothing typed: null. `words(name)`: the page's words for a command; `names`:
// the commands looked for.
export function parseCommand(text, words = (name) => t(`blind.words.${name}`), names = COMMANDS) {
  const parts = String(text).trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!parts.length) return null;
  if (parts.length === 1 && /^[a-hj-z]\d{1,2}$/.test(parts[0])) return { name: 'play', args: parts };
  for (const name of names) {
    if (parts[0] === name || wordsOf(name, words).has(parts[0])) return { name, args: parts.slice(1) };
  }
  return { name: 'unknown', args: parts };
}

// "top left", "linksboven", "oben links": the sides named (English or the page's words).
export function parseRegion(args, words = (name) => t(`blind.words.${name}`)) {
  const text = args.join('');
  const sides = new Set();
  for (const side of REGION_SIDES) {
    if ([side, ...wordsOf(side, words)].some((w) => text.includes(w))) sides.add(side);
  }
  const rest = REGION_SIDES.reduce((s, side) => [side, ...wordsOf(side, words)].reduce((r, w) => r.split(w).join(''), s), text);
  return rest ? null : sides;  // null: something that is not a side
}

// The rows and columns (from the top left, inclusive) of the part of the board the sides name:
// halves and quarters, each with the middle line.
export function regionBounds(sides, width, height) {
  const midX = Math.floor((width - 1) / 2);
  const midY = Math.floor((height - 1) / 2);
  return {
    x0: sides.has('right') ? midX : 0,
    x1: sides.has('left') ? midX : width - 1,
    y0: sides.has('bottom') ? midY : 0,
    y1: sides.has('top') ? midY : height - 1,
  };
}

const neighbours = (i, width, size) => {
  const x = i % width;
  const out = [];
  if (x > 0) out.push(i - 1);
  if (x < width - 1) out.push(i + 1);
  if (i >= width) out.push(i - width);
  if (i + width < size) out.push(i + width);
  return out;
};

// The chain through point i (a stone) and its liberties, as indices in reading order.
export function chainAt(points, width, i) {
  const color = points[i];
  if (!color) return null;
  const stones = [i];
  const seen = new Set(stones);
  const liberties = new Set();
  for (let k = 0; k < stones.length; k++) {
    for (const n of neighbours(stones[k], width, points.length)) {
      if (points[n] === null) liberties.add(n);
      else if (points[n] === color && !seen.has(n)) {
        seen.add(n);
        stones.push(n);
      }
    }
  }
  return { color, stones: stones.sort((a, b) => a - b), liberties: [...liberties].sort((a, b) => a - b) };
}

// Points as the players say them: columns left to right, then rows from the bottom.
export function pointNames(indices, width, height) {
  return [...indices].sort((a, b) => (a % width) - (b % width) || b - a)
    .map((i) => vertexName(i % width, Math.floor(i / width), height));
}

// The chains left with one liberty next to a stone just played at `vertex` (either colour's,
// each once): [{color, at, stones, liberty}] — what the announcement of a move says is in atari.
export function atariAround(points, width, height, vertex) {
  const p = parseVertex(vertex, width, height);
  if (!p) return [];
  const i = p.y * width + p.x;
  const out = [];
  const seen = new Set();
  for (const j of [i, ...neighbours(i, width, points.length)]) {
    if (!points[j] || seen.has(j)) continue;
    const chain = chainAt(points, width, j);
    chain.stones.forEach((s) => seen.add(s));
    if (chain.liberties.length !== 1) continue;
    out.push({
      color: chain.color === 'b' ? 'black' : 'white',
      at: pointNames(chain.stones, width, height)[0],
      stones: chain.stones.length,
      liberty: pointNames(chain.liberties, width, height)[0],
    });
  }
  return out;
}

const colorWord = (c) => t(`common.${c === 'b' || c === 'black' ? 'black' : 'white'}`);
const list = (items) => items.join(', ');

// Columns as runs: [0, 1, 2, 3, 6] → "A to D, G".
function columnRuns(xs) {
  const runs = [];
  for (const x of xs) {
    const last = runs[runs.length - 1];
    if (last && last[1] === x - 1) last[1] = x;
    else runs.push([x, x]);
  }
  return list(runs.map(([a, b]) => (a === b ? COLUMNS[a] : b === a + 1 ? `${COLUMNS[a]}, ${COLUMNS[b]}` : t('blind.columns_run', { from: COLUMNS[a], to: COLUMNS[b] }))));
}

// The board, or the part the sides name, row by row from the top: the columns of each colour's
// stones, runs of empty rows said once ("Rows 7 to 9 empty."); during the count, the stones
// marked dead (`dead`: their indices) say so, and with the count's `ownership` (a character per
// point: b, w or .) each side's territory is said as runs of columns.
export function boardWords(points, width, height, sides = new Set(), dead = new Set(), ownership = null) {
  const { x0, x1, y0, y1 } = regionBounds(sides, width, height);
  const lines = [];
  let empty = null;  // [first, last] row numbers of the empty run
  const flush = () => {
    if (!empty) return;
    lines.push(empty[0] === empty[1] ? t('blind.row_empty', { row: empty[0] }) : t('blind.rows_empty', { from: empty[0], to: empty[1] }));
    empty = null;
  };
  for (let y = y0; y <= y1; y++) {
    const row = height - y;
    const columns = { b: [], w: [] };
    const territory = { b: [], w: [] };
    for (let x = x0; x <= x1; x++) {
      const i = y * width + x;
      const c = points[i];
      if (c) columns[c].push(dead.has(i) ? t('blind.dead_stone', { column: COLUMNS[x] }) : COLUMNS[x]);
      const owner = ownership?.[i];
      if ((owner === 'b' || owner === 'w') && (!c || dead.has(i))) territory[owner].push(x);
    }
    if (!columns.b.length && !columns.w.length && !territory.b.length && !territory.w.length) {
      empty = empty ? [empty[0], row] : [row, row];
      continue;
    }
    flush();
    const parts = [];
    if (columns.b.length) parts.push(t('blind.row_black', { columns: list(columns.b) }));
    if (columns.w.length) parts.push(t('blind.row_white', { columns: list(columns.w) }));
    if (territory.b.length) parts.push(t('blind.row_black_territory', { columns: columnRuns(territory.b) }));
    if (territory.w.length) parts.push(t('blind.row_white_territory', { columns: columnRuns(territory.w) }));
    lines.push(t('blind.row', { row, stones: parts.join('; ') }));
  }
  flush();
  return lines.join(' ');
}

// The point a question names and the chain on it (null when it is empty).
function pointAndChain(points, width, height, vertex) {
  const p = parseVertex(vertex, width, height);
  return { name: vertexName(p.x, p.y, height), chain: chainAt(points, width, p.y * width + p.x) };
}

// "D4: black, in a chain of 3 stones, 2 liberties." / "D4: empty."
export function pointWords(points, width, height, vertex) {
  const { name, chain } = pointAndChain(points, width, height, vertex);
  if (!chain) return t('blind.point_empty', { vertex: name });
  const libs = t('blind.libs', { n: chain.liberties.length });
  if (chain.stones.length === 1) return t('blind.point_single', { vertex: name, color: colorWord(chain.color), libs });
  return t('blind.point_chain', { vertex: name, color: colorWord(chain.color), n: chain.stones.length, libs });
}

// "Black chain at D4: 2 liberties, C4, E4." (`liberties`) or "Black chain at D4: 3 stones, D4,
// D5, E5." (`chain`).
export function libertiesWords(points, width, height, vertex) {
  return chainSentence(points, width, height, vertex, 'liberties');
}

export function chainWords(points, width, height, vertex) {
  return chainSentence(points, width, height, vertex, 'stones');
}

function chainSentence(points, width, height, vertex, what) {
  const { name, chain } = pointAndChain(points, width, height, vertex);
  if (!chain) return t('blind.point_empty', { vertex: name });
  const listed = what === 'liberties' ? chain.liberties : chain.stones;
  return t(what === 'liberties' ? 'blind.liberties' : 'blind.chain', {
    color: colorWord(chain.color), vertex: name, points: list(pointNames(listed, width, height)),
    libs: t('blind.libs', { n: chain.liberties.length }), stones: t('scoring.stones', { n: chain.stones.length }),
  });
}

// A move as said aloud: "White D5, took C4 and D4. Black chain of 3 stones at D4 in atari, its
// last liberty E4." `mover`: the player's name, or '' for the colour alone.
export function moveWords({ color, vertex, captured = [] }, ataris = [], { mine = false } = {}) {
  const parts = [];
  if (vertex === 'pass') parts.push(mine ? t('blind.you_passed') : t('blind.passed', { color: colorWord(color) }));
  else parts.push(mine ? t('blind.you_played', { vertex }) : t('blind.played', { color: colorWord(color), vertex }));
  if (captured.length) parts.push(t('blind.took', { n: captured.length, points: list(captured) }));
  for (const a of ataris) {
    parts.push(a.stones === 1
      ? t('blind.atari_stone', { color: colorWord(a.color), vertex: a.at, liberty: a.liberty })
      : t('blind.atari_chain', { color: colorWord(a.color), vertex: a.at, n: a.stones, liberty: a.liberty }));
  }
  return parts.join(' ');
}

// "4 minutes 30 seconds", "1 hour 5 minutes", "2 days 3 hours" (whole seconds, rounded up so
// that a clock never says 0 while time is left).
export function durationWords(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const parts = [];
  if (days) parts.push(t('blind.days', { n: days }));
  if (hours) parts.push(t('blind.hours', { n: hours }));
  if (minutes && !days) parts.push(t('blind.minutes', { n: minutes }));
  if ((seconds && !days && !hours) || !parts.length) parts.push(t('blind.seconds', { n: seconds }));
  return parts.join(' ');
}

// One side's clock in words, in the time system's terms.
export function clockWords(side, time) {
  const main = durationWords(side.main_ms);
  switch (time.system) {
    case 'byoyomi':
      if (side.main_ms > 0) return t('blind.clock_byoyomi_main', { main, periods: side.periods, period: durationWords(time.period_ms) });
      return side.periods <= 1 ? t('blind.clock_last_period', { left: durationWords(side.period_ms) })
        : t('blind.clock_periods', { left: durationWords(side.period_ms), n: side.periods });
    case 'canadian':
      if (side.main_ms > 0) return t('blind.clock_canadian_main', { main, stones: time.stones, period: durationWords(time.period_ms) });
      return t('blind.clock_canadian', { left: durationWords(side.period_ms), n: side.stones });
    default:
      return t('blind.clock_main', { main });
  }
}

// The time the player is counting down now: main time, else the period's.
export const counting = (side) => (side.main_ms > 0 ? side.main_ms : side.period_ms);

// The threshold (seconds) the counter passed going from `before` to `after` ms, or null; after a
// long gap (a page in the background) the nearest of those passed, the one closest to the truth.
export function thresholdPassed(before, after, thresholds) {
  const crossed = thresholds.filter((s) => before > s * 1000 && after <= s * 1000);
  return crossed.length ? Math.min(...crossed) : null;
}

// "30 20 10 5" → [30, 20, 10, 5]: whole seconds from 1 to 3600, at most 10, largest first;
// null when something else was typed.
export function parseThresholds(text) {
  const parts = String(text).split(/[\s,;]+/).filter(Boolean);
  if (parts.length > 10 || parts.some((p) => !/^\d{1,4}$/.test(p) || Number(p) < 1 || Number(p) > 3600)) return null;
  return [...new Set(parts.map(Number))].sort((a, b) => b - a);
}

// A count: totals and result, each side's points in the rules' terms, and the dead stones by
// chain ("C3 (3 stones)").
export function scoreWords(score, deadChains, result) {
  const parts = [t('blind.score', { black: num(score.black), white: num(score.white), result: result.replace(/\.$/, '') })];
  if (score.breakdown) {
    for (const color of ['black', 'white']) parts.push(`${colorWord(color)}: ${countTerms(score.breakdown, color).join(', ')}.`);
  }
  parts.push(deadWords(deadChains));
  return parts.join(' ');
}

// deadChains: [{color, stones: [names]}].
export function deadWords(deadChains) {
  if (!deadChains.length) return t('blind.dead_none');
  return t('blind.dead', {
    chains: deadChains.map((c) => `${colorWord(c.color)} ${c.stones[0]} (${t('scoring.stones', { n: c.stones.length })})`).join('; '),
  });
}

// The indices of every stone of the chains marked dead (a marking names one stone or more of each).
export function deadPoints(points, width, height, dead) {
  const out = new Set();
  for (const v of dead) {
    const p = parseVertex(v, width, height);
    if (p && points[p.y * width + p.x]) chainAt(points, width, p.y * width + p.x).stones.forEach((i) => out.add(i));
  }
  return out;
}

// The dead stones of a marking, grouped by chain (each chain's points in reading order).
export function deadChains(points, width, height, dead) {
  const seen = new Set();
  const out = [];
  for (const v of dead) {
    const p = parseVertex(v, width, height);
    if (!p) continue;
    const i = p.y * width + p.x;
    if (seen.has(i) || !points[i]) continue;
    const chain = chainAt(points, width, i);
    chain.stones.forEach((s) => seen.add(s));
    out.push({ color: chain.color, stones: pointNames(chain.stones, width, height) });
  }
  return out;
}
