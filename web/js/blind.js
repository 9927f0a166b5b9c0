// Blind mode (docs/accessibility.md): a game or a review followed and played by typed commands,
// each answered in a live region in a short sentence, and what happens announced as it happens.
// On when the Display menu or the link at the top of every page says so (remembered in this
// browser). This file: the switch, and the command box both pages build on (the board's
// questions: board, point, liberties, chain; help); blind_game.js and blind_review.js add their
// own commands.
import { h, parseVertex } from './util.js';
import { t } from './i18n.js';
import {
  ALL_COMMANDS, MAX_COMMAND_CHARS, parseCommand, parseRegion, boardWords, pointWords, libertiesWords, chainWords,
  deadPoints,
} from './blind_words.js';

const KEY = 'tengen-blind';
const KEPT_ANSWERS = 50;  // the log's length: older answers go
const KEPT_HISTORY = 50;  // commands recalled with the arrow keys

export const blindOn = () => localStorage.getItem(KEY) === 'on';

// Turns blind mode on or off, tells the page (app.js mounts the view again).
export function setBlind(on) {
  localStorage.setItem(KEY, on ? 'on' : 'off');
  applyBlind();
  window.dispatchEvent(new Event('tengen-blind'));
}

// <html data-blind="on">: the stylesheet gives the command box its room.
export function applyBlind() {
  if (blindOn()) document.documentElement.dataset.blind = 'on';
  else delete document.documentElement.dataset.blind;
}

export const upper = (s) => s.replace(/^./, (c) => c.toUpperCase());
export const sentence = (s) => (/[.!?…]$/.test(s) ? s : `${s}.`);

// A command box: the input, the log of answers (role="log": a screen reader reads it as it
// grows), ↑/↓ for earlier commands. A page's box names the commands it takes (`names`, in help's
// order) and gives the board through three methods: state() (null until the page has loaded),
// size() ({width, height}) and points() (b/w/null per point, rows from the top); marked(): the
// stones marked dead, if any.
export class CommandBox {
  constructor({ names, hint, extra = [] }) {
    this.names = names;
    this.history = [];
    this.recalled = -1;
    this.said = 0;  // answers so far (each numbered: data-n)
    this.input = h('input', {
      id: 'blind-command', name: 'command', autocomplete: 'off', spellcheck: 'false', maxlength: MAX_COMMAND_CHARS,
      'aria-describedby': 'blind-hint', onkeydown: (e) => this.recall(e),
    });
    this.log = h('div', { class: 'blind-log', role: 'log', 'aria-live': 'polite', 'aria-label': t('blind.answers'), tabindex: '0' });
    this.el = h('section', { class: 'blind-console', 'aria-labelledby': 'blind-title' },
      h('h2', { id: 'blind-title' }, t('blind.title')),
      h('form', { class: 'blind-form', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
        h('label', { for: 'blind-command' }, t('blind.command_label')), this.input,
        h('button', { type: 'submit' }, t('blind.run'))),
      h('p', { id: 'blind-hint', class: 'muted' }, hint),
      this.log, ...extra);
  }

  marked() {
    return [];
  }

  // The count's owner of each point (b, w or .), while there is one.
  ownership() {
    return null;
  }

  focus() {
    this.input.focus();
  }

  // An answer, appended to the log; the page's " · " between parts said as a pause (", "), not
  // as "middle dot".
  say(text) {
    if (!text) return;
    this.log.append(h('p', { 'data-n': String(++this.said) }, text.replaceAll(' · ', ', ')));
    while (this.log.childElementCount > KEPT_ANSWERS) this.log.firstElementChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  recall(e) {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    e.preventDefault();
    if (!this.history.length) return;
    this.recalled = e.key === 'ArrowUp' ? Math.min(this.history.length - 1, this.recalled + 1) : Math.max(-1, this.recalled - 1);
    this.input.value = this.recalled < 0 ? '' : this.history[this.history.length - 1 - this.recalled];
  }

  submit() {
    const text = this.input.value.trim();
    this.input.value = '';
    this.recalled = -1;
    if (!text) return;
    this.history.push(text);
    if (this.history.length > KEPT_HISTORY) this.history.shift();
    this.run(text).catch((err) => this.say(sentence(upper(err.message))));
  }

  // One command: its answer said in the log. Subclasses may look at it first (before()).
  async run(text) {
    // This page's commands first (a word may mean one thing here and another on the other page:
    // German "zurück" takes back a move in a game and steps back in a review).
    const here = parseCommand(text, undefined, this.names);
    const command = here?.name === 'unknown' ? parseCommand(text, undefined, ALL_COMMANDS) : here;
    if (!command) return;
    const { name, args } = command;
    this.before?.(name);
    const s = this.state();
    if (!s) {
      this.say(t('blind.loading'));
      return;
    }
    if (name === 'unknown') {
      this.say(t('blind.unknown', { text }));
      return;
    }
    if (!this.names.includes(name)) {
      this.say(t('blind.not_here', { text }));
      return;
    }
    await this[`cmd_${name}`](s, args, text);
  }

  // A point named by the command's argument, or null (said why).
  point(args) {
    const vertex = (args[0] ?? '').toUpperCase();
    const { width, height } = this.size();
    if (!vertex) {
      this.say(t('blind.which_point'));
      return null;
    }
    if (!parseVertex(vertex, width, height)) {
      this.say(t('game.not_a_point', { vertex }));
      return null;
    }
    return vertex;
  }

  cmd_board(s, args) {
    const sides = parseRegion(args);
    if (!sides) {
      this.say(t('blind.region_unknown'));
      return;
    }
    const { width, height } = this.size();
    const points = this.points();
    const dead = deadPoints(points, width, height, this.marked());
    this.say(points.some(Boolean) || sides.size ? boardWords(points, width, height, sides, dead, this.ownership()) : t('blind.board_empty'));
  }

  cmd_point(s, args) {
    const vertex = this.point(args);
    const { width, height } = this.size();
    if (vertex) this.say(pointWords(this.points(), width, height, vertex));
  }

  cmd_liberties(s, args) {
    const vertex = this.point(args);
    const { width, height } = this.size();
    if (vertex) this.say(libertiesWords(this.points(), width, height, vertex));
  }

  cmd_chain(s, args) {
    const vertex = this.point(args);
    const { width, height } = this.size();
    if (vertex) this.say(chainWords(this.points(), width, height, vertex));
  }

  cmd_help(s, args) {
    const asked = args.length ? parseCommand(args.join(' '), undefined, this.names) : null;
    if (asked && asked.name !== 'unknown' && !(asked.name === 'play' && args[0] !== 'play' && args[0] !== this.word('play'))) {
      this.say(`${this.word(asked.name)}: ${t(`blind.help.${asked.name}`)}`);
      return;
    }
    this.say(t('blind.help_all', { commands: this.names.map((c) => this.word(c)).join(', ') }));
  }

  // A command's name in the page's language (its first word).
  word(name) {
    return t(`blind.words.${name}`).split('|')[0];
  }
}
