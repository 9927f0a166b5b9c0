// Learn Go: the rules in short lessons, each a few paragraphs and exercises on a small board.
// Every board and every verdict comes from the server's rules engine (POST /api/v1/positions; the
// same engine in the browser when offline, engine.js):
// the position a lesson sets up, whether a move captures, is suicide or breaks the ko, who owns
// which points and how a finished position counts. Nothing here knows the rules; a lesson only
// names its goal ("captures C3 and D3", "refused as ko", "A1 to A5 are Black's", "the count
// the player chose"). The words are the catalogs' course.* keys; `solution` is for the tests
// (tests/web/course.mjs), never shown.
import { h, fill, describeResult, vertexName } from './util.js';
import { BoardView } from './board.js';
import { Position } from './position.js';
import { fetchJson, ApiError } from './api.js';
import { enginePosition } from './engine.js';
import { t, tn } from './i18n.js';
import { isBot } from './ranks.js';
import { botSettings } from './play_now.js';
import { Command } from './wire.js';

const DONE_KEY = 'tengen-course-done';

// A 7×7 finished position used by the counting lessons: Black's wall on D, White's on E.
const WALLS = {
  size: 7,
  black: ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7'],
  white: ['E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7'],
};

// Each exercise: `kind` play (a move whose answer meets `goal`), mark (the dead stones, counted)
// or choose (one of `options`, the count the engine makes); `setup` the board (size, black,
// white, moves already played, ruleset, komi, handicap); `color` who plays.
export const LESSONS = [
  {
    id: 'liberties', paragraphs: 3,
    exercises: [{
      kind: 'play', color: 'black',
      setup: { size: 5, black: ['B3', 'C4', 'D4', 'E3', 'C2'], white: ['C3', 'D3'] },
      goal: { captures: ['C3', 'D3'] }, solution: 'D2',
    }],
  },
  {
    id: 'capture', paragraphs: 2,
    exercises: [{
      kind: 'play', color: 'black',
      setup: { size: 5, black: ['A4', 'B3'], white: ['A3'] },
      goal: { captures: ['A3'] }, solution: 'A2',
    }, {
      kind: 'play', color: 'white',
      setup: { size: 5, black: ['B2', 'C2', 'B4', 'C4', 'E2'], white: ['A2', 'A3', 'B3', 'C3', 'D2', 'B1'] },
      goal: { captures: ['B2', 'C2'] }, solution: 'C1',
    }],
  },
  {
    id: 'suicide', paragraphs: 2,
    exercises: [{
      kind: 'play', color: 'black',
      setup: { size: 5, black: ['C3', 'D4'], white: ['A2', 'B1', 'D2', 'E3'] },
      goal: { refused: ['suicide'] }, solution: 'A1',
    }, {
      kind: 'play', color: 'black',
      setup: { size: 5, black: ['A3', 'B2', 'C1'], white: ['A2', 'B1'] },
      goal: { captures: ['A2', 'B1'] }, solution: 'A1',
    }],
  },
  {
    id: 'ko', paragraphs: 3,
    exercises: [{
      kind: 'play', color: 'black',
      setup: { size: 5, black: ['B4', 'A3', 'B2'], white: ['C4', 'B3', 'D3', 'C2'] },
      goal: { captures: ['B3'] }, solution: 'C3',
    }, {
      kind: 'play', color: 'white',
      setup: { size: 5, black: ['B4', 'A3', 'B2'], white: ['C4', 'B3', 'D3', 'C2'], moves: [['black', 'C3']] },
      goal: { refused: ['ko', 'positional_superko', 'situational_superko'] }, solution: 'B3',
    }, {
      kind: 'play', color: 'white',
      setup: {
        size: 5, black: ['B4', 'A3', 'B2'], white: ['C4', 'B3', 'D3', 'C2'],
        moves: [['black', 'C3'], ['white', 'E5'], ['black', 'E4']],
      },
      goal: { captures: ['C3'] }, solution: 'B3',
    }],
  },
  {
    id: 'end', paragraphs: 3,
    exercises: [{
      kind: 'play', color: 'black',
      setup: { size: 5, black: ['B1', 'B2', 'B4', 'B5'], white: ['C1', 'C2', 'C3', 'C4', 'C5'] },
      goal: { owns: { color: 'b', points: ['A1', 'A2', 'A3', 'A4', 'A5', 'B3'] } }, solution: 'B3',
    }],
  },
  {
    id: 'dead', paragraphs: 3,
    exercises: [{
      kind: 'mark',
      setup: { ...WALLS, black: [...WALLS.black, 'G2'], white: [...WALLS.white, 'B5'], ruleset: 'japanese' },
      solution: ['B5', 'G2'],
    }],
  },
  {
    id: 'counting', paragraphs: 3,
    exercises: [{
      kind: 'choose', setup: { ...WALLS, ruleset: 'japanese', komi: 6.5 },
      options: ['B+7', 'B+0.5', 'W+0.5', 'W+6.5'],
    }, {
      kind: 'choose', setup: { ...WALLS, ruleset: 'chinese', komi: 7.5 },
      options: ['B+0.5', 'W+0.5', 'W+7.5', 'B+7'],
    }],
  },
  {
    id: 'komi', paragraphs: 2,
    exercises: [{
      kind: 'choose', setup: { ...WALLS, ruleset: 'japanese', komi: 0 },
      options: ['B+7', 'B+0.5', 'W+6.5', '0'],
    }],
  },
  {
    id: 'handicap', paragraphs: 3,
    exercises: [{
      kind: 'choose',
      setup: { ...WALLS, ruleset: 'chinese', komi: 0.5, handicap: 2 },
      options: ['B+6.5', 'B+4.5', 'B+7', 'W+0.5'],
    }],
  },
  {
    id: 'nigiri', paragraphs: 2,
    exercises: [{ kind: 'nigiri', stones: 7, guess: 'even', options: ['guesser', 'holder'] }],
  },
];

