// Conditional moves on a correspondence game's page (docs/correspondence.md): the player's replies
// to their opponent's expected moves, kept by the server, which plays a reply the instant its move
// arrives. The lines are shown as "C7 → D7, C6 → D6"; a new one is planned by clicking the board
// (their move, then yours, ...) or typing, and each change sends the whole list.
import { h, fill } from './util.js';
import { t } from './i18n.js';

const words = (line) => line.trim().toUpperCase().split(/\s+/).filter(Boolean);

// `send(lines)`: the server's ack, or null after it refused (the page says why); `changed()`:
// the line being planned changed (the page draws it on the board).
export function conditionalPanel({ send, changed = () => {} }) {
  let lines = [];
  let shown = false;
  let theirTurn = false;
  let planning = false;
  let myColor = null;
  const list = h('ol', { class: 'conditional-lines' });
  const none = h('p', { class: 'muted conditional-none' }, t('conditional.none'));
  const when = h('p', { class: 'muted conditional-when' });
  const input = h('input', { id: 'conditional-line', name: 'line', autocomplete: 'off', spellcheck: 'false', placeholder: t('conditional.placeholder'),
    oninput: () => changed() });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const form = h('form', { class: 'conditional-form', hidden: true, onsubmit: async (e) => {
    e.preventDefault();
    const line = words(input.value).join(' ');
    if (!line) return;
    problem.textContent = '';
    if (await save([...lines, line])) stop();
  } },
  h('label', { for: 'conditional-line' }, t('conditional.line')), input,
  h('div', { class: 'buttons' },
    h('button', { type: 'submit', class: 'primary' }, t('conditional.add')),
    h('button', { type: 'button', onclick: () => stop() }, t('common.cancel'))),
  problem);
  const plan = h('button', { type: 'button', id: 'conditional-plan', onclick: () => start() }, t('conditional.plan'));
  const clear = h('button', { type: 'button', class: 'danger-quiet small', onclick: () => save([]) }, t('conditional.clear'));
  const el = h('section', { class: 'panel conditional', hidden: true, 'aria-labelledby': 'conditional-title' },
    h('h2', { id: 'conditional-title' }, t('conditional.title')),
    h('p', { class: 'muted' }, t('conditional.help')),
    list, none, when, h('div', { class: 'buttons' }, plan, clear), form);

  async function save(next) {
    const ack = await send(next);
    if (!ack) return false;
    lines = next;  // the server's conditional_moves event follows with the lines as kept
    draw();
    return true;
  }
  function start() {
    planning = true;
    input.value = '';
    problem.textContent = '';
    draw();
    input.focus();
    changed();
  }
  function stop() {
    planning = false;
    input.value = '';
    draw();
    changed();
  }
  function pairs(line) {
    const w = words(line);
    const out = [];
    for (let i = 0; i < w.length; i += 2) out.push(w[i + 1] ? `${w[i]} → ${w[i + 1]}` : `${w[i]} → …`);
    return out.join(', ');
  }
  let drawn = null;  // the lines the list shows (the page renders often; the list is redrawn on change)
  function draw() {
    el.hidden = !shown;
    const key = JSON.stringify(lines);
    if (key !== drawn) {
      drawn = key;
      fill(list, lines.map((line, i) => h('li', { dataset: { line } },
        h('span', { class: 'conditional-text', title: line }, pairs(line)), ' ',
        h('button', { type: 'button', class: 'small danger-quiet', 'aria-label': t('conditional.remove', { line: pairs(line) }),
          onclick: () => save(lines.filter((_, k) => k !== i)) }, '✕'))));
    }
    list.hidden = lines.length === 0;
    none.hidden = lines.length > 0;
    when.textContent = theirTurn ? '' : t('conditional.after_your_move');
    when.hidden = theirTurn;
    plan.hidden = !theirTurn || planning;
    clear.hidden = lines.length === 0 || planning;
    form.hidden = !planning;
  }

  return {
    el,
    // The game as it stands: shown to a player of a correspondence game in play; lines may be
    // planned during the opponent's turn.
    update({ visible, color, opponentToMove }) {
      shown = visible;
      myColor = color;
      theirTurn = opponentToMove;
      if (!visible || !opponentToMove) planning = false;
      draw();
    },
    set(next) {
      lines = next ?? [];
      draw();
    },
    get planning() { return planning; },
    // A click on the board while planning: the next move of the line.
    add(vertex) {
      input.value = `${input.value.trim()} ${vertex}`.trim();
      problem.textContent = '';
      changed();
    },
    // The line being planned, as far as it goes: [{ vertex, mine }] in order.
    planned() {
      if (!planning) return [];
      return words(input.value).map((vertex, k) => ({ vertex, mine: k % 2 === 1 }));
    },
    // Whose stone a click adds next ('b' or 'w'): their move first, then yours.
    ghost() {
      if (!planning || !myColor) return null;
      const mine = myColor === 'black' ? 'b' : 'w';
      const theirs = mine === 'b' ? 'w' : 'b';
      return words(input.value).length % 2 === 0 ? theirs : mine;
    },
    showProblem(message) {
      problem.textContent = message;
    },
  };
}
