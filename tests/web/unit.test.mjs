// The web client's pure logic, without a browser: clocks counted down between server updates,
// the position rebuilt from a snapshot's moves, coordinates and wording.
//   node --test tests/web/unit.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runDown, clockText } from '../../web/js/clock.js';
import { Position } from '../../web/js/position.js';
import { formatMs, parseVertex, vertexName, describeResult, describeTime } from '../../web/js/util.js';
import { readFileSync } from 'node:fs';
import { useCatalog } from '../../web/js/i18n.js';

// The pages' words come from the English catalog, as in a browser set to English.
useCatalog('en', JSON.parse(readFileSync(new URL('../../web/locales/en.json', import.meta.url))));

const byoyomi = { system: 'byoyomi', main_ms: 60000, periods: 3, period_ms: 30000 };
const side = (main_ms, periods = 0, period_ms = 0, stones = 0) => ({ main_ms, periods, period_ms, stones });

test('byo-yomi: main time, then periods one after another, the last one stays at zero', () => {
  assert.deepEqual(runDown(side(60000, 3, 30000), byoyomi, 10000), side(50000, 3, 30000));
  assert.deepEqual(runDown(side(60000, 3, 30000), byoyomi, 70000), side(0, 3, 20000));
  assert.deepEqual(runDown(side(0, 3, 30000), byoyomi, 45000), side(0, 2, 15000));
  assert.deepEqual(runDown(side(0, 1, 5000), byoyomi, 9000), side(0, 1, 0));
  assert.deepEqual(clockText(side(0, 2, 15000), byoyomi), { main: '0:15', extra: '2 periods', overtime: true });
  assert.equal(clockText(side(0, 1, 9000), byoyomi).extra, 'last period');
});

test('canadian: main time, then the block', () => {
  const canadian = { system: 'canadian', main_ms: 0, stones: 10, period_ms: 300000 };
  assert.deepEqual(runDown(side(1000, 0, 300000, 10), canadian, 61000), side(0, 0, 240000, 10));
  assert.deepEqual(clockText(side(0, 0, 240000, 1), canadian), { main: '4:00', extra: '1 stone to play', overtime: true });
});

test('fischer and absolute only lose main time, never below zero', () => {
  const fischer = { system: 'fischer', main_ms: 300000, increment_ms: 10000, max_ms: 0 };
  assert.deepEqual(runDown(side(5000), fischer, 9000), side(0));
  assert.equal(clockText(side(65000), fischer).main, '1:05');
});

test('time formats', () => {
  assert.equal(formatMs(3_723_000), '1:02:03');
  assert.equal(formatMs(59_001), '1:00');
  assert.equal(formatMs(9_460), '0:09.4');
  assert.equal(formatMs(-5), '0:00.0');
  assert.equal(describeTime(byoyomi), '1 min + 3×30 s byo-yomi');
  assert.equal(describeResult('W+5.5'), 'White wins by 5.5 points');
  assert.equal(describeResult('B+R'), 'Black wins by resignation');
  assert.equal(describeResult('0'), 'Jigo (a draw)');
});

test('coordinates skip the letter I and count rows from the bottom, up to 25×25', () => {
  assert.deepEqual(parseVertex('J1', 9, 9), { x: 8, y: 8 });
  assert.deepEqual(parseVertex('A9', 9, 9), { x: 0, y: 0 });
  assert.equal(parseVertex('I5', 9, 9), null);
  assert.equal(parseVertex('K5', 9, 9), null);
  assert.equal(parseVertex('A10', 19, 9), null);
  assert.equal(vertexName(24, 0, 25), 'Z25');
  for (let x = 0; x < 25; x++) assert.deepEqual(parseVertex(vertexName(x, 3, 25), 25, 25), { x, y: 3 });
});

