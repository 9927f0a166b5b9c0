// The web client's copy of the protocol's names (web/js/wire.js, written from the protocol's
// descriptions by tengen-wire-js) against the wire fixture the server's codec is held to
// (tests/fixtures/wire/v1.txt): every command the fixture holds is one wire.js knows, with only
// the fields it lists, and every command wire.js knows is in the fixture; every message the
// server sends has its type there; every enum value in the fixture's server messages is named.
//   node --test tests/web/wire.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Command, CommandFields, Message, Enum, VERSION } from '../../web/js/wire.js';

const fixture = readFileSync(new URL('../fixtures/wire/v1.txt', import.meta.url), 'utf8')
  .split('\n').filter(Boolean).map((line) => {
    const tab = line.indexOf('\t');
    const [side] = line.slice(0, tab).split(' ');
    return { side, name: line.slice(0, tab), message: JSON.parse(line.slice(tab + 1)) };
  });
const client = fixture.filter((f) => f.side === 'client');
const server = fixture.filter((f) => f.side === 'server');

test('every command in the fixture is known, with only its fields', () => {
  assert.ok(client.length > 40);
  for (const { name, message } of client) {
    assert.equal(message.v, VERSION, name);
    assert.equal(Command[message.type], message.type, name);
    for (const key of Object.keys(message)) {
      if (key === 'v' || key === 'type' || key === 'cid') continue;
      assert.ok(CommandFields[message.type].includes(key), `${name}: ${key}`);
    }
  }
  const seen = new Set(client.map((f) => f.message.type));
  for (const type of Object.keys(Command)) assert.ok(seen.has(type), `${type} is in the fixture`);
});

test('every message type in the fixture is known, and every known one is in the fixture', () => {
  for (const { name, message } of server) assert.equal(Message[message.type], message.type, name);
  const seen = new Set(server.map((f) => f.message.type));
  for (const type of Object.keys(Message)) assert.ok(seen.has(type), `${type} is in the fixture`);
});

test('the enums carry the names the server writes', () => {
  const has = (e, v) => Object.keys(Enum[e]).includes(v);
  for (const { name, message: m } of server) {
    if (m.type === Message.error) assert.ok(has('ErrorCode', m.code), `${name}: ${m.code}`);
    if (m.type === Message.game_ended) assert.ok(has('EndReason', m.reason), `${name}: ${m.reason}`);
    if (m.type === Message.review_update) assert.ok(has('ReviewChange', m.change), `${name}: ${m.change}`);
    if (m.type === Message.group) assert.ok(has('GroupChange', m.change), `${name}: ${m.change}`);
    if (m.type === Message.snapshot && m.phase) assert.ok(has('Phase', m.phase), `${name}: ${m.phase}`);
  }
  assert.deepEqual(Object.keys(Enum.Color), ['black', 'white']);
});

test('a name the protocol does not have throws where it is used', () => {
  assert.throws(() => Command.paly, /the protocol has no command 'paly'/);
  assert.throws(() => Message.moved, /no message type 'moved'/);
  assert.throws(() => Enum.Color.red, /no Color 'red'/);
  assert.throws(() => { Command.play = 'x'; }, TypeError, 'the tables are frozen');
  assert.equal(`${Command.play}`, 'play');
});

test("every name the client's sources take from wire.js is one it has", async () => {
  const { readdirSync } = await import('node:fs');
  const dir = new URL('../../web/js/', import.meta.url);
  const tables = { Command, CommandFields, Message };
  let uses = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js') && f !== 'wire.js')) {
    const source = readFileSync(new URL(file, dir), 'utf8');
    for (const [, table, name] of source.matchAll(/\b(Command|CommandFields|Message)\.([A-Za-z_]+)/g)) {
      uses += 1;
      assert.ok(Object.keys(tables[table]).includes(name), `${file}: ${table}.${name}`);
    }
    for (const [, e, name] of source.matchAll(/\bEnum\.([A-Za-z]+)\.([A-Za-z_]+)/g)) {
      uses += 1;
      assert.ok(Object.keys(Enum[e]).includes(name), `${file}: Enum.${e}.${name}`);
    }
  }
  assert.ok(uses > 100, `${uses} uses`);
});
