// Classes for schools (docs/classes.md): a teacher's classes with a form to make one and its
// students' accounts at once, the class's dashboard (each student's lessons, games, last visit and
// rank; a new password; more students; protection; a round robin; archiving) and the printable
// login cards. The passwords are shown once: the cards live in this tab's sessionStorage only.
import { h, fill, field, selectInput } from './util.js';
import { fetchJson } from './api.js';
import { t, formatDateTime } from './i18n.js';
import { timeNames, rulesetOptions, timeInputs, timeOf } from './lobby.js';
import { LESSONS } from './course.js';

const MAX_STUDENTS = 60;
const api = (id, rest = '') => `/api/v1/classes/${id}${rest}`;
const cardsKey = (id) => `tengen-cards-${id}`;
const when = (ms) => formatDateTime(ms, { dateStyle: 'medium', timeStyle: 'short' });

// The names typed, one per line, without empty lines.
const namesOf = (text) => text.split('\n').map((s) => s.trim()).filter(Boolean);

// The cards made in this tab (a class's, or one student's new password), newest kept by account.
function keepCards(id, cards) {
  const kept = new Map(readCards(id).map((c) => [c.user.id, c]));
  for (const c of cards) kept.set(c.user.id, c);
  sessionStorage.setItem(cardsKey(id), JSON.stringify([...kept.values()]));
}
function readCards(id) {
  try {
    return JSON.parse(sessionStorage.getItem(cardsKey(id)) || '[]');
  } catch {
    return [];
  }
}

function studentsInput(id) {
  const input = h('textarea', { id, rows: 8, required: true, spellcheck: false, autocomplete: 'off', placeholder: t('classes.students_example') });
  const count = h('p', { class: 'muted count', 'aria-live': 'polite' }, t('classes.students_count', { n: 0, max: MAX_STUDENTS }));
  input.addEventListener('input', () => {
    const n = namesOf(input.value).length;
    count.textContent = t('classes.students_count', { n, max: MAX_STUDENTS });
    count.classList.toggle('over', n > MAX_STUDENTS);
  });
  return { input, count };
}

function skippedNote(skipped) {
  if (!skipped.length) return '';
  return h('div', { class: 'form-error', role: 'alert' }, h('p', {}, t('classes.skipped')),
    h('ul', {}, ...skipped.map((s) => h('li', {}, `${s.name}: ${s.why}`))));
}

// ---- the teacher's classes ----

export function mountClasses(root, ctx) {
  if (!ctx.user) {
    fill(root, h('section', { class: 'card' }, h('h1', {}, t('nav.classes')), h('p', {}, h('a', { href: '#/login' }, t('nav.log_in')))));
    return () => {};
  }
  const list = h('ul', { class: 'class-list' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const formCard = h('section', { class: 'card' });
  fill(root, h('div', { class: 'classes' },
    h('section', { class: 'card' }, h('h1', {}, t('nav.classes')), h('p', { class: 'muted' }, t('classes.intro')), list, problem),
    formCard));
  let stopped = false;
  (async () => {
    try {
      const { classes, teacher } = await fetchJson('/api/v1/classes');
      if (stopped) return;
      fill(list, ...(classes.length ? classes.map((c) => h('li', { dataset: { class: c.id } },
        h('a', { href: `#/class/${c.id}` }, c.name), ' ',
        h('span', { class: 'muted' }, t('classes.n_students', { n: c.students })),
        c.archived_at_ms ? h('span', { class: 'tag' }, t('classes.archived')) : '',
        c.protected ? '' : h('span', { class: 'tag' }, t('classes.open_tag')))) : [h('li', { class: 'muted' }, t('classes.none'))]));
      fill(formCard, h('h2', {}, t('classes.new')), teacher ? classForm(ctx) : h('p', { class: 'muted' }, t('classes.not_teacher')));
    } catch (err) {
      problem.textContent = err.message;
    }
  })();
  return () => { stopped = true; };
}

function classForm(ctx) {
  const name = h('input', { id: 'class-name', required: true, minlength: 3, maxlength: 40, autocomplete: 'off', placeholder: t('classes.name_example') });
  const { input: students, count } = studentsInput('class-students');
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, t('classes.make'));
  return h('form', {
    class: 'class-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      submit.disabled = true;
      submit.textContent = t('classes.making');  // a few seconds: a password hashed per student
      try {
        const made = await fetchJson('/api/v1/classes', { method: 'POST', body: { name: name.value.trim(), students: namesOf(students.value) } });
        keepCards(made.id, made.students);
        if (made.skipped.length) sessionStorage.setItem(`tengen-skipped-${made.id}`, JSON.stringify(made.skipped));
        ctx.navigate(`#/class/${made.id}/cards`);
      } catch (err) {
        problem.textContent = err.message;
      } finally {
        submit.disabled = false;
        submit.textContent = t('classes.make');
      }
    },
  },
  h('p', { class: 'muted' }, t('classes.form_help')),
  field(t('classes.name'), name),
  field(t('classes.students'), students), count,
  problem, submit);
}

