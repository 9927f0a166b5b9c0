// The administrators' pages (docs/moderation.md): reports from players, users (suspend, ban,
// reinstate, reset a password, mark a bot), invites, and the audit log of everything done here.
// Every change is the server's (/api/v1/admin/...): the page shows what it answers.
import { h, fill, field, selectInput, describeResult } from './util.js';
import { fetchJson } from './api.js';
import { t, formatDateTime } from './i18n.js';

const TABS = ['reports', 'users', 'invites', 'teachers', 'workers', 'audit'];
const SUSPENSIONS = [1, 24, 72, 168, 720];  // hours

const userLink = (u) => (u ? h('a', { href: `#/user/${encodeURIComponent(u.name)}` }, u.name) : t('admin.command_line'));

export function mountAdmin(root, ctx, tab) {
  if (!ctx.user?.admin) {
    fill(root, h('section', { class: 'card' }, h('h1', {}, t('admin.title')), h('p', {}, t('admin.only_admins'))));
    return () => {};
  }
  const current = TABS.includes(tab) ? tab : 'reports';
  const body = h('div', { class: 'admin-body' });
  fill(root, h('section', { class: 'card admin' },
    h('h1', {}, t('admin.title')),
    h('nav', { class: 'tabs', 'aria-label': t('admin.sections') },
      ...TABS.map((name) => h('a', { href: `#/admin/${name}`, 'aria-current': name === current ? 'page' : false }, t(`admin.tab_${name}`)))),
    body));
  let stopped = false;
  const alive = () => !stopped;
  ({ reports, users, invites, teachers, workers, audit })[current](body, ctx, alive);
  return () => { stopped = true; };
}

// ---- reports ----