// The words of Go, each with its meaning, shown under the lessons; the catalogs' glossary.* keys
// give each language's term (docs/glossary.md has them side by side).
export const GLOSSARY = ['chain', 'liberty', 'atari', 'capture', 'prisoner', 'suicide', 'ko', 'superko', 'pass',
  'dead', 'seki', 'dame', 'territory', 'area', 'komi', 'handicap', 'nigiri', 'byoyomi'];

// The exercises solved, in this browser: a guest's under one key, each account's under its own
// (a school's computers are shared). A signed-in player's finished lessons are kept on the server
// too (PUT /api/v1/me/course/{lesson}): their teacher's dashboard shows them (docs/classes.md)
// and another device finds them.
let doneKey = DONE_KEY;
let signedIn = false;
const done = () => new Set(JSON.parse(localStorage.getItem(doneKey) || '[]'));
const keepDone = (set) => localStorage.setItem(doneKey, JSON.stringify([...set]));
const lessonDone = (lesson, set) => lesson.exercises.every((_, i) => set.has(`${lesson.id}.${i + 1}`));
const tellServer = (lesson) => fetchJson(`/api/v1/me/course/${lesson}`, { method: 'PUT' }).catch(() => {});
function markDone(key) {
  const set = done();
  set.add(key);
  keepDone(set);
  const lesson = LESSONS.find((l) => key.startsWith(`${l.id}.`));
  if (signedIn && lesson && lessonDone(lesson, set)) tellServer(lesson.id);
}

// This browser's and the server's progress made one: each side learns what the other has.
async function syncProgress(ctx) {
  signedIn = Boolean(ctx.user);
  doneKey = ctx.user ? `${DONE_KEY}:${ctx.user.id}` : DONE_KEY;
  if (!ctx.user) return;
  try {
    const { lessons } = await fetchJson('/api/v1/me/course');
    const onServer = new Set(lessons);
    const set = done();
    for (const lesson of LESSONS) {
      if (onServer.has(lesson.id)) lesson.exercises.forEach((_, i) => set.add(`${lesson.id}.${i + 1}`));
    }
    keepDone(set);
    await Promise.all(LESSONS.filter((l) => !onServer.has(l.id) && lessonDone(l, set)).map((l) => tellServer(l.id)));
  } catch { /* offline: this browser's alone until the next visit */ }
}