// ---- a class's dashboard ----

export function mountClass(root, ctx, id) {
  if (!ctx.user) {
    fill(root, h('section', { class: 'card' }, h('p', {}, h('a', { href: '#/login' }, t('nav.log_in')))));
    return () => {};
  }
  const head = h('section', { class: 'card class-head' });
  const table = h('tbody');
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const shown = h('div', { class: 'new-password', role: 'status', hidden: true });
  const tools = h('section', { class: 'card class-tools' });
  fill(root, h('div', { class: 'class-page' }, head,
    h('section', { class: 'card' }, h('h2', {}, t('classes.students')), shown,
      h('div', { class: 'table-wrap' }, h('table', { class: 'class-students' },
        h('caption', { class: 'sr-only' }, t('classes.students')),
        h('thead', {}, h('tr', {}, ...['student', 'lessons', 'games', 'seen', 'rank', ''].map((k) => h('th', { scope: 'col' }, k ? t(`classes.col_${k}`) : '')))),
        table)),
      problem),
    tools));
  let stopped = false;

  async function load() {
    try {
      const page = await fetchJson(api(id));
      if (stopped) return;
      render(page);
    } catch (err) {
      if (!stopped) fill(head, h('h1', {}, t('classes.class')), h('p', { class: 'form-error', role: 'alert' }, err.message));
    }
  }

  function render({ class: c, students }) {
    document.title = `${c.name} · Tengen`;
    const archived = c.archived_at_ms !== undefined;
    const guard = h('input', { id: 'class-protected', type: 'checkbox', checked: c.protected, disabled: archived });
    guard.addEventListener('change', async () => {
      try {
        await fetchJson(api(id, '/settings'), { method: 'POST', body: { protected: guard.checked } });
      } catch (err) {
        guard.checked = !guard.checked;
        problem.textContent = err.message;
      }
    });
    const cards = readCards(id);
    fill(head,
      h('h1', {}, c.name, archived ? h('span', { class: 'tag' }, t('classes.archived')) : ''),
      h('p', { class: 'muted' }, t('classes.n_students', { n: c.students }), ' · ',
        h('a', { href: `#/group/${id}` }, t('classes.class_page'))),
      h('p', { class: 'buttons' },
        cards.length ? h('a', { class: 'button', href: `#/class/${id}/cards` }, t('classes.print_cards', { n: cards.length })) : '',
        archived || !students.length ? '' : h('button', { type: 'button', onclick: async () => {
          if (!window.confirm(t('classes.new_passwords_confirm', { n: students.length }))) return;
          try {
            const answer = await fetchJson(api(id, '/passwords'), { method: 'POST', body: {} });
            keepCards(id, answer.students);
            ctx.navigate(`#/class/${id}/cards`);
          } catch (err) {
            problem.textContent = err.message;
          }
        } }, t('classes.new_passwords'))),
      h('label', { class: 'check protect' }, guard, ` ${t('classes.protected')}`),
      h('p', { class: 'muted' }, t('classes.protected_help')));
    const total = LESSONS.length;
    fill(table, ...(students.length ? students.map((s) => {
      const done = LESSONS.filter((l) => s.lessons.includes(l.id)).length;
      return h('tr', { dataset: { student: s.user.id } },
        h('th', { scope: 'row' }, s.name, h('div', { class: 'muted account-name' }, h('a', { href: `#/user/${encodeURIComponent(s.user.name)}` }, s.user.name))),
        h('td', {}, h('div', { class: 'lesson-progress' },
          h('progress', { max: total, value: done, 'aria-label': t('classes.lessons_of', { n: done, total }) }),
          h('span', {}, t('classes.lessons_of', { n: done, total })))),
        h('td', {}, t('classes.games_of', { finished: s.games_finished, playing: s.games_playing })),
        h('td', {}, s.last_seen_ms === undefined ? t('classes.never') : when(s.last_seen_ms)),
        h('td', {}, s.rank),
        h('td', {}, archived ? '' : h('button', { class: 'small', type: 'button', onclick: () => newPassword(s) }, t('classes.new_password'))));
    }) : [h('tr', {}, h('td', { colspan: 6, class: 'empty' }, t('classes.no_students')))]));
    fill(tools, ...(archived ? [h('p', { class: 'muted' }, t('classes.archived_help', { when: when(c.archived_at_ms) }))] : [
      h('h2', {}, t('classes.round_robin')), roundRobinForm(ctx, id, problem),
      h('h2', {}, t('classes.add_students')), addForm(id, (made) => { keepCards(id, made.students); ctx.navigate(`#/class/${id}/cards`); }),
      h('h2', {}, t('classes.archive')),
      h('p', { class: 'muted' }, t('classes.archive_help')),
      h('button', { type: 'button', class: 'danger-quiet', onclick: async () => {
        if (!window.confirm(t('classes.archive_confirm', { name: c.name }))) return;
        try {
          await fetchJson(api(id, '/archive'), { method: 'POST', body: {} });
          load();
        } catch (err) {
          problem.textContent = err.message;
        }
      } }, t('classes.archive'))]));
  }

  async function newPassword(s) {
    if (!window.confirm(t('classes.new_password_confirm', { name: s.name }))) return;
    try {
      const { students: [card] } = await fetchJson(api(id, `/students/${s.user.id}/password`), { method: 'POST', body: {} });
      keepCards(id, [card]);
      fill(shown, h('p', {}, t('classes.new_password_shown', { name: card.name })),
        h('p', { class: 'login-line' }, h('span', {}, `${t('classes.card_account')}: `), h('code', {}, card.user.name), ' ',
          h('span', {}, `${t('classes.card_password')}: `), h('code', { class: 'password' }, card.password)),
        h('a', { href: `#/class/${id}/cards` }, t('classes.print_cards', { n: readCards(id).length })));
      shown.hidden = false;
    } catch (err) {
      problem.textContent = err.message;
    }
  }

  load();
  return () => { stopped = true; };
}