test('a position rebuilt from moves takes captures, and suicide where the rules allow it', () => {
  const p = new Position(9, 9);
  for (const [c, v] of [['b', 'D6'], ['w', 'E6'], ['b', 'C5'], ['w', 'F5'], ['b', 'D4'], ['w', 'E4'], ['b', 'E5']]) {
    assert.deepEqual(p.play(c, v), []);
  }
  assert.deepEqual(p.play('w', 'D5'), [p.index('E5')]);  // the ko capture
  assert.equal(p.points[p.index('E5')], null);
  // A corner: White A2, B1; Black at A1 takes its own stone away (suicide, as Tromp-Taylor allows).
  p.play('w', 'A2');
  p.play('w', 'B1');
  assert.deepEqual(p.play('b', 'A1'), [p.index('A1')]);
  assert.deepEqual(p.chainAt('D5').length, 1);
  assert.deepEqual(p.chainAt('E7'), []);
});

test('tournament crosstable cells: opponent place, result, colour, handicap; byes and empty rounds', async () => {
  const { crosstableCell, RANKS } = await import('../../web/js/tournaments.js');
  assert.equal(crosstableCell({ opponent_place: 3, result: '+', color: 'w', handicap: 0, forfeit: false }), '3+w');
  assert.equal(crosstableCell({ opponent_place: 12, result: '-', color: 'b', handicap: 2, forfeit: true }), '12-b2!');
  assert.equal(crosstableCell({ bye: true }), 'bye');
  assert.equal(crosstableCell(null), '—');
  assert.equal(RANKS.length, 39);
  assert.equal(RANKS[0], '9d');
  assert.equal(RANKS[38], '30k');
});

test('stepping through a game: the position, captures and move numbers after any move', async () => {
  const { replay } = await import('../../web/js/review.js');
  const game = {
    width: 5, height: 5, handicap: [],
    moves: [
      { color: 'black', vertex: 'B3' }, { color: 'white', vertex: 'C3' }, { color: 'black', vertex: 'C4' },
      { color: 'white', vertex: 'pass' }, { color: 'black', vertex: 'D3' }, { color: 'white', vertex: 'A1' },
      { color: 'black', vertex: 'C2' },  // takes C3
    ],
  };
  const before = replay(game, 6);
  assert.equal(before.position.points[before.position.index('C3')], 'w');
  assert.deepEqual(before.captures, { black: 0, white: 0 });
  const after = replay(game, 7);
  assert.equal(after.position.points[after.position.index('C3')], null);
  assert.deepEqual(after.captures, { black: 1, white: 0 });
  assert.equal(after.numbers.get(after.position.index('C2')), 7);
  assert.equal(after.numbers.has(after.position.index('C3')), false, 'a captured stone loses its number');
  assert.equal(replay(game, 0).position.points.filter(Boolean).length, 0);
});

test('languages: the browser choice, plurals, numbers, results and server errors in Dutch and German', async () => {
  const { chooseLanguage, t, errorText } = await import('../../web/js/i18n.js');
  const available = ['de', 'en', 'nl'];
  assert.equal(chooseLanguage(null, ['nl-BE', 'en'], available), 'nl');
  assert.equal(chooseLanguage('de', ['nl-BE'], available), 'de');        // the player's choice first
  assert.equal(chooseLanguage('fr', ['fr-FR', 'de-AT'], available), 'de'); // a choice with no catalog
  assert.equal(chooseLanguage(null, ['ja'], available), 'en');
  const english = JSON.parse(readFileSync(new URL('../../web/locales/en.json', import.meta.url)));
  const load = (code) => JSON.parse(readFileSync(new URL(`../../web/locales/${code}.json`, import.meta.url)));
  try {
    useCatalog('nl', load('nl'), english);
    assert.equal(t('review.moves', { n: 1 }), '1 zet');
    assert.equal(t('review.moves', { n: 3 }), '3 zetten');
    assert.equal(t('settings.komi', { komi: 6.5 }), 'komi 6,5');
    assert.equal(describeResult('W+5.5'), 'Wit wint met 5,5 punten');
    assert.equal(t('title.game', { id: '12345' }), 'Partij 12345');
    assert.equal(errorText('not_your_turn', null, "it is the opponent's move"), 'Je bent niet aan zet.');
    assert.equal(errorText('illegal_move', 'ko', 'ko: retaking at once is not allowed'), 'Ko: je mag niet meteen terugslaan; speel eerst elders.');
    assert.equal(errorText('some_new_code', null, 'what the server says'), 'what the server says');
    useCatalog('de', load('de'), english);
    assert.equal(describeResult('B+R'), 'Schwarz gewinnt durch Aufgabe');
    assert.equal(describeTime(byoyomi), '1 Min. + 3×30 s Byo-Yomi');
    useCatalog('en', english);
    // In English the server's own message says the most (it names the point), but the rules'
    // reasons come from the catalog too.
    assert.equal(errorText('conflict', null, 'an undo request is already waiting for an answer'), 'an undo request is already waiting for an answer');
    assert.equal(errorText('illegal_move', 'suicide', 'suicide: a stone on A1 would have no liberty'), 'Suicide: that stone would have no liberty.');
  } finally {
    useCatalog('en', english);
  }
});

