// The web client's words in the player's language. Each language is one catalog,
// web/locales/xx.json: flat keys ("game.pass") to messages with {named} places, and plural
// messages as {"one": ..., "other": ...} chosen by Intl.PluralRules for the `n` parameter.
// The language follows the browser's list unless the player chose one (remembered here); a key a
// catalog lacks falls back to English (the test in tests/web/catalogs.test.mjs keeps them equal).
// Numbers, dates and times go through Intl in the same language. Written here rather than taken
// from a library: this is the whole of what the pages need, and the catalogs stay plain JSON.
const STORE_KEY = 'tengen-language';

let language = 'en';
let words = {};
let english = {};
let plurals = new Intl.PluralRules('en');
let available = ['en'];

// Uses a catalog directly (Node.js tests: no fetch of the page's files).
export function useCatalog(code, catalog, fallback = catalog) {
  language = code;
  words = catalog;
  english = fallback;
  plurals = new Intl.PluralRules(code);
}

// The catalogs beside this module: under the client's version (/v/<version>/locales/...) when the
// page was served so, and then cached for good (docs/web-client.md, "Caching").
const catalogs = new URL('../locales/', import.meta.url);

async function load(code) {
  const response = await fetch(new URL(`${code}.json`, catalogs));
  if (!response.ok) throw new Error(`no catalog for ${code}`);
  return response.json();
}

// The language to show: the player's choice, else the first of the browser's languages that has
// a catalog (nl-BE → nl), else English.
export function chooseLanguage(stored, preferred, codes) {
  if (stored && codes.includes(stored)) return stored;
  for (const tag of preferred) {
    if (codes.includes(tag)) return tag;
    const base = tag.toLowerCase().split('-')[0];
    if (codes.includes(base)) return base;
  }
  return 'en';
}

// Before the first view: the list of catalogs, the language, its words; the page's own HTML.
export async function startLanguage() {
  // English is always needed (the fallback): asked for together with the list, not after it.
  const base = load('en');
  base.catch(() => {});  // handled below
  try {
    const response = await fetch(new URL('index.json', catalogs));
    if (response.ok) available = (await response.json()).languages;
  } catch {
    // English only
  }
  const chosen = chooseLanguage(localStorage.getItem(STORE_KEY), navigator.languages ?? [navigator.language], available);
  try {
    const [fallback, own] = await Promise.all([base, chosen === 'en' ? base : load(chosen)]);
    useCatalog(chosen, own, fallback);
  } catch {
    useCatalog('en', english, english);
  }
  document.documentElement.lang = language;
  translatePage(document);
}

export const currentLanguage = () => language;
export const languages = () => available;

// The player's choice: remembered, and the page reloaded in it.
export function setLanguage(code) {
  localStorage.setItem(STORE_KEY, code);
  location.reload();
}

// "Nederlands", "Deutsch": a language's name in itself.
export function languageName(code) {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
  } catch {
    return code;
  }
}

export function has(key) {
  return key in words || key in english;
}

function message(key, params) {
  let m = words[key] ?? english[key];
  if (m === undefined) return key;
  if (typeof m === 'object') m = m[plurals.select(Number(params.n ?? 0))] ?? m.other;
  return m;
}

// Numbers as the language writes them (pass ids and other labels as strings: "Game 12345").
function show(value) {
  return typeof value === 'number' ? num(value) : String(value);
}

// t('review.moves', {n: 3}) → "3 moves" / "3 zetten" / "3 Züge".
export function t(key, params = {}) {
  return message(key, params).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? show(params[name]) : whole));
}

// The same as a list of strings and elements, for messages with a link or a name in bold:
// tn('chat.guest', {link: h('a', ...)}).
export function tn(key, params = {}) {
  const parts = message(key, params).split(/\{(\w+)\}/);
  return parts.map((part, i) => (i % 2 === 0 ? part : name(part)));
  function name(p) {
    if (!(p in params)) return `{${p}}`;
    return typeof params[p] === 'object' && params[p] !== null ? params[p] : show(params[p]);
  }
}

// Dates, times and numbers as the reader's region writes them: the browser's own locale when it
// is of the page's language (en-GB: 26 Nov 2026, 17:41; en-US: Nov 26, 2026, 5:41 PM; de-AT),
// else the page's language.
function region() {
  const nav = globalThis.navigator;  // none outside a browser (the unit tests)
  const wanted = [...(nav?.languages ?? []), nav?.language].filter(Boolean);
  return wanted.find((l) => l.toLowerCase().split('-')[0] === language.split('-')[0]) ?? language;
}

// 6.5 → "6,5" in Dutch and German; thousands grouped from five digits on.
export function num(n, options = {}) {
  return new Intl.NumberFormat(region(), { maximumFractionDigits: 2, useGrouping: 'min2', ...options }).format(n);
}

export function formatDateTime(ms, options = { dateStyle: 'medium', timeStyle: 'short' }) {
  return new Date(ms).toLocaleString(region(), options);
}

export function formatTime(ms) {
  return new Date(ms).toLocaleTimeString(region(), { hour: '2-digit', minute: '2-digit' });
}

// An error from the server in the player's words: the rules' reason ("error.illegal_move.ko") or
// the code ("error.not_your_turn") from the catalog; in English the server's own message says
// the most and is kept, as it is for any code the catalog does not know.
export function errorText(code, reason, serverMessage) {
  if (reason && has(`error.${code}.${reason}`)) return t(`error.${code}.${reason}`);
  if (language !== 'en' && code && has(`error.${code}`)) return t(`error.${code}`);
  return serverMessage || (code && has(`error.${code}`) ? t(`error.${code}`) : t('error.internal'));
}

// The page's own HTML: data-i18n="nav.lobby" (its text) and data-i18n-label="nav.main" (its aria-label).
export function translatePage(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}