function roundRobinForm(ctx, id, problem) {
  const size = selectInput('rr-size', 'size', { 9: '9×9', 13: '13×13', 19: '19×19' }, '9');
  const ruleset = selectInput('rr-ruleset', 'ruleset', rulesetOptions(), 'japanese');
  const clock = selectInput('rr-time', 'time', timeNames(), 'byoyomi');
  const timeFields = h('div', { class: 'field-row time-fields' });
  const inputs = {};
  const showTime = () => fill(timeFields, ...timeInputs(clock.value, inputs, 'rr'));
  clock.addEventListener('change', showTime);
  showTime();
  return h('form', {
    class: 'round-robin-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        const { id: tournament } = await fetchJson(api(id, '/round-robin'), { method: 'POST', body: {
          settings: { width: Number(size.value), height: Number(size.value), ruleset: ruleset.value, time: timeOf(clock.value, inputs) },
        } });
        ctx.navigate(`#/tournament/${tournament}`);
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  h('p', { class: 'muted' }, t('classes.round_robin_help')),
  h('div', { class: 'field-row' }, field(t('form.board'), size), field(t('form.rules'), ruleset), field(t('form.clock'), clock)),
  timeFields,
  h('button', { type: 'submit', class: 'primary' }, t('classes.start_round_robin')));
}

function addForm(id, made) {
  const { input, count } = studentsInput('class-more');
  const problem = h('p', { class: 'form-error', role: 'alert' });
  return h('form', {
    class: 'add-students', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        const answer = await fetchJson(api(id, '/students'), { method: 'POST', body: { students: namesOf(input.value) } });
        if (answer.skipped.length) sessionStorage.setItem(`tengen-skipped-${id}`, JSON.stringify(answer.skipped));
        made(answer);
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  }, field(t('classes.students'), input), count, problem, h('button', { type: 'submit' }, t('classes.add')));
}

// ---- the login cards ----

export function mountCards(root, ctx, id) {
  const cards = readCards(id);
  let skipped = [];
  try {
    skipped = JSON.parse(sessionStorage.getItem(`tengen-skipped-${id}`) || '[]');
  } catch { /* none */ }
  const grid = h('div', { class: 'login-cards' });
  const title = h('span', {});
  fill(root, h('div', { class: 'cards-page' },
    h('section', { class: 'card no-print' },
      h('h1', {}, t('classes.cards_title')),
      h('p', {}, t('classes.cards_help')),
      skippedNote(skipped),
      h('p', { class: 'actions' },
        cards.length ? h('button', { type: 'button', class: 'primary', onclick: () => window.print() }, t('classes.print')) : '',
        h('a', { href: `#/class/${id}` }, t('classes.to_dashboard')))),
    cards.length ? grid : h('section', { class: 'card' }, h('p', {}, t('classes.no_cards')))));
  const server = location.host;
  const draw = (className) => fill(grid, ...cards.map((c) => h('article', { class: 'login-card', dataset: { account: c.user.name } },
    h('p', { class: 'card-class' }, className),
    h('h2', {}, c.name),
    h('dl', {},
      h('dt', {}, t('classes.card_where')), h('dd', {}, h('code', {}, server)),
      h('dt', {}, t('classes.card_account')), h('dd', {}, h('code', {}, c.user.name)),
      h('dt', {}, t('classes.card_password')), h('dd', {}, h('code', { class: 'password' }, c.password))),
    h('p', { class: 'card-foot' }, t('classes.card_foot')))));
  draw('');
  fetchJson(api(id)).then((page) => { title.textContent = page.class.name; draw(page.class.name); }, () => {});
  return () => {};
}
