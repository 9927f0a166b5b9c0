// Groups (clubs; docs/groups.md): the list with a form to create one, and a group's page — who
// belongs, joining and leaving, the administrators' tools (requests, roles, the invitation link,
// settings), the group's open challenges and a form for one, its recent games and its chat, live.
import { h, fill, field, selectInput, keepFocus, describeResult, describeSettings, sizeOf, colorWords } from './util.js';
import { fetchJson } from './api.js';
import { t, tn, formatTime, formatDateTime } from './i18n.js';

const day = (ms) => formatDateTime(ms, { dateStyle: 'medium' });
import { rankTag } from './ranks.js';
import { openReport } from './report.js';
import { challengeForm, forgetGroups } from './lobby.js';
import { laddersCard } from './ladders.js';
import { Command, Enum, Message } from './wire.js';

const JOINING = ['open', 'request', 'invite'];
const joiningWords = () => Object.fromEntries(JOINING.map((j) => [j, t(`groups.joining_${j}`)]));
const roleName = (r) => t(`groups.role_${r}`);
const runs = (role) => role === 'owner' || role === 'admin';
const belongs = (role) => runs(role) || role === 'member';
const api = (id, rest = '') => `/api/v1/groups/${id}${rest}`;

// ---- the list ----

export function mountGroupList(root, ctx) {
  const rows = h('tbody');
  const mine = h('ul', { class: 'my-groups' });
  const older = h('button', { type: 'button', class: 'older', hidden: true }, t('groups.older'));
  const problem = h('p', { class: 'form-error', role: 'alert' });
  fill(root, h('div', { class: 'groups' },
    h('section', { class: 'card' }, h('h1', {}, t('nav.groups')),
      h('p', { class: 'muted' }, t('groups.intro')),
      ctx.user ? h('div', {}, h('h2', {}, t('groups.mine')), mine) : '',
      h('h2', {}, t('groups.all')),
      h('div', { class: 'table-wrap' }, h('table', { class: 'group-list' },
        h('thead', {}, h('tr', {}, ...['name', 'members', 'joining', 'owner'].map((k) => h('th', { scope: 'col' }, t(`groups.col_${k}`))))),
        rows)),
      older, problem),
    h('section', { class: 'card' }, h('h2', {}, t('groups.new')),
      ctx.user ? groupForm(ctx) : h('p', { class: 'muted' }, ...tn('groups.guest', { link: h('a', { href: '#/login' }, t('nav.log_in')) })))));
  let stopped = false;
  const row = (g) => h('tr', { dataset: { group: g.id } },
    h('td', {}, h('a', { href: `#/group/${g.id}` }, g.name), g.closed_at_ms ? h('span', { class: 'tag' }, t('groups.closed')) : ''),
    h('td', {}, String(g.members)),
    h('td', {}, joiningWords()[g.joining] ?? g.joining),
    h('td', {}, g.owner.name));
  async function load(before = null) {
    try {
      const { groups, next_before: next } = await fetchJson(`/api/v1/groups?limit=50${before ? `&before=${before}` : ''}`);
      if (stopped) return;
      if (!before) fill(rows);
      if (!before && !groups.length) fill(rows, h('tr', {}, h('td', { colspan: 4, class: 'empty' }, t('groups.none'))));
      rows.append(...groups.map(row));
      older.hidden = next === undefined || next === null;
      older.onclick = () => load(next);
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  async function loadMine() {
    if (!ctx.user) return;
    try {
      const { groups } = await fetchJson('/api/v1/me/groups');
      if (stopped) return;
      if (!groups.length) fill(mine, h('li', { class: 'empty' }, t('groups.mine_none')));
      else fill(mine, ...groups.map((g) => h('li', {}, h('a', { href: `#/group/${g.id}` }, g.name), ' ', h('span', { class: 'tag' }, roleName(g.my_role)))));
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  load();
  loadMine();
  return () => { stopped = true; };
}

function groupForm(ctx) {
  const name = h('input', { id: 'gf-name', name: 'name', required: true, minlength: 3, maxlength: 40, autocomplete: 'off' });
  const description = h('textarea', { id: 'gf-description', name: 'description', rows: 4, maxlength: 2000 });
  const joining = selectInput('gf-joining', 'joining', joiningWords(), 'open');
  const problem = h('p', { class: 'form-error', role: 'alert' });
  return h('form', {
    class: 'group-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        const { groups } = await fetchJson('/api/v1/groups', { method: 'POST', body: { name: name.value.trim(), description: description.value, joining: joining.value } });
        forgetGroups(ctx);
        ctx.navigate(`#/group/${groups[0].id}`);
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  field(t('groups.name'), name),
  h('p', { class: 'muted hint' }, t('groups.name_hint')),
  field(t('groups.description'), description),
  field(t('groups.joining'), joining),
  problem,
  h('button', { type: 'submit', class: 'primary' }, t('groups.create')));
}

// ---- a group ----

// `invite`: the secret of an invitation link the page was opened with.
export function mountGroup(root, ctx, id, invite = null) {
  const head = h('section', { class: 'card group-head' });
  const admin = h('section', { class: 'card group-admin', hidden: true });
  const members = h('section', { class: 'card group-members' });
  const challenges = h('section', { class: 'card group-challenges', hidden: true });
  const games = h('section', { class: 'card group-games' });
  const chat = groupChat(ctx, id);
  const ladders = laddersCard(ctx, id);
  fill(root, h('div', { class: 'group-page' },
    h('div', { class: 'group-main' }, head, challenges, ladders.el, members, games),
    h('div', { class: 'group-side' }, chat.el, admin)));
  let page = null;
  let stopped = false;
  let form = null;
  let madeLink = '';  // the invitation link made on this visit (shown once by the server), kept across redraws

  const act = (fn) => async () => {
    try {
      await fn();
      forgetGroups(ctx);
      await load();
    } catch (err) {
      ctx.toast(err.message);
    }
  };
  const post = (rest, body = {}) => fetchJson(api(id, rest), { method: 'POST', body });

  async function load() {
    try {
      const loaded = await fetchJson(api(id));
      if (stopped) return;
      page = loaded;
      document.title = `${page.group.name} · Tengen`;
      draw();
    } catch (err) {
      if (stopped) return;
      fill(head, h('h1', {}, t('groups.group')), h('p', { class: 'form-error', role: 'alert' }, err.message));
    }
  }

  function draw() {
    const g = page.group;
    const role = g.my_role ?? null;
    const closed = Boolean(g.closed_at_ms);
    const buttons = [];
    if (ctx.user && !role && !closed) {
      buttons.push(h('button', { class: 'primary', onclick: act(() => post('/join', invite ? { invite } : {})) },
        g.joining === 'request' && !invite ? t('groups.ask_to_join') : t('groups.join')));
    }
    // A class's students stay until it is archived (docs/classes.md); its teacher has a dashboard.
    if (g.class && runs(role)) buttons.push(h('a', { class: 'button', href: `#/class/${g.id}` }, t('groups.class_dashboard')));
    if (role && role !== 'owner' && role !== 'banned' && !(g.class && role === 'member')) buttons.push(h('button', { onclick: () => confirm(t('groups.leave_confirm', { name: g.name })) && act(() => post('/leave'))() }, role === 'pending' ? t('groups.withdraw') : t('groups.leave')));
    const status = role === 'pending' ? t('groups.you_asked') : role === 'banned' ? t('groups.you_banned')
      : !ctx.user ? '' : !role && g.joining === 'invite' && !invite ? t('groups.invite_only') : '';
    fill(head,
      h('h1', {}, g.name, g.class ? h('span', { class: 'tag' }, t('groups.a_class')) : '', closed ? h('span', { class: 'tag' }, t('groups.closed')) : ''),
      h('p', { class: 'muted' }, t('groups.summary', { n: g.members, owner: g.owner.name, since: day(g.created_at_ms) }), g.class ? '' : ` · ${joiningWords()[g.joining]}`),
      g.description ? h('p', { class: 'group-description' }, g.description) : '',
      role && role !== 'pending' && role !== 'banned' ? h('p', {}, h('span', { class: 'tag' }, t('groups.your_role', { role: roleName(role) }))) : '',
      status ? h('p', { class: 'muted', role: 'status' }, status) : '',
      closed ? h('p', { class: 'muted' }, t('groups.closed_note')) : '',
      !ctx.user ? h('p', { class: 'muted' }, ...tn('groups.guest_join', { link: h('a', { href: '#/login' }, t('nav.log_in')) })) : '',
      buttons.length ? h('div', { class: 'buttons' }, ...buttons) : '');
    drawMembers(role);
    drawGames();
    drawChallenges(role, closed);
    drawAdmin(role, closed);
    ladders.load(runs(role) || ctx.user?.admin, closed);
    chat.show(belongs(role) || ctx.user?.admin, closed, runs(role) || ctx.user?.admin);
  }

  function drawMembers(role) {
    const canRun = runs(role) || ctx.user?.admin;
    const owner = role === 'owner';
    const rowFor = (m) => {
      const actions = [];
      const set = (r) => act(() => post(`/members/${m.id}`, { role: r }));
      const out = act(() => fetchJson(api(id, `/members/${m.id}`), { method: 'DELETE' }));
      const key = (what) => ({ key: `member-${m.id}-${what}` });
      if (canRun && m.id !== ctx.user?.id && m.role !== 'owner') {
        if (m.role === 'pending') {
          actions.push(h('button', { class: 'small primary', onclick: set('member'), dataset: key('approve') }, t('groups.approve')));
          actions.push(h('button', { class: 'small', onclick: out, dataset: key('decline') }, t('groups.decline')));
        } else if (m.role === 'banned') {
          actions.push(h('button', { class: 'small', onclick: set('member'), dataset: key('unban') }, t('groups.unban')));
        } else {
          if (owner && m.role === 'member') actions.push(h('button', { class: 'small', onclick: set('admin'), dataset: key('admin') }, t('groups.make_admin')));
          if (owner && m.role === 'admin') actions.push(h('button', { class: 'small', onclick: set('member'), dataset: key('member') }, t('groups.unmake_admin')));
          if (owner) actions.push(h('button', { class: 'small', onclick: () => confirm(t('groups.hand_over_confirm', { name: m.name })) && set('owner')(), dataset: key('owner') }, t('groups.hand_over')));
          if (owner || m.role === 'member') {
            actions.push(h('button', { class: 'small', onclick: () => confirm(t('groups.remove_confirm', { name: m.name })) && out(), dataset: key('remove') }, t('groups.remove')));
            actions.push(h('button', { class: 'small danger-quiet', onclick: () => confirm(t('groups.ban_confirm', { name: m.name })) && set('banned')(), dataset: key('ban') }, t('groups.ban')));
          }
        }
      }
      return h('tr', { dataset: { member: m.id } },
        h('td', {}, h('a', { href: `#/user/${encodeURIComponent(m.name)}` }, m.name), m.bot ? h('span', { class: 'tag' }, t('groups.bot')) : ''),
        h('td', {}, rankTag({ id: m.id, name: m.name })),
        h('td', {}, roleName(m.role)),
        h('td', {}, day(m.since_ms)),
        canRun ? h('td', {}, h('div', { class: 'actions' }, ...actions)) : '');
    };
    const waiting = page.members.filter((m) => m.role === 'pending').length;
    keepFocus(members, () => fill(members,
      h('h2', {}, t('groups.members'), waiting ? h('span', { class: 'tag turn' }, t('groups.requests', { n: waiting })) : ''),
      h('div', { class: 'table-wrap' }, h('table', { class: 'member-list' },
        h('thead', {}, h('tr', {}, ...['name', 'rank', 'role', 'since'].map((k) => h('th', { scope: 'col' }, t(`groups.col_${k}`))),
          canRun ? h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('groups.col_actions'))) : '')),
        h('tbody', {}, ...page.members.map(rowFor))))));
  }

  function drawGames() {
    fill(games, h('h2', {}, t('groups.games')),
      page.games.length
        ? h('ul', { class: 'group-games-list' }, ...page.games.map((g) => h('li', {},
          h('a', { href: `#/game/${g.id}` }, t('common.vs', { black: g.black.name, white: g.white.name })),
          h('span', { class: 'muted' }, ` ${describeResult(g.result)} · ${day(g.ended_at_ms)}`))))
        : h('p', { class: 'empty muted' }, t('groups.no_games')));
  }

  // The group's open challenges (the lobby's, those for this group) and a form for one.
  function drawChallenges(role, closed) {
    challenges.hidden = !belongs(role) || closed;
    if (challenges.hidden) return;
    const me = ctx.user?.id;
    const open = [...ctx.lobby.challenges.values()].filter((c) => c.settings.group === id).sort((a, b) => a.id - b.id);
    if (!form) form = challengeForm(ctx, { group: id });
    const list = open.length
      ? h('ul', { class: 'challenges' }, ...open.map((c) => h('li', { class: `challenge${c.challenger.id === me ? ' mine' : ''}`, dataset: { challenge: c.id } },
        h('div', { class: 'challenger' }, h('strong', {}, c.challenger.name), ' ', rankTag(c.challenger), h('span', { class: 'tag' }, colorWords(c.settings.color))),
        h('div', { class: 'what' }, h('span', { class: 'size' }, sizeOf(c.settings)), describeSettings(c.settings, { size: false }).replace(/^/, '· ')),
        h('div', { class: 'actions' }, c.challenger.id === me
          ? h('button', { onclick: () => command(Command.cancel_challenge, c.id), dataset: { key: `gc-${c.id}-cancel` } }, t('common.cancel'))
          : h('button', { class: 'primary', onclick: () => command(Command.accept_challenge, c.id), dataset: { key: `gc-${c.id}-accept` } }, t('common.accept'))))))
      : h('p', { class: 'empty muted' }, t('groups.no_challenges'));
    const details = challenges.querySelector('details.group-new-challenge') ?? h('details', { class: 'group-new-challenge' }, h('summary', {}, t('groups.new_challenge')), form.el);
    keepFocus(challenges, () => fill(challenges, h('h2', {}, t('groups.challenges')), list, details));
  }
  async function command(type, challenge) {
    try {
      await ctx.conn.command(type, { challenge });
    } catch (err) {
      ctx.toast(err.message);
    }
  }

  function drawAdmin(role, closed) {
    const g = page.group;
    const canRun = runs(role) || ctx.user?.admin;
    admin.hidden = !canRun;
    if (!canRun) return;
    const description = h('textarea', { id: 'ga-description', rows: 4, maxlength: 2000 });
    description.value = g.description;
    const joining = selectInput('ga-joining', 'joining', joiningWords(), g.joining);
    const saved = h('p', { class: 'muted', role: 'status' });
    const link = h('input', { id: 'ga-link', readonly: true, class: 'invite-link', hidden: !madeLink, value: madeLink });
    const inviteNote = h('p', { class: 'muted' }, madeLink ? t('groups.invite_made') : page.has_invite ? t('groups.invite_works') : t('groups.invite_none'));
    const makeLink = async () => {
      try {
        const { invite: secret } = await post('/invite');
        madeLink = `${location.origin}${location.pathname}#/group/${id}/invite/${secret}`;
        link.value = madeLink;
        link.hidden = false;
        link.select();
        inviteNote.textContent = t('groups.invite_made');
      } catch (err) {
        ctx.toast(err.message);
      }
    };
    fill(admin, h('h2', {}, t('groups.run')),
      closed ? h('p', { class: 'muted' }, t('groups.closed_note')) : h('form', {
        class: 'group-settings', onsubmit: async (e) => {
          e.preventDefault();
          saved.textContent = '';
          try {
            await post('/settings', { description: description.value, joining: joining.value });
            saved.textContent = t('groups.saved');
            await load();
          } catch (err) {
            saved.textContent = err.message;
          }
        },
      }, field(t('groups.description'), description), field(t('groups.joining'), joining), saved,
      h('button', { type: 'submit' }, t('groups.save'))),
      closed ? '' : h('div', { class: 'group-invite' }, h('h3', {}, t('groups.invite')), inviteNote,
        h('label', { for: 'ga-link', class: 'sr-only' }, t('groups.invite')), link,
        h('div', { class: 'buttons' }, h('button', { onclick: makeLink }, t('groups.make_invite')),
          page.has_invite ? h('button', { onclick: act(async () => { await fetchJson(api(id, '/invite'), { method: 'DELETE' }); madeLink = ''; }) }, t('groups.end_invite')) : '')),
      role === 'owner' || ctx.user?.admin ? h('div', { class: 'buttons group-end' },
        closed ? '' : h('button', { onclick: () => confirm(t('groups.close_confirm', { name: g.name })) && act(() => post('/close'))() }, t('groups.close')),
        h('button', { class: 'danger-quiet', onclick: async () => {
          if (!confirm(t('groups.delete_confirm', { name: g.name }))) return;
          try {
            await fetchJson(api(id), { method: 'DELETE' });
            forgetGroups(ctx);
            ctx.navigate('#/groups');
          } catch (err) {
            ctx.toast(err.message);
          }
        } }, t('groups.delete'))) : '');
  }

  // Live: the chat's lines, and a change of members or settings read again.
  const onMessage = (e) => {
    const m = e.detail;
    if (m.type !== Message.group || m.group !== id) return;
    if (m.change === Enum.GroupChange.chat || m.change === Enum.GroupChange.chat_deleted) chat.told(m);
    else if (m.change === Enum.GroupChange.ladder && page) ladders.load(runs(page.group.my_role) || ctx.user?.admin, Boolean(page.group.closed_at_ms));
    else if (m.change !== Enum.GroupChange.deleted) load();
  };
  const onLobby = () => { if (page) drawChallenges(page.group.my_role, Boolean(page.group.closed_at_ms)); };
  ctx.conn.addEventListener('message', onMessage);
  ctx.conn.addEventListener('open', load);  // back after a cut: what changed meanwhile
  ctx.events.addEventListener('lobby', onLobby);
  load();
  return () => {
    stopped = true;
    ctx.conn.removeEventListener('message', onMessage);
    ctx.conn.removeEventListener('open', load);
    ctx.events.removeEventListener('lobby', onLobby);
  };
}

// The group's chat for its members: the latest lines, each new one as it is said.
function groupChat(ctx, id) {
  const log = h('ol', { class: 'chat-log', 'aria-live': 'polite', 'aria-label': t('chat.messages'), tabindex: '0' });
  const input = h('input', { id: 'group-chat-input', maxlength: 500, autocomplete: 'off', 'aria-label': t('groups.chat_say') });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const form = h('form', { class: 'chat-form', onsubmit: send }, input, h('button', { type: 'submit' }, t('chat.send')));
  const note = h('p', { class: 'muted' });
  const el = h('section', { class: 'card chat group-chat' }, h('h2', {}, t('groups.chat')), note, log, form, problem);
  const lines = new Map();
  let moderate = false;
  let shown = false;

  async function send(e) {
    e.preventDefault();
    problem.textContent = '';
    const text = input.value.trim();
    if (!text) return;
    try {
      const line = await fetchJson(api(id, '/chat'), { method: 'POST', body: { text } });
      input.value = '';
      add(line);
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  function add(line) {
    lines.set(line.id, line);
    draw();
  }
  function draw() {
    const sorted = [...lines.values()].sort((a, b) => a.id - b.id);
    fill(log, ...(sorted.length ? sorted.map((l) => h('li', { class: 'chat-line', dataset: { line: l.id } },
      h('time', { class: 'chat-time', datetime: new Date(l.at_ms).toISOString() }, formatTime(l.at_ms)),
      h('strong', {}, l.from.name), ' ',
      l.deleted ? h('em', { class: 'chat-deleted' }, t('chat.deleted')) : l.text,
      ctx.user && l.from.id !== ctx.user.id && !l.deleted
        ? h('button', { class: 'report-line', title: t('report.line'), 'aria-label': t('report.line'),
          onclick: () => openReport(ctx, { user: l.from.name, group: id, groupLine: l.id, chatText: l.text }) }, '⚑')
        : '',
      (moderate || l.from.id === ctx.user?.id) && !l.deleted
        ? h('button', { class: 'report-line delete-line', title: t('chat.delete'), 'aria-label': t('chat.delete'),
          onclick: () => remove(l) }, '✕')
        : '')) : [h('li', { class: 'chat-line chat-system' }, t('groups.chat_empty'))]));
    log.scrollTop = log.scrollHeight;
  }
  async function remove(line) {
    if (!confirm(t('chat.delete_confirm', { name: line.from.name }))) return;
    try {
      await fetchJson(api(id, `/chat/${line.id}`), { method: 'DELETE' });
    } catch (err) {
      ctx.toast(err.message);
    }
  }
  async function load() {
    try {
      const { lines: got } = await fetchJson(api(id, '/chat'));
      lines.clear();
      for (const l of got) lines.set(l.id, l);
      draw();
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  return {
    el,
    // Members (and moderators) read it; a closed group's is read only.
    show(member, closed, canModerate) {
      moderate = canModerate;
      el.hidden = !member;
      form.hidden = closed;
      note.textContent = closed ? t('groups.chat_closed') : t('groups.chat_note');
      if (member && !shown) load();
      shown = member;
      if (member) draw();
    },
    told(m) {
      if (shown && m.line) add(m.line);
    },
  };
}
