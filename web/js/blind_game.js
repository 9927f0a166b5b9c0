// Blind mode on a game page (docs/accessibility.md): the command box's game commands (moves,
// the clock, the count, the nigiri, take-backs, resigning) and the game's events said as they
// happen; the time warnings at the thresholds the player chose.
import { h, parseVertex } from './util.js';
import { t, num } from './i18n.js';
import { fetchJson } from './api.js';
import { runDown } from './clock.js';
import { rankText } from './ranks.js';
import { CommandBox, upper, sentence } from './blind.js';
import {
  COMMANDS, moveWords, atariAround, clockWords, counting, thresholdPassed, parseThresholds, scoreWords, deadWords,
  deadChains, deadPoints,
} from './blind_words.js';
import { Enum, Message } from './wire.js';
import { teamOf, memberToMove, sideName } from './game_state.js';

const THRESHOLDS_KEY = 'tengen-blind-thresholds';
const DEFAULT_THRESHOLDS = '30 20 10 5';
const colorWord = (c) => t(`common.${c}`);

// The command box of one game page. `game` is the page's side of it:
//   state(): the room as the page knows it (game.js's st), points(): the board (Position.points),
//   myColor(), myTurn(), resultWords(), userId() (the viewer's account, or null),
//   act.NAME(...): play(vertex), pass(), undo(), answerUndo(accept), resign(), mark(vertex, dead),
//   accept(), resume(), chat(text), nigiri(guess), abort() — each resolving to null, or the
//   server's refusal in the player's words.
export class BlindConsole extends CommandBox {
  constructor(game) {
    const alert = h('div', { class: 'blind-alert', role: 'alert' });
    const stored = localStorage.getItem(THRESHOLDS_KEY);
    const thresholds = parseThresholds(stored ?? DEFAULT_THRESHOLDS) ?? parseThresholds(DEFAULT_THRESHOLDS);
    const thresholdsInput = h('input', {
      id: 'blind-thresholds', name: 'thresholds', value: thresholds.join(' '), autocomplete: 'off', maxlength: 60,
      'aria-describedby': 'blind-thresholds-help',
      // Called once the box exists (after super()).
      onchange: (e) => this.setThresholds(e.target.value),
    });
    super({
      names: COMMANDS,
      hint: t('blind.hint'),
      extra: [alert, h('details', { class: 'blind-settings' }, h('summary', {}, t('blind.settings')),
        h('div', { class: 'field' }, h('label', { for: 'blind-thresholds' }, t('blind.thresholds')), thresholdsInput,
          h('p', { id: 'blind-thresholds-help', class: 'muted' }, t('blind.thresholds_help'))))],
    });
    this.game = game;
    this.alert = alert;
    this.thresholds = thresholds;
    this.resignAsked = false;
    this.confirmsResign = false;
    this.clockSeen = null;  // the player's running clock at the last tick
    this.firstSeen = null;  // ms left for the player's first move at the last tick
  }

  setThresholds(text) {
    const parsed = parseThresholds(text);
    if (!parsed) {
      this.say(t('blind.thresholds_bad'));
      return;
    }
    this.thresholds = parsed;
    localStorage.setItem(THRESHOLDS_KEY, parsed.join(' '));
    this.say(t('blind.thresholds_set', { list: parsed.join(', ') }));
  }

  state() {
    return this.game.state();
  }

  size() {
    return this.game.state().settings;
  }

  points() {
    return this.game.points();
  }

  // The stones marked dead: the count's marking, or the agreed one after the game.
  marked() {
    const s = this.game.state();
    return (s.phase === Enum.Phase.scoring ? s.marking?.dead : s.phase === Enum.Phase.finished ? s.finalDead : null) ?? [];
  }

  ownership() {
    const s = this.game.state();
    return (s.phase === Enum.Phase.scoring ? s.marking?.score?.ownership : s.phase === Enum.Phase.finished ? s.finalScore?.ownership : null) ?? null;
  }

  // "resign" twice in a row resigns; anything in between takes the first back.
  before(name) {
    this.confirmsResign = this.resignAsked && name === 'resign';
    this.resignAsked = false;
  }

  async attempt(promise) {
    const refusal = await promise;
    if (refusal) this.say(sentence(upper(refusal)));
  }

  // The checks a move or a pass needs before it is sent: nothing is sent the server would refuse
  // for a reason the page already knows.
  mayMove(s) {
    const me = this.game.myColor();
    if (s.phase === Enum.Phase.nigiri && s.role === 'player') return this.say(t('blind.nigiri_first')), false;
    if (!me) return this.say(t('blind.not_playing')), false;
    if (s.phase === Enum.Phase.scoring) return this.say(t('blind.counting_now')), false;
    if (s.phase === Enum.Phase.finished) return this.say(t('blind.game_over_already')), false;
    if (!this.game.myTurn()) {
      // Pair Go: the partner's turn, in the server's words; the other team's next player by name.
      const next = memberToMove(s, s.toMove);
      this.say(next && s.toMove === me ? t('pair.partners_turn', { name: next.name })
        : t('game.their_move', { name: next?.name ?? s[s.toMove]?.name ?? colorWord(s.toMove) }));
      return false;
    }
    return true;
  }

