// SGF game trees, variations and marks, read and written by the engine (tests/engine/sgf_echo)
// and compared with @sabaki/sgf, the parser Sabaki and other Go programs use:
//   TENGEN_SGF_ECHO=build/dev/tests/sgf_echo node --test tests/web/sgf_tree.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import sgf from '@sabaki/sgf';

const echo = process.env.TENGEN_SGF_ECHO;
if (!echo) throw new Error('TENGEN_SGF_ECHO must name the sgf_echo binary');

const through = (text, ...args) => execFileSync(echo, args, { input: text, encoding: 'utf8' });

// What a tree says, as @sabaki/sgf reads it: per node its properties, with point lists expanded
// ("aa:cc" rectangles) and sorted, and FF, CA, AP (which the writer sets anew) left out.
const POINT_LISTS = new Set(['AB', 'AW', 'AE', 'TR', 'SQ', 'CR', 'MA']);
const REWRITTEN = new Set(['FF', 'CA', 'AP', 'GM']);
function normalise(node) {
  const data = {};
  for (const [id, values] of Object.entries(node.data)) {
    if (REWRITTEN.has(id)) continue;
    let v = values;
    if (POINT_LISTS.has(id)) v = values.flatMap((x) => sgf.parseCompressedVertices(x).map((p) => sgf.stringifyVertex(p)));
    if (id === 'KM') v = values.map((x) => String(Number(x)));
    data[id] = [...v].sort();
  }
  return { data, children: node.children.map(normalise) };
}
const treeOf = (text) => normalise(sgf.parse(text)[0]);

function mainLine(node) {
  const out = [];
  for (let n = node; n; n = n.children[0]) out.push(n.data);
  return out;
}

test('a teaching record with variations, marks, labels and escaped comments', () => {
  const text = `(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]PB[Teacher]PW[Student]C[Root comment]TR[dd][pp]
    (;B[pd]C[Why here? \\] and \\\\ are escaped]LB[qc:A][qd:B]
      (;W[dp]SQ[cc:ee];B[pp]CR[pp]N[Main line])
      (;W[dd]MA[pp]GB[1];B[dp]C[Variation: 小目]))
    (;B[qd]C[Another first move]
      (;W[dd])
      (;W[dc];B[pp])
      (;W[cd]LB[cd:1][dc:long label])))`;
  const ours = through(text);
  assert.deepEqual(treeOf(ours), treeOf(text));
  // What Sabaki writes, we read to the same tree.
  const stringified = sgf.stringify(sgf.parse(text));
  assert.deepEqual(treeOf(through(stringified)), treeOf(text));
  // And the engine's main line is Sabaki's first path.
  assert.deepEqual(mainLine(sgf.parse(through(text, '--main-line'))[0]).map((d) => d.B ?? d.W ?? null).filter(Boolean),
    mainLine(sgf.parse(text)[0]).map((d) => d.B ?? d.W ?? null).filter(Boolean));
});

// Random trees built with @sabaki/sgf: moves, setup, every kind of mark, comments with the
// characters SGF escapes, branching anywhere. The engine's round trip must keep each one.
test('random trees round trip to the same tree', () => {
  let seed = 12345;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const point = () => 'abcdefghijklm'[rand(13)] + 'abcdefghijklm'[rand(13)];
  const texts = ['plain', 'with ] bracket', 'back\\slash', 'colon: here', 'ünïcode 围棋', 'two\nlines'];
  let id = 0;
  function node(depth, colour) {
    const data = {};
    if (rand(6) === 0) { data.AB = [point()]; data.AW = [point()]; } else data[colour] = [rand(20) === 0 ? '' : point()];
    if (rand(3) === 0) data[['TR', 'SQ', 'CR', 'MA'][rand(4)]] = [point(), point()];
    if (rand(4) === 0) data.LB = [`${point()}:${texts[rand(texts.length)].replace('\n', ' ')}`];
    if (rand(3) === 0) data.C = [texts[rand(texts.length)]];
    const children = [];
    const kids = depth > 40 || --budget < 0 ? 0 : rand(10) === 0 ? 2 + rand(2) : 1;
    for (let k = 0; k < kids; k++) children.push(node(depth + 1, colour === 'B' ? 'W' : 'B'));
    return { id: id++, data, parentId: null, children };
  }
  let budget = 0;
  for (let round = 0; round < 30; round++) {
    budget = 300;
    const root = { id: id++, data: { GM: ['1'], FF: ['4'], SZ: ['13'], KM: ['7.5'], PB: ['Black'], C: ['root'] }, parentId: null, children: [node(0, 'B'), node(0, 'B')] };
    // Duplicate points in one list would be merged by any reader: keep each list's points distinct.
    const text = sgf.stringify([root]);
    const expected = treeOf(text);
    const dedupe = (n) => { for (const k of Object.keys(n.data)) if (POINT_LISTS.has(k)) n.data[k] = [...new Set(n.data[k])].sort(); n.children.forEach(dedupe); };
    dedupe(expected);
    const got = treeOf(through(text));
    dedupe(got);
    assert.deepEqual(got, expected, `round ${round}`);
  }
});

test('an unreadable file is refused with the offset', () => {
  assert.throws(() => execFileSync(echo, [], { input: '(;GM[1]SZ[9];B[aa]', encoding: 'utf8', stdio: 'pipe' }),
    (e) => /SGF error at offset \d+/.test(String(e.stderr)));
});
