// Blind mode on a review board (docs/accessibility.md): the board's questions, where the board
// is (move, whose turn, captures, the comment), steps through the moves, and, for whoever has
// control, a stone played by typing its point. Each change of the node shown is said.
import { t } from './i18n.js';
import { CommandBox, upper, sentence } from './blind.js';
import { REVIEW_COMMANDS } from './blind_words.js';

// `review` is the page's side of it: state() (the review as the page knows it, or null),
// points() (the position shown), where() (its words: move, whose turn, captures), comment()
// (the node's comment, or ''), iControl(), controller() (their name), go(step) ('next', 'back',
// 'first', 'end': false when there is nowhere to go), play(vertex) (null, or the refusal).
export class ReviewConsole extends CommandBox {
  constructor(review) {
    super({ names: REVIEW_COMMANDS, hint: t('blind.review_hint') });
    this.review = review;
    this.shown = null;  // the node last said
  }

  state() {
    return this.review.state();
  }

  size() {
    const s = this.review.state();
    return { width: s.width, height: s.height };
  }

  points() {
    return this.review.points();
  }

  // The page drew the board: a node other than the last one said is said.
  drawn(node) {
    if (node === this.shown) return;
    this.shown = node;
    this.cmd_where();
  }

  cmd_where() {
    const comment = this.review.comment();
    this.say([`${this.review.where()}.`, comment ? t('blind.comment', { text: comment }) : ''].filter(Boolean).join(' '));
  }

  cmd_captures() {
    const { black, white } = this.review.captures();
    this.say(t('blind.captures', { black, white }));
  }

  async cmd_play(s, args) {
    const vertex = this.point(args);
    if (!vertex) return;
    if (!this.review.iControl()) {
      this.say(t('blind.review_not_yours', { name: this.review.controller() }));
      return;
    }
    const refusal = await this.review.play(vertex);
    if (refusal) this.say(sentence(upper(refusal)));
  }

  step(name) {
    if (!this.review.go(name)) this.say(t('blind.review_nowhere'));
  }

  cmd_next() { this.step('next'); }

  cmd_back() { this.step('back'); }

  cmd_first() { this.step('first'); }

  cmd_end() { this.step('end'); }
}