  async cmd_play(s, args) {
    const vertex = this.point(args);
    if (!vertex || !this.mayMove(s)) return;
    const { x, y } = parseVertex(vertex, s.settings.width, s.settings.height);
    if (this.game.points()[y * s.settings.width + x]) {
      this.say(t('game.taken', { vertex }));
      return;
    }
    await this.attempt(this.game.act.play(vertex));
  }

  async cmd_pass(s) {
    if (this.mayMove(s)) await this.attempt(this.game.act.pass());
  }

  cmd_last(s, args) {
    const n = Math.min(20, Math.max(1, Number.parseInt(args[0] ?? '1', 10) || 1));
    if (!s.moves.length) {
      this.say(t('blind.no_moves'));
      return;
    }
    const from = Math.max(0, s.moves.length - n);
    this.say(s.moves.slice(from).map((m, k) => t('blind.move_n', { n: from + k + 1, move: moveWords(m) })).join(' '));
  }

  cmd_captures(s) {
    this.say(t('blind.captures', { black: s.captures.black, white: s.captures.white }));
  }

  cmd_clock(s) {
    const time = s.settings.time;
    if (!s.clock || time.system === 'none') {
      this.say(t('blind.no_clock'));
      return;
    }
    const running = s.phase === Enum.Phase.playing ? s.clock.running : null;
    const sides = ['black', 'white'].map((c) => {
      const side = c === running ? runDown(s.clock[c], time, this.elapsed(s)) : s.clock[c];
      return t('blind.clock_side', { color: colorWord(c), name: s[c].name, time: clockWords(side, time) });
    });
    if (running) sides.push(t('blind.clock_running', { color: colorWord(running) }));
    this.say(sides.join(' '));
  }

  elapsed(s) {
    return Math.max(0, performance.now() - s.clockAt - (s.clock.time_off_ms || 0));
  }

  cmd_score(s) {
    const { width, height } = s.settings;
    if (s.phase === Enum.Phase.scoring && s.marking?.score) {
      const chains = deadChains(this.game.points(), width, height, s.marking.dead);
      this.say(scoreWords(s.marking.score, chains, upper(this.resultOf(s.marking.score.result))));
    } else if (s.phase === Enum.Phase.finished && s.finalScore) {
      const chains = deadChains(this.game.points(), width, height, s.finalDead ?? []);
      this.say(scoreWords(s.finalScore, chains, this.game.resultWords()));
    } else {
      this.say(t('blind.not_counting'));
    }
  }

  resultOf(result) {
    const m = /^([BW])\+(.+)$/.exec(result ?? '');
    if (!m) return t('blind.jigo');
    const n = Number(m[2]);
    return t('blind.leads', { color: colorWord(m[1] === 'B' ? 'black' : 'white'), n: Number.isFinite(n) ? num(n) : m[2] });
  }

  async cmd_mark(s, args) {
    if (s.phase !== Enum.Phase.scoring || !this.game.myColor()) {
      this.say(t('blind.mark_when'));
      return;
    }
    const vertex = this.point(args);
    if (!vertex) return;
    const { x, y } = parseVertex(vertex, s.settings.width, s.settings.height);
    const i = y * s.settings.width + x;
    if (!this.game.points()[i]) {
      this.say(t('blind.mark_empty', { vertex }));
      return;
    }
    const dead = deadPoints(this.game.points(), s.settings.width, s.settings.height, s.marking?.dead ?? []);
    await this.attempt(this.game.act.mark(vertex, !dead.has(i)));
  }

  async cmd_accept(s) {
    if (s.phase !== Enum.Phase.scoring || !this.game.myColor()) {
      this.say(t('blind.mark_when'));
      return;
    }
    await this.attempt(this.game.act.accept());
  }

  async cmd_resume(s) {
    if (s.phase !== Enum.Phase.scoring || !this.game.myColor()) {
      this.say(t('blind.mark_when'));
      return;
    }
    await this.attempt(this.game.act.resume());
  }

  // Asks the server (the one rules engine) where a ko forbids taking back now.
  async cmd_ko(s) {
    if (s.phase !== Enum.Phase.playing) {
      this.say(t('blind.no_ko'));
      return;
    }
    const { width, height, ruleset } = s.settings;
    const answer = await fetchJson('/api/v1/positions', {
      method: 'POST',
      body: { width, height, ruleset, black: s.handicap, moves: s.moves.map(({ color, vertex }) => ({ color, vertex })) },
    });
    this.say(answer.ko ? t('blind.ko', { color: colorWord(answer.to_move), vertex: answer.ko }) : t('blind.no_ko'));
  }

