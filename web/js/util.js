// Small helpers shared by the views: element building, coordinates, and wording of settings.

// h('button', {class: 'primary', onclick: f}, 'Pass'): an element with attributes, handlers and children.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  return el;
}

// A <select> of {value: label} with `value` chosen.
export function selectInput(id, name, options, value, attrs = {}) {
  const el = h('select', { name, id, ...attrs },
    ...Object.entries(options).map(([v, label]) => h('option', { value: v }, label)));
  el.value = value;
  return el;
}

// A labelled form field.
export function field(label, input, attrs = {}) {
  return h('div', { class: 'field', ...attrs }, h('label', { for: input.id }, label), input);
}

// Replaces an element's children.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// GTP coordinates: columns A to Z without I, rows counted from the bottom.
export const COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

// Point (x from the left, y from the top) to "D4" on a board `height` rows high.
export function vertexName(x, y, height) {
  return COLUMNS[x] + String(height - y);
}

export function parseVertex(vertex, width, height) {
  const m = /^([A-HJ-Z])(\d{1,2})$/i.exec(vertex || '');
  if (!m) return null;
  const x = COLUMNS.indexOf(m[1].toUpperCase());
  const y = height - Number(m[2]);
  if (x < 0 || x >= width || y < 0 || y >= height) return null;
  return { x, y };
}

// A random hex string of `bytes` bytes (crypto.getRandomValues works on plain http too).
export function randomHex(bytes) {
  const a = new Uint8Array(bytes);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

// 1:05:03, 12:34, 0:09.4 (tenths under ten seconds).
export function formatMs(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const total = Math.ceil(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

// Durations in a form's words: 90000 → "1 min 30 s".
export function formatDuration(ms) {
  const s = Math.round(ms / 1000);
  if (s % 3600 === 0 && s >= 3600) return `${s / 3600} h`;
  if (s >= 60) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  return `${s} s`;
}

export function describeTime(t) {
  switch (t?.system) {
    case 'absolute': return `${formatDuration(t.main_ms)} absolute`;
    case 'simple': return `${formatDuration(t.per_move_ms)} per move`;
    case 'fischer':
      return `${formatDuration(t.main_ms)} + ${formatDuration(t.increment_ms)}/move` +
        (t.max_ms ? ` (max ${formatDuration(t.max_ms)})` : '');
    case 'byoyomi': return `${formatDuration(t.main_ms)} + ${t.periods}×${formatDuration(t.period_ms)} byo-yomi`;
    case 'canadian': return `${formatDuration(t.main_ms)} + ${t.stones} stones / ${formatDuration(t.period_ms)}`;
    default: return 'no clock';
  }
}

export const RULESETS = {
  japanese: { label: 'Japanese', komi: 6.5 },
  chinese: { label: 'Chinese', komi: 7.5 },
  korean: { label: 'Korean', komi: 6.5 },
  aga: { label: 'AGA', komi: 7.5 },
  'new-zealand': { label: 'New Zealand', komi: 7 },
  ing: { label: 'Ing', komi: 7.5 },
  'tromp-taylor': { label: 'Tromp-Taylor', komi: 7.5 },
};

export function komiOf(settings) {
  return settings.komi ?? RULESETS[settings.ruleset]?.komi ?? 0;
}

export function sizeOf(settings) {
  return settings.width === settings.height ? `${settings.width}×${settings.width}` : `${settings.width}×${settings.height}`;
}

export function describeSettings(s, { size = true } = {}) {
  const parts = [...(size ? [sizeOf(s)] : []), RULESETS[s.ruleset]?.label ?? s.ruleset, `komi ${komiOf(s)}`];
  if (s.handicap === 'automatic') parts.push('handicap by rank');
  else if (s.handicap) parts.push(`${s.handicap} handicap (${s.placement === 'free' ? 'free' : s.placement === 'fixed' ? 'fixed' : 'by the rules'})`);
  parts.push(describeTime(s.time));
  if (s.rated) parts.push('rated');
  if (s.private) parts.push('private');
  return parts.join(' · ');
}

export const COLOR_WORDS = { nigiri: 'nigiri', black: 'challenger Black', white: 'challenger White', automatic: 'automatic' };

export const END_REASONS = {
  resignation: 'by resignation', score: 'by counting', passes: 'after passes (Tromp-Taylor count)',
  repetition: 'by repetition', time: 'on time', abandoned: 'by forfeit (abandoned)', aborted: 'aborted',
  no_first_move: 'no first move', scoring_timeout: 'scoring timed out (board counted as played)',
  resumption_limit: 'too many resumptions (board counted as played)',
  no_show: 'by forfeit (no first move)', adjudication: "by the director's decision",
  withdrawal: 'by forfeit (withdrawal)',
};

// "W+5.5" → {winner: 'white', how: 'by 5.5 points'}; null for no winner (jigo, void) or nonsense.
export function resultParts(result) {
  const m = /^([BW])\+(.*)$/.exec(result ?? '');
  if (!m) return null;
  const how = { R: 'by resignation', T: 'on time', F: 'by forfeit', '': '' }[m[2]] ?? `by ${m[2]} points`;
  return { winner: m[1] === 'B' ? 'black' : 'white', how };
}

// "W+5.5" → "White wins by 5.5 points".
export function describeResult(result) {
  if (!result) return '';
  if (result === '0' || result === 'Draw') return 'Jigo (a draw)';
  if (result === 'Void') return 'No result (void)';
  const parts = resultParts(result);
  if (!parts) return result;
  return `${parts.winner === 'black' ? 'Black' : 'White'} wins ${parts.how}`.trim();
}

export function formatDate(ms) {
  if (!ms) return '';
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
