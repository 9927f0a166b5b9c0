// The list page of an event kind (docs/events.md): simuls (simuls.js) and pair Go (pairgo.js).
// Its title and words, the form to announce one (a details box, for those logged in), and the
// events grouped as open, being played and finished, read again every few seconds.
import { h, fill } from './util.js';
import { t } from './i18n.js';

const POLL_MS = 5000;  // read again while players join (the server tells no event of it)

// `words`: { title, about, announce, logIn, none }; `form()` the announce form; `load()` the
// events ({ state, ... }); `row(event)` one event's line.
export function mountEventList(root, ctx, { words, form, load, row }) {
  const list = h('div', { class: 'simul-list', 'aria-live': 'polite' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const formHolder = h('div');
  fill(root, h('div', { class: 'simul-page' },
    h('section', { class: 'card' }, h('h1', {}, words.title), h('p', { class: 'muted' }, words.about)),
    formHolder, problem, list));
  let stopped = false;
  if (ctx.user) fill(formHolder, h('details', { class: 'card simul-new' }, h('summary', {}, words.announce), form()));
  else fill(formHolder, h('p', { class: 'muted' }, h('a', { href: '#/login' }, t('nav.log_in')), ' ', words.logIn));

  async function read() {
    try {
      const events = await load();
      if (stopped) return;
      const groups = [['open', t('simul.open_now')], ['playing', t('simul.playing_now')], ['finished', t('simul.finished')]];
      const shown = groups.map(([state, title]) => [title, events.filter((e) => e.state === state)]).filter(([, l]) => l.length);
      fill(list, ...(shown.length
        ? shown.map(([title, l]) => h('section', { class: 'card' }, h('h2', {}, title), h('ul', { class: 'simul-rows' }, ...l.map(row))))
        : [h('p', { class: 'card empty muted' }, words.none)]));
    } catch (err) {
      if (!stopped) problem.textContent = err.message;
    }
  }
  const timer = setInterval(() => { if (!document.hidden) read(); }, POLL_MS);
  read();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
