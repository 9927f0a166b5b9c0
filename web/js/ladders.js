// A group's ladders (docs/groups.md, "Ladders"): the card on the group's page (its ladders, and a
// form for a new one for its administrators) and a ladder's page — the rungs with a Challenge
// button beside those within reach, the challenges open and in play with Accept and Withdraw,
// Join, Leave and Away, and the history of the standings; live through the group's messages.
import { h, fill, field, selectInput, keepFocus, describeSettings, describeResult, acting } from './util.js';
import { fetchJson } from './api.js';
import { t, formatDateTime } from './i18n.js';
import { rankTag } from './ranks.js';
import { timeNames, rulesetOptions, timeInputs, timeOf } from './lobby.js';
import { Enum, Message } from './wire.js';

const when = (ms) => formatDateTime(ms, { dateStyle: 'medium', timeStyle: 'short' });
const onWinWords = () => ({ swap: t('ladder.on_win_swap'), move_up: t('ladder.on_win_move_up') });

// The ladders of group `id` on its page; `canRun`: its administrators may make one.
export function laddersCard(ctx, id) {
  const list = h('ul', { class: 'ladder-list' });
  const form = h('div');
  const el = h('section', { class: 'card group-ladders' }, h('h2', {}, t('ladder.ladders')), list, form);
  let formShown = false;
  async function load(canRun, closed) {
    try {
      const { ladders } = await fetchJson(`/api/v1/groups/${id}/ladders`);
      if (!ladders.length) fill(list, h('li', { class: 'empty muted' }, t('ladder.none')));
      else fill(list, ...ladders.map((l) => h('li', { dataset: { ladder: l.id } },
        h('a', { href: `#/ladder/${l.id}` }, l.name), ' ',
        l.closed_at_ms ? h('span', { class: 'tag' }, t('groups.closed')) : '',
        h('span', { class: 'muted' }, ` ${t('ladder.players', { n: l.players })} · ${describeSettings(l.settings)}`))));
    } catch (err) {
      fill(list, h('li', { class: 'form-error' }, err.message));
    }
    if (canRun && !closed && !formShown) {
      formShown = true;
      fill(form, h('details', { class: 'group-new-ladder' }, h('summary', {}, t('ladder.new')), ladderForm(ctx, id, () => load(canRun, closed))));
    }
    if ((!canRun || closed) && formShown) {
      formShown = false;
      fill(form);
    }
  }
  return { el, load };
}

function ladderForm(ctx, group, made) {
  const name = h('input', { id: 'lf-name', required: true, maxlength: 60, autocomplete: 'off' });
  const size = selectInput('lf-size', 'size', { 19: '19×19', 13: '13×13', 9: '9×9' }, '19');
  const ruleset = selectInput('lf-ruleset', 'ruleset', rulesetOptions(), 'japanese');
  const clock = selectInput('lf-time', 'time', timeNames(), 'byoyomi');
  const timeFields = h('div', { class: 'field-row time-fields' });
  const rated = h('input', { id: 'lf-rated', type: 'checkbox', checked: true });
  const reach = h('input', { id: 'lf-reach', type: 'number', min: 1, max: 10, value: '3', required: true });
  const days = h('input', { id: 'lf-days', type: 'number', min: 1, max: 30, value: '7', required: true });
  const onWin = selectInput('lf-on-win', 'on_win', onWinWords(), 'swap');
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const inputs = {};
  const showTime = () => fill(timeFields, ...timeInputs(clock.value, inputs, 'lf'));
  clock.addEventListener('change', showTime);
  showTime();
  return h('form', {
    class: 'ladder-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        const { id } = await fetchJson(`/api/v1/groups/${group}/ladders`, { method: 'POST', body: {
          name: name.value.trim(),
          settings: { width: Number(size.value), height: Number(size.value), ruleset: ruleset.value, time: timeOf(clock.value, inputs), rated: rated.checked },
          reach: Number(reach.value), accept_days: Number(days.value), on_win: onWin.value,
        } });
        made();
        ctx.navigate(`#/ladder/${id}`);
      } catch (err) {
        problem.textContent = err.message;
      }
    },
  },
  field(t('ladder.name'), name),
  h('div', { class: 'field-row' }, field(t('form.board'), size), field(t('form.rules'), ruleset), field(t('form.clock'), clock)),
  timeFields,
  h('div', { class: 'field-row checks' }, h('label', { class: 'check' }, rated, ` ${t('form.rated')}`)),
  h('div', { class: 'field-row' }, field(t('ladder.reach'), reach), field(t('ladder.accept_days'), days), field(t('ladder.on_win'), onWin)),
  problem,
  h('button', { type: 'submit', class: 'primary' }, t('ladder.create')));
}

