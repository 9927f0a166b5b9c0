// The web client's message catalogs (web/locales/*.json) against English and against the code:
// every language has exactly English's keys, the same {places} in each message and the plural
// forms its language needs; every key the pages ask for exists, and every key is asked for.
//   node --test tests/web/catalogs.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const web = new URL('../../web/', import.meta.url);
const locales = new URL('locales/', web);
const read = (url) => JSON.parse(readFileSync(url, 'utf8'));
const english = read(new URL('en.json', locales));
const languages = readdirSync(locales).filter((f) => /^[a-zA-Z-]+\.json$/.test(f) && f !== 'index.json').map((f) => f.slice(0, -5));

// The {places} of a message (every plural form's together).
const places = (m) => new Set((typeof m === 'object' ? Object.values(m).join(' ') : m).match(/\{\w+\}/g) ?? []);

// German speaks to the player as "du" throughout (docs/languages.md): a formal "Sie", "Ihr",
// "Ihnen" inside a sentence (not "Sie" = they, or "Ihre" = its, opening one) mixes the two.
test('de: the player is "du", never "Sie"', () => {
  const catalog = read(new URL('de.json', locales));
  const formal = /(?<![.!?:]\s|^)\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b/;
  const found = Object.entries(catalog).flatMap(([key, m]) => (typeof m === 'object' ? Object.values(m) : [m])
    .filter((text) => formal.test(text)).map((text) => `${key}: ${text}`));
  assert.deepEqual(found, []);
});

test('English, Dutch and German are there', () => {
  for (const code of ['en', 'nl', 'de']) assert.ok(languages.includes(code), `web/locales/${code}.json`);
});

for (const code of languages) {
  test(`${code}: the same keys as English, the same places, its plural forms`, () => {
    const catalog = read(new URL(`${code}.json`, locales));
    const missing = Object.keys(english).filter((k) => !(k in catalog));
    const extra = Object.keys(catalog).filter((k) => !(k in english));
    assert.deepEqual(missing, [], `${code}.json lacks keys`);
    assert.deepEqual(extra, [], `${code}.json has keys English does not`);
    const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
    for (const [key, message] of Object.entries(catalog)) {
      const en = english[key];
      assert.equal(typeof message === 'object', typeof en === 'object', `${code} ${key}: plural in one, not the other`);
      if (typeof message === 'object') {
        assert.deepEqual(Object.keys(message).sort(), [...categories].sort(), `${code} ${key}: plural forms`);
        assert.ok(Object.values(message).every((m) => typeof m === 'string' && m.length), `${code} ${key}: empty form`);
      } else {
        assert.ok(typeof message === 'string' && message.length, `${code} ${key}: empty`);
      }
      assert.deepEqual([...places(message)].sort(), [...places(en)].sort(), `${code} ${key}: places`);
    }
  });
}

// Keys in the code: t('a.b'), T('a.b'), tn('a.b'), any 'a.b' string that is a key (tables of
// keys), data-i18n="a.b" in the page; t(`a.${x}`) stands for every key it can make.
function usage() {
  const literal = new Set();
  const patterns = [];
  const files = readdirSync(new URL('js/', web)).filter((f) => f.endsWith('.js')).map((f) => readFileSync(new URL(`js/${f}`, web), 'utf8'));
  files.push(readFileSync(new URL('index.html', web), 'utf8'));
  for (const text of files) {
    for (const m of text.matchAll(/\b(?:t|T|tn)\('([\w.-]+)'/g)) literal.add(m[1]);
    for (const m of text.matchAll(/data-i18n(?:-label)?="([\w.-]+)"/g)) literal.add(m[1]);
    for (const m of text.matchAll(/'([a-z]+\.[\w.-]+)'/g)) if (m[1] in english) literal.add(m[1]);
    for (const m of text.matchAll(/\b(?:t|T|tn|has)\(`([^`]*\$\{[^`]*)`/g)) {
      const source = m[1].split(/\$\{[^}]*\}/).map((part) => part.replace(/[.*+?^()|[\]\\]/g, '\\$&')).join('[\\w.-]+');
      patterns.push(new RegExp(`^${source}$`));
    }
  }
  return { literal, patterns };
}

test('every key the pages ask for is in the English catalog, and every key is asked for', () => {
  const { literal, patterns } = usage();
  const unknown = [...literal].filter((k) => !(k in english));
  assert.deepEqual(unknown, [], 'keys used but not in en.json');
  const unused = Object.keys(english).filter((k) => !literal.has(k) && !patterns.some((p) => p.test(k)));
  assert.deepEqual(unused, [], 'keys in en.json that no page uses');
});