// The engine's answer for a setup and the moves after it (and a count, with `dead`): the
// server's, or with no network the same engine's in this browser (engine.js).
async function ask(setup, moves = [], dead = null) {
  const body = {
    width: setup.size, height: setup.size, ruleset: setup.ruleset ?? 'japanese',
    black: setup.black ?? [], white: setup.white ?? [],
    moves: [...(setup.moves ?? []), ...moves].map(([color, vertex]) => ({ color, vertex })),
  };
  if (setup.komi !== undefined) body.komi = setup.komi;
  if (setup.handicap) body.handicap = setup.handicap;
  if (dead) body.dead = dead;
  try {
    return await fetchJson('/api/v1/positions', { method: 'POST', body });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'network') return enginePosition(body);
    throw err;
  }
}

const points = (answer) => [...answer.board].map((c) => (c === '.' ? null : c));

// "Black 21 · White 20.5": the engine's totals.
const totals = (score) => `${t('scoring.black', { n: score.black })} · ${t('scoring.white', { n: score.white })}`;

function exercise(ctx, lesson, index, onSolved) {
  const ex = lesson.exercises[index];
  const key = `${lesson.id}.${index + 1}`;
  const prompt = h('p', { class: 'exercise-prompt' }, t(`course.${lesson.id}.ex${index + 1}`));
  const feedback = h('p', { class: 'exercise-feedback', role: 'status', 'aria-live': 'polite' });
  const holder = h('div', { class: 'course-board' });
  const extra = h('div', { class: 'exercise-extra' });
  const el = h('section', { class: 'card exercise', dataset: { exercise: key, kind: ex.kind } },
    h('h2', {}, t('course.exercise', { n: index + 1, of: lesson.exercises.length })), prompt, holder, extra, feedback);
  let board = null;
  let start = null;   // the engine's board before the player's move
  let solved = false;
  let busy = false;

  const say = (text, kind) => {
    feedback.textContent = text;
    feedback.dataset.state = kind;
    // On a phone the board fills the screen: the verdict is brought into view, not left below it.
    const box = feedback.getBoundingClientRect();
    if (box.bottom > window.innerHeight || box.top < 0) {
      const calm = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      feedback.scrollIntoView({ block: 'nearest', behavior: calm ? 'auto' : 'smooth' });
    }
  };
  function solve(text) {
    solved = true;
    say(`✓ ${text}`, 'solved');
    el.classList.add('solved');
    markDone(key);
    onSolved();
  }
  // The last move ringed: the player's, or the setup's last (the ko just taken).
  const pointIndex = (vertex) => (vertex && vertex !== 'pass' ? position().index(vertex) : null);
  const setupLast = () => pointIndex(ex.setup?.moves?.at(-1)?.[1]);
  const draw = (answer, dead = new Set(), last = setupLast()) => board?.render({ position: points(answer), dead, last });

  async function load() {
    if (ex.kind === 'nigiri') {
      fill(holder);
      fill(extra, ...nigiriChoices());
      return;
    }
    const size = ex.setup.size;
    board = new BoardView(size, size, {
      onPoint: (vertex) => point(vertex),
      ghost: () => (solved || busy || ex.kind !== 'play' ? null : ex.color[0]),
      label: t('game.board_label', { width: size, height: size }),
    });
    holder.style.setProperty('--ratio', String(board.aspect));
    fill(holder, board.el);
    try {
      start = await ask(ex.setup);
      draw(start);
    } catch (err) {
      say(err.message, 'error');
      return;
    }
    if (ex.kind === 'choose') fill(extra, ...countChoices());
    if (ex.kind === 'mark') fill(extra, h('button', { type: 'button', class: 'primary', onclick: countMarked }, t('course.count')));
    if (ex.kind === 'play') prompt.append(' ', h('span', { class: 'muted' }, t(`course.you_play_${ex.color}`)));
  }

  // A move: the engine's answer decides.
  async function point(vertex) {
    if (ex.kind === 'mark') return toggleDead(vertex);
    if (ex.kind !== 'play' || solved || busy) return;
    busy = true;
    try {
      const answer = await ask(ex.setup, [[ex.color, vertex]], ex.goal.owns ? [] : null);
      draw(answer, new Set(), pointIndex(vertex));
      if (ex.goal.captures) {
        const all = ex.goal.captures.every((v) => answer.captured.includes(v));
        if (all) solve(t(`course.${lesson.id}.ex${index + 1}_ok`));
        else retry(answer.captured.length ? t('course.not_all_captured') : t('course.captures_nothing'));
      } else if (ex.goal.refused) {
        retry(t('course.allowed', { vertex }));
      } else if (ex.goal.owns) {
        const { color, points: wanted } = ex.goal.owns;
        const owner = (v) => answer.score.ownership[position().index(v)];
        if (wanted.every((v) => owner(v) === color)) solve(t(`course.${lesson.id}.ex${index + 1}_ok`));
        else retry(t('course.not_yet_owned'));
      }
    } catch (err) {
      if (err instanceof ApiError && err.code === 'illegal_move' && ex.goal.refused?.includes(err.reason)) {
        solve(`${err.message} ${t(`course.${lesson.id}.ex${index + 1}_ok`)}`);
      } else {
        say(err.message, 'wrong');
      }
    } finally {
      busy = false;
    }
  }

  // A wrong move: said, and the board set back after a moment's look.
  function retry(text) {
    say(`${text} ${t('course.try_again')}`, 'wrong');
    setTimeout(() => { if (!solved) draw(start); }, 1200);
  }

  const position = () => {
    const p = new Position(ex.setup.size, ex.setup.size);
    p.points = points(start);
    return p;
  };

  // Marking: a tap marks or unmarks the whole chain, as in a game's scoring phase.
  const marked = new Set();
  function toggleDead(vertex) {
    if (solved || !start) return;
    const chain = position().chainAt(vertex);
    if (!chain.length) return;
    const on = !marked.has(chain[0]);
    for (const i of chain) { if (on) marked.add(i); else marked.delete(i); }
    draw(start, marked);
    say('', '');
  }
  const vertexOf = (i) => vertexName(i % ex.setup.size, Math.floor(i / ex.setup.size), ex.setup.size);
  // The count with the player's marks against the count with the dead stones there are: the
  // engine counts both.
  async function countMarked() {
    if (solved) return;
    try {
      const mine = await ask(ex.setup, [], [...marked].map(vertexOf));
      const right = await ask(ex.setup, [], ex.solution);
      const same = mine.score.black === right.score.black && mine.score.white === right.score.white;
      const text = `${totals(mine.score)}: ${describeResult(mine.score.result)}.`;
      if (same) solve(`${text} ${t(`course.${lesson.id}.ex${index + 1}_ok`)}`);
      else say(`${text} ${t('course.mark_wrong')}`, 'wrong');
    } catch (err) {
      say(err.message, 'wrong');
    }
  }

  // Counting: the player picks a result; the engine counts the position.
  function countChoices() {
    return [h('div', { class: 'choices', role: 'group', 'aria-label': t('course.choose') },
      ...ex.options.map((option) => h('button', {
        type: 'button', class: 'choice', dataset: { option },
        onclick: async (e) => {
          if (solved) return;
          const button = e.currentTarget;
          try {
            const counted = await ask(ex.setup, [], []);
            const b = counted.score.breakdown;
            const how = `${totals(counted.score)} (${b.area ? t('count.by_area') : t('count.by_territory')}${b.komi ? `, ${t('settings.komi', { komi: b.komi })}` : ''}${b.handicap_compensation ? `, ${t('count.handicap', { n: b.handicap_compensation })}` : ''}).`;
            if (counted.score.result === option) {
              button.setAttribute('aria-pressed', 'true');  // the answer stays marked
              solve(`${describeResult(option)}: ${how} ${t(`course.${lesson.id}.ex${index + 1}_ok`)}`);
            }
            else say(`${t('course.not_that', { result: describeResult(option) })} ${t('course.try_again')}`, 'wrong');
          } catch (err) {
            say(err.message, 'wrong');
          }
        },
      }, describeResult(option))))];
  }

  // The nigiri: parity decides, not the board.
  function nigiriChoices() {
    const odd = ex.stones % 2 === 1;
    const right = (ex.guess === 'odd') === odd ? 'guesser' : 'holder';
    return [h('div', { class: 'choices', role: 'group', 'aria-label': t('course.choose') },
      ...ex.options.map((option) => h('button', {
        type: 'button', class: 'choice', dataset: { option },
        onclick: (e) => {
          if (solved) return;
          if (option === right) {
            e.currentTarget.setAttribute('aria-pressed', 'true');
            solve(t(`course.${lesson.id}.ex${index + 1}_ok`));
          } else {
            say(`${t('course.nigiri_wrong', { n: ex.stones })} ${t('course.try_again')}`, 'wrong');
          }
        },
      }, t(`course.nigiri.${option}`))))];
  }

  load();
  return { el, solved: () => solved };
}