function reports(root, ctx, alive) {
  const status = selectInput('report-status', 'status',
    Object.fromEntries(['open', 'resolved', 'dismissed', 'all'].map((s) => [s, t(`admin.status_${s}`)])), 'open',
    { onchange: () => load() });
  const list = h('div', { class: 'report-list' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  fill(root, h('div', { class: 'field-row' }, field(t('admin.show'), status)), problem, list);

  async function load() {
    problem.textContent = '';
    try {
      const { reports: rows } = await fetchJson(`/api/v1/admin/reports?status=${status.value}&limit=100`);
      if (!alive()) return;
      fill(list, rows.length ? rows.map(card) : h('p', { class: 'muted empty' }, t('admin.no_reports')));
    } catch (err) {
      problem.textContent = err.message;
    }
  }

  function card(r) {
    const note = h('input', { id: `note-${r.id}`, maxlength: 1000, autocomplete: 'off' });
    const error = h('p', { class: 'form-error', role: 'alert' });
    const decide = (action) => async () => {
      error.textContent = '';
      try {
        await fetchJson(`/api/v1/admin/reports/${r.id}`, { method: 'POST', body: { action, note: note.value.trim() } });
        ctx.toast(t(`admin.report_${action}d`), { kind: 'info' });
        load();
      } catch (err) {
        error.textContent = err.message;
      }
    };
    return h('article', { class: 'report', dataset: { report: r.id } },
      h('p', {}, h('strong', {}, userLink(r.user)), ' · ', t(`report.category_${r.category}`),
        h('span', { class: 'tag' }, t(`admin.status_${r.status}`))),
      h('p', { class: 'muted' }, t('admin.reported_by', { name: r.reporter.name, when: formatDateTime(r.at_ms) }),
        r.game ? [' · ', h('a', { href: `#/game/${r.game}` }, t('title.game', { id: String(r.game) }))] : '',
        r.group ? [' · ', h('a', { href: `#/group/${r.group}` }, t('groups.group_n', { id: String(r.group) }))] : ''),
      r.chat_text !== null ? h('blockquote', { class: 'chat-quote' }, r.chat_text) : '',
      r.text ? h('p', { class: 'report-text' }, r.text) : '',
      r.status === 'open'
        ? h('div', { class: 'report-actions' },
          field(t('admin.note'), note),
          h('div', { class: 'buttons' },
            h('button', { class: 'primary', onclick: decide('resolve') }, t('admin.resolve')),
            h('button', { onclick: decide('dismiss') }, t('admin.dismiss')),
            h('a', { class: 'button-link', href: `#/admin/users?q=${encodeURIComponent(r.user.name)}` }, t('admin.see_user'))),
          error)
        : h('p', { class: 'muted' }, t('admin.handled', { name: r.handled_by?.name ?? '', when: formatDateTime(r.handled_at_ms) }),
          r.note ? [': ', h('q', {}, r.note)] : ''));
  }
  load();
}

// ---- users ----

function users(root, ctx, alive) {
  const query = h('input', { id: 'user-search', type: 'search', maxlength: 20, autocomplete: 'off',
    value: new URLSearchParams(location.hash.split('?')[1] ?? '').get('q') ?? '' });
  const list = h('div', { class: 'user-list' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  fill(root,
    h('form', { class: 'field-row', role: 'search', onsubmit: (e) => { e.preventDefault(); load(); } },
      field(t('admin.search'), query), h('button', { type: 'submit', class: 'align-end' }, t('admin.find'))),
    problem, list);

  async function load() {
    problem.textContent = '';
    try {
      const { users: rows } = await fetchJson(`/api/v1/admin/users?q=${encodeURIComponent(query.value.trim())}`);
      if (!alive()) return;
      fill(list, rows.length ? rows.map(row) : h('p', { class: 'muted empty' }, t('admin.no_users')));
    } catch (err) {
      problem.textContent = err.message;
    }
  }

  function row(u) {
    const reason = h('input', { id: `reason-${u.id}`, maxlength: 500, autocomplete: 'off' });
    const hours = selectInput(`hours-${u.id}`, 'hours',
      Object.fromEntries(SUSPENSIONS.map((n) => [n, t('admin.hours', { n })])), '24');
    const error = h('p', { class: 'form-error', role: 'alert' });
    const shown = h('div', { class: 'shown-once', hidden: true });
    const act = (action, extra = {}) => async () => {
      error.textContent = '';
      try {
        const answer = await fetchJson(`/api/v1/admin/users/${encodeURIComponent(u.name)}`,
          { method: 'POST', body: { action, ...extra } });
        if (answer.password) {
          // Shown once, to be passed on: the server keeps only its hash.
          fill(shown, h('p', {}, t('admin.new_password', { name: u.name })), h('code', { class: 'password' }, answer.password));
          shown.hidden = false;
        }
        ctx.toast(t(`admin.done_${action}`, { name: u.name }), { kind: 'info' });
        const fresh = row(answer.user);
        if (answer.password) fresh.querySelector('.shown-once').replaceWith(shown);
        article.replaceWith(fresh);
      } catch (err) {
        error.textContent = err.message;
      }
    };
    const restricted = u.banned || u.suspended_until_ms !== null;
    // What was done to them before, asked for when opened (the audit log's lines about them).
    const historyList = h('ol', { class: 'user-history' });
    const history = h('details', { class: 'history' }, h('summary', {}, t('admin.history')), historyList);
    history.addEventListener('toggle', async () => {
      if (!history.open || history.dataset.loaded) return;
      history.dataset.loaded = '1';
      try {
        const page = await fetchJson(`/api/v1/admin/audit?limit=20&user=${encodeURIComponent(u.name)}`);
        if (!page.entries.length) fill(historyList, h('li', { class: 'muted' }, t('admin.history_none')));
        else {
          fill(historyList, ...page.entries.map((e) => h('li', {},
            `${formatDateTime(e.at_ms)} · ${t(`admin.action_${e.action}`)}`, e.detail ? ` (${detail(e.detail)})` : '',
            e.actor ? ` · ${e.actor.name}` : '', e.reason ? [' · ', h('q', {}, e.reason)] : '')));
        }
      } catch (err) {
        fill(historyList, h('li', { class: 'form-error' }, err.message));
      }
    });
    const article = h('article', { class: 'admin-user', dataset: { user: u.name } },
      h('p', {}, h('strong', {}, userLink(u)),
        u.admin ? h('span', { class: 'tag' }, t('admin.admin')) : '',
        u.bot ? h('span', { class: 'tag' }, t('rank.bot')) : '',
        u.banned ? h('span', { class: 'tag warn' }, t('admin.banned')) : '',
        u.suspended_until_ms !== null ? h('span', { class: 'tag warn' }, t('admin.suspended_until', { when: formatDateTime(u.suspended_until_ms) })) : ''),
      h('p', { class: 'muted' }, t('admin.joined', { when: formatDateTime(u.created_at_ms) }),
        restricted && u.reason ? [' · ', h('q', {}, u.reason)] : ''),
      u.admin ? '' : h('div', { class: 'field-row' }, field(t('admin.reason'), reason), field(t('admin.for'), hours)),
      h('div', { class: 'buttons' },
        // Asked once more: it ends every login of theirs at once.
        u.admin ? '' : h('button', { onclick: () => confirm(t('admin.confirm_suspend', { name: u.name, hours: t('admin.hours', { n: Number(hours.value) }) })) && act('suspend', { reason: reason.value.trim(), hours: Number(hours.value) })() }, t('admin.suspend')),
        u.admin ? '' : h('button', { class: 'danger-quiet', onclick: () => confirm(t('admin.confirm_ban', { name: u.name })) && act('ban', { reason: reason.value.trim() })() }, t('admin.ban')),
        restricted ? h('button', { onclick: () => act('reinstate', { reason: reason.value.trim() })() }, t('admin.reinstate')) : '',
        h('button', { onclick: act('reset_password') }, t('admin.reset_password')),
        h('button', { onclick: act(u.bot ? 'unmark_bot' : 'mark_bot') }, t(u.bot ? 'admin.unmark_bot' : 'admin.mark_bot'))),
      history, shown, error);
    return article;
  }
  load();
}

// ---- invites ----

function invites(root, ctx, alive) {
  const note = h('input', { id: 'invite-note', maxlength: 100, autocomplete: 'off', placeholder: t('admin.invite_note_example') });
  const uses = h('input', { id: 'invite-uses', type: 'number', min: 1, max: 1000, value: 30 });
  const days = h('input', { id: 'invite-days', type: 'number', min: 1, max: 366, value: 30 });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const rows = h('tbody');
  fill(root,
    h('form', { class: 'invite-form', onsubmit: create },
      h('p', { class: 'muted' }, t('admin.invites_help')),
      h('div', { class: 'field-row' }, field(t('admin.invite_note'), note), field(t('admin.invite_uses'), uses),
        field(t('admin.invite_days'), days), h('button', { type: 'submit', class: 'primary align-end' }, t('admin.invite_make'))),
      problem),
    h('div', { class: 'table-wrap' }, h('table', { class: 'invites' },
      h('thead', {}, h('tr', {}, ...['code', 'note', 'used', 'expires', ''].map((k) => h('th', { scope: 'col' }, k ? t(`admin.col_${k}`) : '')))),
      rows)));

  async function create(e) {
    e.preventDefault();
    problem.textContent = '';
    try {
      await fetchJson('/api/v1/admin/invites', { method: 'POST',
        body: { note: note.value.trim(), max_uses: Number(uses.value), days: Number(days.value) || null } });
      note.value = '';
      load();
    } catch (err) {
      problem.textContent = err.message;
    }
  }

  async function load() {
    try {
      const { invites: list } = await fetchJson('/api/v1/admin/invites');
      if (!alive()) return;
      const now = Date.now();
      fill(rows, list.length ? list.map((i) => {
        const link = `${location.origin}/#/join/${i.code}`;
        const over = i.revoked || i.uses >= i.max_uses || (i.expires_at_ms !== null && i.expires_at_ms <= now);
        return h('tr', { class: over ? 'spent' : '', dataset: { invite: i.code } },
          h('td', {}, h('code', {}, i.code), over ? '' : h('button', { class: 'small', title: link,
            onclick: () => navigator.clipboard?.writeText(link).then(() => ctx.toast(t('admin.link_copied'), { kind: 'info' })) }, t('admin.copy_link'))),
          h('td', {}, i.note),
          h('td', {}, `${i.uses} / ${i.max_uses}`),
          h('td', {}, i.revoked ? t('admin.withdrawn') : i.expires_at_ms === null ? t('admin.never') : formatDateTime(i.expires_at_ms)),
          h('td', {}, over ? '' : h('button', { class: 'small danger-quiet', onclick: async () => {
            try {
              await fetchJson(`/api/v1/admin/invites/${i.id}`, { method: 'DELETE' });
              load();
            } catch (err) {
              problem.textContent = err.message;
            }
          } }, t('admin.withdraw'))));
      }) : h('tr', {}, h('td', { colspan: 5, class: 'empty' }, t('admin.no_invites'))));
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  load();
}

// ---- teachers (docs/classes.md) ----

function teachers(root, ctx, alive) {
  const name = h('input', { id: 'teacher-name', maxlength: 20, autocomplete: 'off', required: true });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const list = h('ul', { class: 'teacher-list' });
  fill(root,
    h('form', { class: 'invite-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        await fetchJson('/api/v1/admin/teachers', { method: 'POST', body: { user: name.value.trim() } });
        name.value = '';
        load();
      } catch (err) {
        problem.textContent = err.message;
      }
    } },
    h('p', { class: 'muted' }, t('admin.teachers_help')),
    h('div', { class: 'field-row' }, field(t('admin.teacher_name'), name),
      h('button', { type: 'submit', class: 'primary align-end' }, t('admin.teacher_make'))),
    problem),
    list);
  async function load() {
    try {
      const { teachers: all } = await fetchJson('/api/v1/admin/teachers');
      if (!alive()) return;
      fill(list, ...(all.length ? all.map((u) => h('li', { dataset: { teacher: u.name } }, userLink(u), ' ',
        h('button', { class: 'small danger-quiet', onclick: async () => {
          try {
            await fetchJson(`/api/v1/admin/teachers/${encodeURIComponent(u.name)}`, { method: 'DELETE' });
            load();
          } catch (err) {
            problem.textContent = err.message;
          }
        } }, t('admin.teacher_remove')))) : [h('li', { class: 'muted' }, t('admin.no_teachers'))]));
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  load();
}

// ---- analysis workers (docs/analysis.md) ----

function workers(root, ctx, alive) {
  const name = h('input', { id: 'worker-name', maxlength: 40, autocomplete: 'off', placeholder: t('admin.worker_name_example'), pattern: '[A-Za-z0-9._\\-]{1,40}', required: true });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const made = h('div', { class: 'worker-key', hidden: true, role: 'status' });
  const rows = h('tbody');
  const queue = h('tbody');
  fill(root,
    h('form', { class: 'invite-form', onsubmit: create },
      h('p', { class: 'muted' }, t('admin.workers_help')),
      h('div', { class: 'field-row' }, field(t('admin.worker_name'), name),
        h('button', { type: 'submit', class: 'primary align-end' }, t('admin.worker_make'))),
      problem),
    made,
    h('div', { class: 'table-wrap' }, h('table', { class: 'workers' },
      h('thead', {}, h('tr', {}, ...['worker', 'made', 'seen', ''].map((k) => h('th', { scope: 'col' }, k ? t(`admin.col_${k}`) : '')))),
      rows)),
    h('h3', {}, t('admin.queue_title')),
    h('p', { class: 'muted' }, t('admin.queue_help')),
    h('div', { class: 'table-wrap' }, h('table', { class: 'analysis-queue' },
      h('thead', {}, h('tr', {}, ...['game', 'state', 'asked', 'worker', 'progress'].map((k) => h('th', { scope: 'col' }, t(`admin.col_${k}`))))),
      queue)));

  async function create(e) {
    e.preventDefault();
    problem.textContent = '';
    try {
      const answer = await fetchJson('/api/v1/admin/analysis-workers', { method: 'POST', body: { name: name.value.trim() } });
      name.value = '';
      // The key is shown this once: the server keeps only its hash.
      fill(made, h('p', {}, t('admin.worker_key_once', { name: answer.name })), h('code', { class: 'key' }, answer.key),
        h('p', { class: 'muted' }, t('admin.worker_run')), h('code', {}, `tengen-analysis --server ${location.origin} --key-file worker.key`));
      made.hidden = false;
      load();
    } catch (err) {
      problem.textContent = err.message;
    }
  }

  async function load() {
    try {
      const { workers: list } = await fetchJson('/api/v1/admin/analysis-workers');
      if (!alive()) return;
      fill(rows, list.length ? list.map((w) => h('tr', { class: w.revoked_at_ms === null ? '' : 'spent', dataset: { worker: w.name } },
        h('td', {}, w.name),
        h('td', {}, formatDateTime(w.created_at_ms)),
        h('td', {}, w.revoked_at_ms !== null ? t('admin.worker_revoked') : w.last_seen_at_ms === null ? t('admin.never') : formatDateTime(w.last_seen_at_ms)),
        h('td', {}, w.revoked_at_ms !== null ? '' : h('button', { class: 'small danger-quiet', onclick: async () => {
          try {
            await fetchJson(`/api/v1/admin/analysis-workers/${encodeURIComponent(w.name)}`, { method: 'DELETE' });
            load();
          } catch (err) {
            problem.textContent = err.message;
          }
        } }, t('admin.worker_revoke'))))) : h('tr', {}, h('td', { colspan: 4, class: 'empty' }, t('admin.no_workers'))));
      const { jobs } = await fetchJson('/api/v1/admin/analysis-jobs');
      if (!alive()) return;
      fill(queue, jobs.length ? jobs.map(jobRow) : h('tr', {}, h('td', { colspan: 5, class: 'empty' }, t('admin.no_jobs'))));
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  load();
}

// One job of the analysis queue: its game, where it stands, who asked, which worker, how far.
function jobRow(j) {
  const when = formatDateTime(j.requested_at_ms);
  const progress = j.state === 'running' ? t('admin.job_moves', { done: j.moves_done, total: j.moves_total })
    : j.state === 'failed' ? j.error
      : j.finished_at_ms !== null ? t('admin.job_finished', { when: formatDateTime(j.finished_at_ms) }) : '';
  return h('tr', { class: `job-${j.state}`, dataset: { game: String(j.game) } },
    h('td', {}, h('a', { href: `#/game/${j.game}` }, t('admin.job_game', { id: j.game }))),
    h('td', {}, t(`admin.job_${j.state}`)),
    h('td', {}, j.requested_by === null ? t('admin.job_by_server', { when }) : t('admin.job_by', { name: j.requested_by, when })),
    h('td', {}, j.worker ?? '—'),
    h('td', {}, progress, j.attempts > 1 ? h('span', { class: 'muted' }, ` · ${t('admin.job_attempts', { n: j.attempts })}`) : ''));
}

// ---- the audit log ----

// The server's details ("72 hours", "30 uses", "report 4", "invite 2") in the page's words.
function detail(text) {
  let m;
  if ((m = /^(\d+) hours$/.exec(text))) return t('admin.hours', { n: Number(m[1]) });
  if ((m = /^(\d+) uses$/.exec(text))) return t('admin.uses', { n: Number(m[1]) });
  if ((m = /^(\d+) ratings rebuilt$/.exec(text))) return t('admin.ratings_rebuilt', { n: Number(m[1]) });
  if (/^([BW]\+[RTF]|0|Void)$/.test(text)) return describeResult(text);
  if ((m = /^(report|invite|line) (\d+)$/.exec(text))) return t(`admin.${m[1]}_n`, { id: m[2] });
  if ((m = /^worker (.+)$/.exec(text))) return t('admin.worker_n', { name: m[1] });
  if ((m = /^group (\d+)$/.exec(text))) return t('groups.group_n', { id: m[1] });
  return text;
}

function audit(root, ctx, alive) {
  const rows = h('tbody');
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const more = h('button', { hidden: true, onclick: () => load(next) }, t('games.older'));
  let next = null;
  fill(root, h('div', { class: 'table-wrap' }, h('table', { class: 'audit' },
    h('thead', {}, h('tr', {}, ...['when', 'who', 'action', 'user', 'reason'].map((k) => h('th', { scope: 'col' }, t(`admin.col_${k}`))))),
    rows)), problem, more);

  async function load(before) {
    try {
      const page = await fetchJson(`/api/v1/admin/audit?limit=50${before ? `&before=${before}` : ''}`);
      if (!alive()) return;
      for (const e of page.entries) {
        rows.append(h('tr', {},
          h('td', {}, formatDateTime(e.at_ms)),
          h('td', {}, userLink(e.actor)),
          h('td', {}, t(`admin.action_${e.action}`), e.detail ? h('span', { class: 'muted' }, ` (${detail(e.detail)})`) : ''),
          h('td', {}, e.user ? userLink(e.user) : '', e.game ? h('a', { href: `#/game/${e.game}` }, ` #${e.game}`) : ''),
          h('td', {}, e.reason)));
      }
      next = page.next_before;
      more.hidden = next === null;
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  load(null);
}