  cmd_who(s) {
    if (s.phase === Enum.Phase.nigiri && s.nigiri) {  // who takes which colour is not known yet
      this.say(this.nigiriWords(s.nigiri));
      return;
    }
    const player = (c) => {
      if (teamOf(s, c)) return sideName(s, c);  // a pair Go team: its players, in order
      const rank = rankText(s[c].id);
      return rank ? `${s[c].name} (${rank})` : s[c].name;
    };
    const me = this.game.myColor();
    const parts = [t('blind.who', { black: player('black'), white: player('white') })];
    parts.push(me ? t('blind.you_are', { color: colorWord(me) }) : t('blind.you_watch'));
    if (s.phase === Enum.Phase.playing) {
      parts.push(t('blind.to_move', { color: colorWord(s.toMove) }));
      const next = memberToMove(s, s.toMove);
      if (next) parts.push(next.id === this.game.userId() ? t('blind.your_move') : t('pair.plays_next', { name: next.name }));
    }
    else if (s.phase === Enum.Phase.scoring) parts.push(t('blind.counting_now'));
    else if (s.phase === Enum.Phase.finished) parts.push(t('blind.game_over', { result: sentence(this.game.resultWords()) }));
    this.say(parts.join(' '));
  }

  // A line to the chat (the players' or, for a spectator, the spectators'): the rest of the
  // command as typed, not lowercased.
  async cmd_say(s, args, text) {
    const line = text.trim().replace(/^\S+\s*/, '');
    if (!line) {
      this.say(t('blind.say_what'));
      return;
    }
    if (this.game.userId() === null) {
      this.say(t('blind.say_guest'));
      return;
    }
    const refusal = await this.game.act.chat(line);
    this.say(refusal ? sentence(upper(refusal)) : t('blind.said', { text: line }));
  }

  // The nigiri (docs/nigiri.md): the holder grabs, the guesser says odd or even.
  async cmd_nigiri(s, args) {
    const n = s.nigiri;
    const me = this.game.userId();
    if (s.phase !== Enum.Phase.nigiri || !n) {
      this.say(t('blind.no_nigiri'));
      return;
    }
    if (me === n.holder.id) {
      if (n.holder_chose) this.say(t('blind.nigiri_waiting'));
      else await this.attempt(this.game.act.nigiri(null));
      return;
    }
    if (me !== n.guesser.id) {
      this.say(this.nigiriWords(n));
      return;
    }
    const guess = ['odd', 'even'].find((g) => args[0] === g || t(`blind.words.${g}`).toLowerCase().split('|').includes(args[0]));
    if (!guess) {
      this.say(t('blind.nigiri_guess'));
      return;
    }
    if (n.guesser_chose) this.say(t('blind.nigiri_waiting'));
    else await this.attempt(this.game.act.nigiri(guess));
  }

  nigiriWords(n) {
    const me = this.game.userId();
    const parts = [t('blind.nigiri', { holder: n.holder.name, guesser: n.guesser.name })];
    if (me === n.holder.id && !n.holder_chose) parts.push(t('blind.nigiri_grab'));
    if (me === n.guesser.id && !n.guesser_chose) parts.push(t('blind.nigiri_guess'));
    return parts.join(' ');
  }

  // What the game is, said once when it opens: players, colours, whose move, and what the player
  // must do first (a first move within its time, the nigiri).
  opened(title) {
    const s = this.game.state();
    this.say(title);
    if (s.phase === Enum.Phase.nigiri && s.nigiri) this.say(this.nigiriWords(s.nigiri));
    else this.cmd_who(s);
    if (this.game.myTurn() && s.firstMoveAt !== null && s.moves.length < 2) {
      this.say(t('countdown.yours', { n: Math.max(0, Math.ceil((s.firstMoveAt - performance.now()) / 1000)) }));
    }
  }

  async cmd_undo(s) {
    if (!this.game.myColor() || s.phase !== Enum.Phase.playing) {
      this.say(t('blind.not_playing'));
      return;
    }
    await this.attempt(this.game.act.undo());
  }

  async answerUndo(s, accept) {
    const me = this.game.myColor();
    if (!me || !s.undoBy || s.undoBy === me) {
      this.say(t('blind.no_undo_asked'));
      return;
    }
    await this.attempt(this.game.act.answerUndo(accept));
  }

  cmd_allow(s) { return this.answerUndo(s, true); }

  cmd_refuse(s) { return this.answerUndo(s, false); }

  // Ends a game nobody has really begun (until both have moved), with no result.
  async cmd_abort(s) {
    if (!s.abortable || s.role === 'spectator') {
      this.say(t('blind.no_abort'));
      return;
    }
    await this.attempt(this.game.act.abort());
  }