// Blind mode's words (web/js/blind_words.js): what the command box answers, from the board.
test('blind mode: commands in English and in the page\'s words, regions, thresholds', async () => {
  const { parseCommand, parseRegion, parseThresholds, thresholdPassed } = await import('../../web/js/blind_words.js');
  assert.deepEqual(parseCommand('d4'), { name: 'play', args: ['d4'] });
  assert.deepEqual(parseCommand('  Liberties   D4 '), { name: 'liberties', args: ['d4'] });
  assert.deepEqual(parseCommand('libs q16'), { name: 'liberties', args: ['q16'] });
  assert.deepEqual(parseCommand('last 5'), { name: 'last', args: ['5'] });
  assert.deepEqual(parseCommand('i5'), { name: 'unknown', args: ['i5'] }, 'no column I on a Go board');
  assert.deepEqual(parseCommand('xyzzy'), { name: 'unknown', args: ['xyzzy'] });
  assert.equal(parseCommand('   '), null);
  const dutch = JSON.parse(readFileSync(new URL('../../web/locales/nl.json', import.meta.url)));
  const nl = (name) => dutch[`blind.words.${name}`];
  assert.deepEqual(parseCommand('vrijheden c3', nl), { name: 'liberties', args: ['c3'] });
  assert.deepEqual(parseCommand('liberties c3', nl), { name: 'liberties', args: ['c3'] }, 'English always works');
  assert.deepEqual([...parseRegion(['linksboven'], nl)].sort(), ['left', 'top']);
  assert.deepEqual([...parseRegion(['top', 'left'])].sort(), ['left', 'top']);
  assert.deepEqual([...parseRegion([])], []);
  assert.equal(parseRegion(['middle']), null);
  assert.deepEqual(parseThresholds('30 20 10 5'), [30, 20, 10, 5]);
  assert.deepEqual(parseThresholds('5, 10,10'), [10, 5]);
  assert.equal(parseThresholds('10 soon'), null);
  assert.equal(parseThresholds('0'), null);
  assert.equal(thresholdPassed(10100, 9900, [30, 20, 10, 5]), 10);
  assert.equal(thresholdPassed(31000, 8000, [30, 20, 10, 5]), 10, 'a long gap says the nearest passed');
  assert.equal(thresholdPassed(9900, 9800, [30, 20, 10, 5]), null);
});