// What happened, in words.
function eventWords(e) {
  const key = `ladder.event_${e.kind}${(e.kind === 'expired' || e.kind === 'won' || e.kind === 'joined') && !e.rung ? '_same' : ''}`;
  return t(key, { user: e.user, other: e.other ?? '', rung: e.rung ?? '' });
}

export function mountLadder(root, ctx, id) {
  const head = h('section', { class: 'card ladder-head' }, h('h1', {}, t('ladder.ladder')));
  const rungs = h('section', { class: 'card ladder-rungs' });
  const challenges = h('section', { class: 'card ladder-challenges' });
  const history = h('section', { class: 'card ladder-history' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  fill(root, h('div', { class: 'ladder-page' }, head, problem, h('div', { class: 'ladder-columns' }, rungs, h('div', { class: 'ladder-side' }, challenges, history))));
  let page = null;
  let stopped = false;
  const post = (rest, body = {}) => fetchJson(`/api/v1/ladders/${id}${rest}`, { method: 'POST', body });
  const act = acting(problem, () => load());

  async function load() {
    try {
      const loaded = await fetchJson(`/api/v1/ladders/${id}`);
      if (stopped) return;
      page = loaded;
      document.title = `${page.ladder.name} · Tengen`;
      draw();
    } catch (err) {
      if (!stopped) problem.textContent = err.message;
    }
  }

  function draw() {
    const l = page.ladder;
    const me = ctx.user?.id;
    const mine = page.players.find((p) => p.id === me);
    const member = ['owner', 'admin', 'member'].includes(page.group.my_role);
    const runs = ['owner', 'admin'].includes(page.group.my_role) || ctx.user?.admin;
    const closed = Boolean(l.closed_at_ms);
    const unresolved = page.challenges.filter((c) => c.state === 'open' || c.state === 'playing');
    const busy = new Set(unresolved.flatMap((c) => [c.challenger.id, c.defender.id]));
    const buttons = [];
    if (!closed && member && !mine) buttons.push(h('button', { class: 'primary', onclick: act(() => post('/join')) }, t('ladder.join')));
    if (!closed && mine) {
      buttons.push(h('button', { onclick: act(() => post('/away', { away: !mine.away })) }, mine.away ? t('ladder.back') : t('ladder.away')));
      buttons.push(h('button', { onclick: () => confirm(t('ladder.leave_confirm')) && act(() => post('/leave'))() }, t('ladder.leave')));
    }
    if (!closed && runs) buttons.push(h('button', { class: 'danger-quiet', onclick: () => confirm(t('ladder.close_confirm', { name: l.name })) && act(() => post('/close'))() }, t('ladder.close')));
    fill(head,
      h('h1', {}, l.name, closed ? h('span', { class: 'tag' }, t('groups.closed')) : ''),
      h('p', {}, h('a', { href: `#/group/${l.group}` }, page.group.name), h('span', { class: 'muted' }, ` · ${describeSettings(l.settings)}`)),
      h('p', { class: 'muted ladder-rules' }, t('ladder.rules', { reach: l.reach, days: l.accept_days }), ' ', onWinWords()[l.on_win] ?? ''),
      mine ? h('p', {}, h('span', { class: 'tag' }, mine.away ? t('ladder.you_away', { rung: mine.rung }) : t('ladder.you_on', { rung: mine.rung }))) : '',
      !member && ctx.user ? h('p', { class: 'muted' }, t('ladder.members_only')) : '',
      buttons.length ? h('div', { class: 'buttons' }, ...buttons) : '');

    const canChallenge = (p) => !closed && mine && !mine.away && !p.away && p.rung < mine.rung &&
      mine.rung - p.rung <= l.reach && !busy.has(me) && !busy.has(p.id);
    keepFocus(rungs, () => fill(rungs, h('h2', {}, t('ladder.standings')),
      page.players.length ? h('table', { class: 'ladder-table' },
        h('thead', {}, h('tr', {}, ...['rung', 'player', 'status'].map((k) => h('th', { scope: 'col' }, t(`ladder.col_${k}`))),
          h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('groups.col_actions'))))),
        h('tbody', {}, ...page.players.map((p) => h('tr', { class: p.id === me ? 'me' : '', dataset: { player: p.id } },
          h('td', { class: 'rung' }, String(p.rung)),
          h('td', {}, h('a', { href: `#/user/${encodeURIComponent(p.name)}` }, p.name), rankTag({ id: p.id, name: p.name })),
          h('td', {}, p.away ? t('ladder.status_away') : busy.has(p.id) ? t('ladder.status_busy') : ''),
          h('td', {}, canChallenge(p)
            ? h('button', { class: 'small primary', dataset: { key: `challenge-${p.id}` }, onclick: act(() => post('/challenges', { defender: p.id })) }, t('ladder.challenge'))
            : '')))))
        : h('p', { class: 'empty muted' }, t('ladder.empty'))));

    const challengeRow = (c) => {
      const actions = [];
      if (c.state === 'open' && c.defender.id === me) {
        actions.push(h('button', { class: 'small primary', dataset: { key: `accept-${c.id}` }, onclick: act(async () => {
          const { id: game } = await post(`/challenges/${c.id}/accept`);
          ctx.navigate(`#/game/${game}`);
        }) }, t('ladder.accept')));
      }
      if (c.state === 'open' && c.challenger.id === me) {
        actions.push(h('button', { class: 'small', dataset: { key: `cancel-${c.id}` }, onclick: act(() => post(`/challenges/${c.id}/cancel`)) }, t('ladder.withdraw')));
      }
      const what = c.state === 'open' ? t('ladder.waiting_until', { when: when(c.deadline_ms) })
        : c.state === 'playing' ? '' : `${t(`ladder.state_${c.state}`)}${c.result ? ` · ${describeResult(c.result)}` : ''}`;
      return h('li', { dataset: { challenge: c.id, state: c.state } },
        h('strong', {}, t('ladder.versus', { challenger: c.challenger.name, defender: c.defender.name })), ' ',
        c.game ? h('a', { href: `#/game/${c.game}` }, c.state === 'playing' ? t('ladder.watch') : t('ladder.game')) : '',
        h('span', { class: 'muted' }, what ? ` ${what}` : ''),
        actions.length ? h('span', { class: 'actions' }, ...actions) : '');
    };
    keepFocus(challenges, () => fill(challenges, h('h2', {}, t('ladder.challenges')),
      page.challenges.length ? h('ul', { class: 'ladder-challenge-list' }, ...page.challenges.map(challengeRow))
        : h('p', { class: 'empty muted' }, t('ladder.no_challenges'))));
    fill(history, h('h2', {}, t('ladder.history')),
      h('ol', { class: 'ladder-events', reversed: true }, ...page.history.map((e) => h('li', {},
        h('time', { datetime: new Date(e.at_ms).toISOString(), class: 'muted' }, when(e.at_ms)), ' ', eventWords(e),
        e.game ? [' ', h('a', { href: `#/game/${e.game}` }, t('ladder.game'))] : ''))));
  }

  const onMessage = (e) => {
    const m = e.detail;
    if (m.type === Message.group && page && m.group === page.ladder.group && (m.change === Enum.GroupChange.ladder || m.change === Enum.GroupChange.members)) load();
  };
  ctx.conn.addEventListener('message', onMessage);
  ctx.conn.addEventListener('open', load);
  load();
  return () => {
    stopped = true;
    ctx.conn.removeEventListener('message', onMessage);
    ctx.conn.removeEventListener('open', load);
  };
}
