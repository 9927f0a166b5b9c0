// Small helpers shared by the views: element building, coordinates, and wording of settings.
import { t, has, formatDateTime } from './i18n.js';

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

// A page's button action: `fn` (a request), then the page read again with `reload`; a refusal's
// words in `problem` (an alert under the page's head) instead.
export function acting(problem, reload) {
  return (fn) => async () => {
    problem.textContent = '';
    try {
      await fn();
      await reload();
    } catch (err) {
      problem.textContent = err.message;
    }
  };
}

// Replaces an element's children.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// Draws `container` again with `draw()` without taking the keyboard's place away: the element that
// had the focus inside it (named by its data-key) has it again in the new content. A list redrawn
// on every lobby change would otherwise drop a keyboard or screen-reader user back to the page's
// top each time somebody came online.
export function keepFocus(container, draw) {
  const key = container.contains(document.activeElement) ? document.activeElement.dataset?.key : null;
  draw();
  if (key) container.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus({ preventScroll: true });
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

// One side's points in a count, in the rules' own terms (area: stones and territory; territory:
// territory and prisoners; White's komi and handicap compensation too): the game page's breakdown
// and blind mode's `score` say the same terms.
export function countTerms(breakdown, color) {
  const p = breakdown[color];
  const terms = breakdown.area ? [t('count.stones', { n: p.stones }), t('count.territory', { n: p.territory })]
    : [t('count.territory', { n: p.territory }), t('count.prisoners', { n: p.prisoners })];
  if (color === 'white') {
    terms.push(t('settings.komi', { komi: breakdown.komi }));
    if (breakdown.handicap_compensation) terms.push(t('count.handicap', { n: breakdown.handicap_compensation }));
  }
  return terms;
}

// Durations in a form's words: 90000 → "1 min 30 s" (in the page's language).
export function formatDuration(ms) {
  const s = Math.round(ms / 1000);
  if (s % 3600 === 0 && s >= 3600) return t('time.h', { n: s / 3600 });
  if (s >= 60) return s % 60 ? t('time.min_s', { m: Math.floor(s / 60), s: s % 60 }) : t('time.min', { n: s / 60 });
  return t('time.s', { n: s });
}

// Days and hours for correspondence clocks: 223200000 → "2 d 14 h"; under a day as formatMs does.
export function formatDays(ms) {
  if (ms < 86400000) return formatMs(ms);
  const hours = Math.floor(Math.max(0, ms) / 3600000);
  return hours % 24 ? t('time.d_h', { d: Math.floor(hours / 24), h: hours % 24 }) : t('time.days', { n: hours / 24 });
}

export function describeTime(tc) {
  switch (tc?.system) {
    case 'correspondence': {
      const per = formatDays(tc.per_move_ms);
      const words = [tc.max_ms ? t('time.correspondence_bank', { per, max: formatDays(tc.max_ms) }) : t('time.correspondence', { per })];
      if (tc.weekends_off) words.push(t('time.weekends_off'));
      return words.join(', ');
    }
    case 'absolute': return t('time.absolute', { main: formatDuration(tc.main_ms) });
    case 'simple': return t('time.simple', { per: formatDuration(tc.per_move_ms) });
    case 'fischer':
      return t(tc.max_ms ? 'time.fischer_max' : 'time.fischer', { main: formatDuration(tc.main_ms), inc: formatDuration(tc.increment_ms), max: formatDuration(tc.max_ms) });
    case 'byoyomi': return t('time.byoyomi', { main: formatDuration(tc.main_ms), periods: tc.periods, period: formatDuration(tc.period_ms) });
    case 'canadian': return t('time.canadian', { main: formatDuration(tc.main_ms), stones: tc.stones, period: formatDuration(tc.period_ms) });
    default: return t('time.none');
  }
}

// Rulesets by their wire name, with their komi; `rulesetName` says them in the page's language.
export const RULESETS = {
  japanese: { komi: 6.5 },
  chinese: { komi: 7.5 },
  korean: { komi: 6.5 },
  aga: { komi: 7.5 },
  'new-zealand': { komi: 7 },
  ing: { komi: 7.5 },
  'tromp-taylor': { komi: 7.5 },
};
export const rulesetName = (r) => (RULESETS[r] ? t(`ruleset.${r}`) : r);

export function komiOf(settings) {
  return settings.komi ?? RULESETS[settings.ruleset]?.komi ?? 0;
}

export function sizeOf(settings) {
  return settings.width === settings.height ? `${settings.width}×${settings.width}` : `${settings.width}×${settings.height}`;
}

export function describeSettings(s, { size = true } = {}) {
  const parts = [...(size ? [sizeOf(s)] : []), rulesetName(s.ruleset), t('settings.komi', { komi: komiOf(s) })];
  if (s.handicap === 'automatic') parts.push(t('settings.handicap_auto'));
  else if (s.handicap) parts.push(t(`settings.handicap_${s.placement === 'free' || s.placement === 'fixed' ? s.placement : 'ruleset'}`, { n: s.handicap }));
  parts.push(describeTime(s.time));
  if (s.rated) parts.push(t('settings.rated'));
  if (s.private) parts.push(t('settings.private'));
  return parts.join(' · ');
}

// How a challenge's colours are decided, in words.
export const colorWords = (c) => (['nigiri', 'black', 'white', 'automatic'].includes(c) ? t(`settings.color_${c}`) : c);

// How a game ended ("by resignation"), from the server's end reason.
export const endReason = (reason) => (has(`end.${reason}`) ? t(`end.${reason}`) : reason);

// "W+5.5" → {winner: 'white', how: 'by 5.5 points'}; null for no winner (jigo, void) or nonsense.
export function resultParts(result) {
  const m = /^([BW])\+(.*)$/.exec(result ?? '');
  if (!m) return null;
  const manner = { R: 'result.by_resignation', T: 'result.on_time', F: 'result.by_forfeit' }[m[2]];
  const points = Number(m[2]);
  const how = manner ? t(manner) : m[2] === '' ? '' : Number.isFinite(points) ? t('result.by_points', { n: points }) : m[2];
  return { winner: m[1] === 'B' ? 'black' : 'white', how };
}

// "W+5.5" → "White wins by 5.5 points".
export function describeResult(result) {
  if (!result) return '';
  if (result === '0' || result === 'Draw') return t('result.jigo');
  if (result === 'Void') return t('result.void');
  const parts = resultParts(result);
  if (!parts) return result;
  return t(`result.${parts.winner}_wins`, { how: parts.how }).trim();
}

export function formatDate(ms) {
  if (!ms) return '';
  return formatDateTime(ms);
}