test('blind mode: the board, a point, a chain, its liberties, read from the stones', async () => {
  const { boardWords, pointWords, libertiesWords, chainWords, atariAround, moveWords } = await import('../../web/js/blind_words.js');
  // 5×5, rows from the top: row 5 empty; row 4 black B, C; row 3 white B, black C... (b = black)
  const rows = ['.....', '.bb..', '.wbw.', '..w..', '.....'];
  const points = rows.join('').split('').map((c) => (c === '.' ? null : c));
  assert.equal(boardWords(points, 5, 5),
    'Row 5 empty. Row 4: black B, C. Row 3: black C; white B, D. Row 2: white C. Row 1 empty.');
  assert.equal(boardWords(points, 5, 5, new Set(['top', 'left'])), 'Row 5 empty. Row 4: black B, C. Row 3: black C; white B.');
  assert.equal(boardWords(new Array(25).fill(null), 5, 5), 'Rows 5 to 1 empty.');
  // Counting: C2 dead, each side's territory as runs of columns.
  const ownership = ['bbb..', 'bbb..', 'bbbww', 'wbbww', 'wwwww'].join('');
  assert.equal(boardWords(points, 5, 5, new Set(), new Set([17]), ownership),
    'Row 5: black territory A to C. Row 4: black B, C; black territory A. Row 3: black C; white B, D; black territory A; white territory E. ' +
    'Row 2: white C (dead); black territory B, C; white territory A, D, E. Row 1: white territory A to E.');
  assert.equal(pointWords(points, 5, 5, 'C3'), 'C3: Black, in a chain of 3 stones, 4 liberties.');
  assert.equal(pointWords(points, 5, 5, 'c2'), 'C2: White, a single stone, 3 liberties.');
  assert.equal(pointWords(points, 5, 5, 'A1'), 'A1: empty.');
  assert.equal(libertiesWords(points, 5, 5, 'B4'), 'Black chain at B4: 4 liberties, A4, B5, C5, D4.');
  assert.equal(chainWords(points, 5, 5, 'C4'), 'Black chain at C4: 3 stones, B4, C3, C4.');
  // White B3 has A3 and B2 left; Black A3 leaves it one: said with its last liberty.
  points[10] = 'b';
  assert.deepEqual(atariAround(points, 5, 5, 'A3'), [{ color: 'white', at: 'B3', stones: 1, liberty: 'B2' }]);
  assert.equal(moveWords({ color: 'black', vertex: 'A3', captured: [] }, atariAround(points, 5, 5, 'A3')),
    'Black A3. White stone at B3 in atari, last liberty B2.');
  assert.equal(moveWords({ color: 'white', vertex: 'E4', captured: ['D4', 'D5'] }, [], { mine: true }), 'You played E4. Took 2 stones: D4, D5.');
  assert.equal(moveWords({ color: 'white', vertex: 'pass', captured: [] }), 'White passed.');
});

test('blind mode: clocks and the count in words', async () => {
  const { durationWords, clockWords, scoreWords, deadChains } = await import('../../web/js/blind_words.js');
  assert.equal(durationWords(270000), '4 minutes 30 seconds');
  assert.equal(durationWords(3600000 + 5 * 60000), '1 hour 5 minutes');
  assert.equal(durationWords(9001), '10 seconds', 'rounded up: never 0 while time is left');
  assert.equal(durationWords(0), '0 seconds');
  assert.equal(durationWords(2 * 86400000 + 3 * 3600000), '2 days 3 hours');
  const byoyomi = { system: 'byoyomi', main_ms: 600000, periods: 5, period_ms: 30000 };
  assert.equal(clockWords(side(60000, 5, 30000), byoyomi), '1 minute of main time, then 5 periods of 30 seconds');
  assert.equal(clockWords(side(0, 3, 12000), byoyomi), '12 seconds in this period, 3 periods left');
  assert.equal(clockWords(side(0, 1, 9000), byoyomi), '9 seconds in the last period');
  assert.equal(clockWords(side(0, 0, 240000, 7), { system: 'canadian', main_ms: 0, stones: 10, period_ms: 300000 }), '4 minutes for 7 stones');
  assert.equal(clockWords(side(65000), { system: 'fischer', main_ms: 300000, increment_ms: 10000 }), '1 minute 5 seconds left');
  const rows = ['bb.', 'ww.', '...'];
  const points = rows.join('').split('').map((c) => (c === '.' ? null : c));
  const chains = deadChains(points, 3, 3, ['A3', 'B3', 'B2']);
  assert.deepEqual(chains, [{ color: 'b', stones: ['A3', 'B3'] }, { color: 'w', stones: ['B2'] }].map((c) => c.color === 'w' ? { color: 'w', stones: ['A2', 'B2'] } : c));
  const score = { black: 3, white: 12.5, result: 'W+9.5', breakdown: { area: false, komi: 6.5, handicap_compensation: 0, black: { stones: 0, territory: 3, prisoners: 0 }, white: { stones: 0, territory: 4, prisoners: 2 } } };
  assert.equal(scoreWords(score, chains.slice(0, 1), 'White ahead by 9.5'),
    'Count: Black 3, White 12.5. White ahead by 9.5. Black: territory 3, prisoners 0. White: territory 4, prisoners 2, komi 6.5. Marked dead: Black A3 (2 stones).');
  assert.equal(scoreWords(score, [], 'x').endsWith('No stones are marked dead.'), true);
  assert.match(scoreWords(score, [], 'gnugo-easy won by 9.5 points.'), /^Count: Black 3, White 12\.5\. gnugo-easy won by 9\.5 points\. Black:/, 'one full stop');
});