function lessonIndex(root) {
  const finished = done();
  fill(root, h('div', { class: 'course' },
    h('section', { class: 'card course-intro' }, h('h1', {}, t('course.title')), h('p', {}, t('course.intro'))),
    h('ol', { class: 'lessons' }, ...LESSONS.map((lesson) => {
      const count = lesson.exercises.length;
      const solved = lesson.exercises.filter((_, i) => finished.has(`${lesson.id}.${i + 1}`)).length;
      return h('li', { class: `card lesson-link${solved === count ? ' complete' : ''}` },
        h('a', { href: `#/learn/${lesson.id}` }, t(`course.${lesson.id}.title`)),
        h('span', { class: 'muted' }, solved === count ? `✓ ${t('course.complete')}` : t('course.progress', { solved, n: count })));
    })),
    h('section', { class: 'card glossary' }, h('h2', {}, t('course.glossary')),
      h('dl', {}, ...GLOSSARY.flatMap((term) => [h('dt', { dataset: { term } }, t(`glossary.${term}`)), h('dd', {}, t(`glossary.${term}_def`))])))));
  return () => {};
}

// The end of the course: a 9×9 game against a bot (a player signed in) or an account first.
function playOn(ctx) {
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const play = async () => {
    const bot = [...ctx.lobby.online.values()].find((u) => isBot(u.id));
    if (!bot) {
      ctx.navigate('#/');
      return;
    }
    try {
      await ctx.conn.command(Command.create_challenge, { settings: botSettings(9), opponent: bot.name });
      problem.textContent = t('bots.asking', { name: bot.name });
    } catch (err) {
      problem.textContent = err.message;
    }
  };
  return h('section', { class: 'card course-end' }, h('h2', {}, t('course.end_title')), h('p', {}, t('course.end_text')),
    ctx.user
      ? h('button', { type: 'button', class: 'primary play-nine', onclick: play }, t('course.play_nine'))
      : h('p', {}, ...tn('welcome.join', { link: h('a', { class: 'button primary', href: '#/register' }, t('welcome.create')) })),
    problem);
}