  async cmd_resign(s) {
    if (!this.game.myColor() || s.phase === Enum.Phase.finished) {
      this.say(t('blind.not_playing'));
      return;
    }
    if (!this.confirmsResign) {
      this.resignAsked = true;
      this.say(t('blind.resign_confirm'));
      return;
    }
    await this.attempt(this.game.act.resign());
  }

  // ---- what happens in the game, said as it happens ----

  // An event the page has just applied (game.js); `said`: its line in the chat, if it has one.
  event(m, said) {
    const s = this.game.state();
    const me = this.game.myColor();
    const { width, height } = s.settings;
    switch (m.type) {
      case Message.move: {
        this.clockSeen = null;
        const ataris = m.vertex === 'pass' ? [] : atariAround(this.game.points(), width, height, m.vertex);
        const words = [moveWords(m, ataris, { mine: m.color === me })];
        if (this.game.myTurn()) words.push(t('blind.your_move'));
        this.say(words.join(' '));
        break;
      }
      case Message.scoring_started:
        this.say([t('blind.counting_started'), deadWords(deadChains(this.game.points(), width, height, m.marking.dead)),
          sentence(upper(this.resultOf(m.marking.score?.result))), me ? t('blind.counting_help') : ''].filter(Boolean).join(' '));
        break;
      case Message.marking:
        this.say([m.by === me ? t('blind.you_marked') : t('blind.marking_changed', { color: colorWord(m.by) }),
          deadWords(deadChains(this.game.points(), width, height, m.marking.dead)), sentence(upper(this.resultOf(m.marking.score?.result)))].join(' '));
        break;
      case Message.score_accepted:
        this.say(m.by === me ? t('blind.you_accepted') : t('blind.they_accepted', { name: s[m.by].name }));
        break;
      case Message.undo_requested:
        this.say(m.by === me ? t('undo.you_asked') : t('blind.undo_asked', { name: s[m.by].name }));
        break;
      case Message.undo_answered:
      case Message.play_resumed:
        if (said) this.say(said);
        if (m.type === Message.play_resumed && this.game.myTurn()) this.say(t('blind.your_move'));
        break;
      case Message.player_left:
        this.say(t('absence.left', { name: s[m.absence.color].name }));
        break;
      case Message.player_returned:
        this.say(t('blind.returned', { name: s[m.color].name }));
        break;
      case Message.nigiri_started:
        this.say(this.nigiriWords(m.nigiri));
        break;
      case Message.chat:
        if (m.line.from.id !== this.game.userId()) this.say(t('blind.chat', { name: m.line.from.name, text: m.line.text }));
        break;
      case Message.nigiri_done:
        this.say([t('blind.who', { black: s.black.name, white: s.white.name }),
          me ? t('blind.you_are', { color: colorWord(me) }) : '', this.game.myTurn() ? t('blind.your_move') : ''].filter(Boolean).join(' '));
        break;
      case Message.game_ended:
        this.say(t('blind.game_over', { result: sentence(this.game.resultWords()) }));
        break;
      default:
        break;
    }
  }

  // Called often (game.js's clock tick): the player's own running clock said at the thresholds
  // they chose, and each byo-yomi period as it goes.
  tick() {
    const s = this.game.state();
    const me = this.game.myColor();
    const time = s?.settings.time;
    this.tickFirstMove(s);
    if (!s?.clock || !me || s.phase !== Enum.Phase.playing || s.clock.running !== me || !time || ['none', 'correspondence'].includes(time.system)) {
      this.clockSeen = null;
      return;
    }
    const side = runDown(s.clock[me], time, this.elapsed(s));
    const before = this.clockSeen;
    this.clockSeen = side;
    if (!before) return;
    if (side.periods < before.periods) {
      this.warn(side.periods <= 1 ? t('blind.last_period') : t('blind.periods_left', { n: side.periods }));
      return;
    }
    const passed = thresholdPassed(counting(before), counting(side), this.thresholds);
    if (passed !== null) this.warn(t('blind.seconds_left', { n: passed }));
  }

  // The time left for a first move (a game nobody has begun is cancelled), said at the thresholds.
  tickFirstMove(s) {
    if (!s || s.firstMoveAt === null || !this.game.myTurn()) {
      this.firstSeen = null;
      return;
    }
    const left = s.firstMoveAt - performance.now();
    const before = this.firstSeen;
    this.firstSeen = left;
    const passed = before === null ? null : thresholdPassed(before, left, this.thresholds);
    if (passed !== null) this.warn(t('blind.first_move_left', { n: passed }));
  }

  // A new element each time: the same words again (the next period's "10 seconds left.") are a
  // change a screen reader announces.
  warn(text) {
    this.alert.replaceChildren(h('p', {}, text));
  }
}