test('blind mode: a word means the page\'s command (German "zurück": undo in a game, back in a review)', async () => {
  const { parseCommand, COMMANDS, REVIEW_COMMANDS } = await import('../../web/js/blind_words.js');
  const german = JSON.parse(readFileSync(new URL('../../web/locales/de.json', import.meta.url)));
  const de = (name) => german[`blind.words.${name}`];
  assert.equal(parseCommand('zurück', de, COMMANDS).name, 'undo');
  assert.equal(parseCommand('zurück', de, REVIEW_COMMANDS).name, 'back');
  assert.equal(parseCommand('ko', de, REVIEW_COMMANDS).name, 'unknown');
  assert.deepEqual(parseCommand('sag Viel Glück', de, COMMANDS), { name: 'say', args: ['viel', 'glück'] });
  // Every command's words, in every language, lead to that command on its page.
  for (const code of ['en', 'nl', 'de']) {
    const catalog = JSON.parse(readFileSync(new URL(`../../web/locales/${code}.json`, import.meta.url)));
    const words = (name) => catalog[`blind.words.${name}`];
    for (const names of [COMMANDS, REVIEW_COMMANDS]) {
      for (const name of names) {
        for (const word of words(name).split('|')) {
          assert.equal(parseCommand(`${word} d4`, words, names).name, name, `${code}: "${word}" is ${name}`);
        }
      }
    }
  }
});

test('analysis: swings in points, or in points of win rate when the engine gives no score', async () => {
  const { swingsOf, scored, positionFacts } = await import('../../web/js/analysis.js');
  const moves = [{ color: 'black', vertex: 'E5' }, { color: 'white', vertex: 'C3' }];
  const points = [{ move: 0, score: 1, line: ['E5'] }, { move: 1, score: 3.5, line: ['D4'] }, { move: 2, score: 8, line: [] }];
  assert.equal(scored(points), true);
  assert.deepEqual(swingsOf(points, moves).map((s) => [s.k, s.points, s.better]), [[1, 2.5, null], [2, -4.5, 'D4']]);
  const rates = [{ move: 0, winrate: 0.5, line: ['E5'] }, { move: 1, winrate: 0.62, line: ['C3'] }, { move: 2, winrate: 0.8, line: [] }];
  assert.equal(scored(rates), false);
  const swings = swingsOf(rates, moves);
  assert.ok(Math.abs(swings[0].points - 12) < 1e-9 && Math.abs(swings[1].points + 18) < 1e-9, JSON.stringify(swings));
  assert.deepEqual(positionFacts(rates[1]), ['Black 62%']);
  assert.deepEqual(positionFacts({ score: -2.5, winrate: 0.3, line: [] }), ['W+2.5', 'Black 30%']);
});