export function mountCourse(root, ctx, id) {
  signedIn = Boolean(ctx.user);
  doneKey = ctx.user ? `${DONE_KEY}:${ctx.user.id}` : DONE_KEY;
  const at = LESSONS.findIndex((l) => l.id === id);
  if (at < 0) {
    let gone = false;
    lessonIndex(root);
    syncProgress(ctx).then(() => { if (!gone && ctx.user) lessonIndex(root); });
    return () => { gone = true; };
  }
  const lesson = LESSONS[at];
  const next = LESSONS[at + 1];
  const nav = h('nav', { class: 'lesson-nav', 'aria-label': t('course.title') },
    h('a', { href: '#/learn' }, `← ${t('course.all_lessons')}`),
    next ? h('a', { class: 'button next-lesson', href: `#/learn/${next.id}` }, `${t('course.next')}: ${t(`course.${next.id}.title`)} →`) : '');
  const exercises = lesson.exercises.map((_, i) => exercise(ctx, lesson, i, () => {
    if (exercises.every((e) => e.solved())) nav.classList.add('ready');
  }));
  fill(root, h('div', { class: 'course lesson', dataset: { lesson: lesson.id } },
    h('article', { class: 'card lesson-text' },
      h('p', { class: 'muted' }, t('course.lesson_n', { n: at + 1, of: LESSONS.length })),
      h('h1', {}, t(`course.${lesson.id}.title`)),
      ...Array.from({ length: lesson.paragraphs }, (_, i) => h('p', {}, t(`course.${lesson.id}.p${i + 1}`)))),
    ...exercises.map((e) => e.el),
    next ? '' : playOn(ctx),
    nav));
  document.title = `${t(`course.${lesson.id}.title`)} · Tengen`;
  return () => {};
}
