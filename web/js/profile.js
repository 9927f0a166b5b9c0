// A player's page: rank, rating and a small chart of its history, then their games.
import { h, fill, svg, formatDate, formatDays } from './util.js';
import { fetchJson, currentUser, setTimeZone, setVacation, browserTimeZone } from './api.js';
import { mountGameList } from './lists.js';
import { t, num } from './i18n.js';
import { openReport } from './report.js';
import { mailSetting } from './mail.js';
import { pushSetting } from './push.js';
import { learnRank } from './ranks.js';

const W = 600;
const H = 170;
const PAD = { left: 46, right: 10, top: 10, bottom: 22 };

// The rating after each game as a line, with its ±2 deviation band (a 95% interval).
export function ratingChart(history) {
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img',
    'aria-label': t('profile.chart_label', { n: history.length }) });
  if (history.length === 0) return root;
  const points = [{ rating: 1500, deviation: 350 }, ...history];
  // The band, but never more than 300 points beyond the line (a newcomer's band is ±700).
  const ratings = points.map((p) => p.rating);
  const lo = Math.max(Math.min(...ratings) - 300, Math.min(...points.map((p) => p.rating - 2 * p.deviation)));
  const hi = Math.min(Math.max(...ratings) + 300, Math.max(...points.map((p) => p.rating + 2 * p.deviation)));
  const x = (i) => PAD.left + (i / Math.max(1, points.length - 1)) * (W - PAD.left - PAD.right);
  const y = (r) => PAD.top + (1 - (r - lo) / Math.max(1, hi - lo)) * (H - PAD.top - PAD.bottom);
  const clampY = (r) => y(Math.min(hi, Math.max(lo, r)));
  const upper = points.map((p, i) => `${x(i)},${clampY(p.rating + 2 * p.deviation)}`);
  const lower = points.map((p, i) => `${x(i)},${clampY(p.rating - 2 * p.deviation)}`).reverse();
  root.append(svg('polygon', { points: [...upper, ...lower].join(' '), class: 'band' }));
  for (const r of [lo, (lo + hi) / 2, hi]) {
    root.append(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(r), y2: y(r), class: 'rule' }));
    const label = svg('text', { x: PAD.left - 6, y: y(r), class: 'axis' });
    label.textContent = num(Math.round(r));
    root.append(label);
  }
  root.append(svg('polyline', { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(' '), class: 'line' }));
  points.forEach((p, i) => {
    if (i === 0) return;
    const dot = svg('circle', { cx: x(i), cy: y(p.rating), r: 3, class: 'dot' });
    const title = svg('title');
    title.textContent = t('profile.point', { rating: Math.round(p.rating), rank: p.rank, game: String(p.game), when: formatDate(p.at_ms) });
    dot.append(title);
    root.append(dot);
  });
  const caption = svg('text', { x: W - PAD.right, y: H - 4, class: 'axis end' });
  caption.textContent = t('profile.rated_games', { n: history.length });
  root.append(caption);
  return root;
}

// Block or unblock this player (docs/moderation.md): no challenges from them, their open
// challenges hidden, their chat lines not shown.
function blockButton(ctx, name) {
  const button = h('button', { class: 'small', 'aria-pressed': 'false' }, t('block.block'));
  let blocked = false;
  const show = () => {
    button.textContent = t(blocked ? 'block.unblock' : 'block.block');
    button.setAttribute('aria-pressed', String(blocked));
    button.title = blocked ? t('block.blocked_help', { name }) : t('block.help', { name });
  };
  fetchJson('/api/v1/blocks').then(({ users }) => {
    blocked = users.some((u) => u.name === name);
    show();
  }, () => {});
  button.addEventListener('click', async () => {
    try {
      await (blocked
        ? fetchJson(`/api/v1/blocks/${encodeURIComponent(name)}`, { method: 'DELETE' })
        : fetchJson('/api/v1/blocks', { method: 'POST', body: { user: name } }));
      blocked = !blocked;
      show();
      ctx.toast(t(blocked ? 'block.done' : 'block.undone', { name }), { kind: 'info' });
    } catch (err) {
      ctx.toast(err.message);
    }
  });
  show();
  return button;
}

// On one's own page: the time zone in which one's correspondence weekends fall.
function timeZoneSetting(ctx) {
  const zones = [...new Set(['UTC', ...(Intl.supportedValuesOf?.('timeZone') ?? []), ctx.user.time_zone || 'UTC'])].sort();
  const select = h('select', { id: 'time-zone', name: 'time_zone' }, ...zones.map((z) => h('option', { value: z }, z.replaceAll('_', ' '))));
  select.value = ctx.user.time_zone || 'UTC';
  const mine = browserTimeZone();
  const device = h('p', { class: 'muted' }, t('profile.browser_zone', { zone: mine.replaceAll('_', ' ') }));
  const showDevice = () => { device.hidden = !mine || mine === select.value; };
  select.addEventListener('change', async () => {
    try {
      Object.assign(ctx.user, await setTimeZone(select.value));
      ctx.toast(t('profile.time_zone_saved', { zone: select.value.replaceAll('_', ' ') }), { kind: 'info' });
    } catch (err) {
      select.value = ctx.user.time_zone;
      ctx.toast(err.message);
    }
    showDevice();
  });
  showDevice();
  return h('section', { class: 'time-zone' }, h('h2', {}, t('profile.time_zone')),
    h('p', { class: 'field-row' }, h('label', { for: 'time-zone' }, t('profile.time_zone_label')), ' ', select),
    device, h('p', { class: 'muted' }, t('profile.time_zone_help')));
}

// On one's own page: vacation days, which stop every correspondence clock of one's own while
// taken (docs/correspondence.md).
function vacationSetting(ctx) {
  const status = h('p', { class: 'vacation-status' });
  const button = h('button', { type: 'button', id: 'vacation-toggle' });
  const section = h('section', { class: 'vacation' }, h('h2', {}, t('vacation.title')),
    h('p', { class: 'field-row' }, status, ' ', button), h('p', { class: 'muted' }, t('vacation.help')));
  let away = false;
  const show = (user) => {
    const v = user.vacation || { left_ms: 0, until_ms: null };
    away = v.until_ms !== null && v.until_ms !== undefined;
    status.textContent = away
      ? t('vacation.away', { until: formatDate(v.until_ms), left: formatDays(v.left_ms) })
      : t('vacation.left', { left: formatDays(v.left_ms) });
    button.textContent = t(away ? 'vacation.end' : 'vacation.start');
    button.className = away ? 'primary' : '';
    button.disabled = !away && v.left_ms < 3600000;
    section.classList.toggle('away', away);
  };
  show(ctx.user);
  currentUser().then((user) => { if (user) show(Object.assign(ctx.user, user)); }, () => {});
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      show(Object.assign(ctx.user, await setVacation(!away)));
      ctx.toast(t(away ? 'vacation.started' : 'vacation.ended'), { kind: 'info' });
    } catch (err) {
      ctx.toast(err.message);
      button.disabled = false;
    }
  });
  return section;
}

// On one's own page: the players one blocks, each with its way back.
function blockedList(ctx) {
  const list = h('ul', { class: 'blocked-list' });
  const section = h('section', { class: 'blocked', hidden: true }, h('h2', {}, t('block.list_title')), list);
  const load = () => fetchJson('/api/v1/blocks').then(({ users }) => {
    section.hidden = users.length === 0;
    fill(list, users.map((u) => h('li', {}, h('a', { href: `#/user/${encodeURIComponent(u.name)}` }, u.name), ' ',
      h('button', { class: 'small', onclick: async () => {
        try {
          await fetchJson(`/api/v1/blocks/${encodeURIComponent(u.name)}`, { method: 'DELETE' });
          load();
        } catch (err) {
          ctx.toast(err.message);
        }
      } }, t('block.unblock')))));
  }, () => {});
  load();
  return section;
}

export function mountProfile(root, ctx, name) {
  const head = h('section', { class: 'card profile' }, h('h1', {}, name));
  const games = h('div');
  fill(root, h('div', { class: 'profile-page' }, head, games));
  let stopped = false;
  (async () => {
    try {
      const { user, history } = await fetchJson(`/api/v1/users/${encodeURIComponent(name)}/ratings?limit=200`);
      if (stopped) return;
      const r = user.rating;
      learnRank(user.id, r, user.bot);  // the top bar's rank too, if it is the viewer's page
      fill(head,
        h('h1', {}, user.name, ' ', h('span', { class: 'rank big', title: r.provisional ? t('rank.provisional') : '' }, r.rank),
          user.bot ? h('span', { class: 'tag' }, t('rank.bot')) : ''),
        h('p', { class: 'muted profile-rating' },
          `${t('profile.rating', { rating: Math.round(r.rating), band: Math.round(2 * r.deviation) })} · ${t('profile.rated_games', { n: r.games })}` +
          (r.provisional ? ` · ${t('profile.provisional')}` : '')),
        history.length ? ratingChart(history) : h('p', { class: 'empty' }, t('profile.no_rated')),
        ctx.user && ctx.user.name !== user.name
          ? h('p', { class: 'profile-actions' }, blockButton(ctx, user.name),
            h('button', { class: 'small danger-quiet', onclick: () => openReport(ctx, { user: user.name }) }, t('report.button')))
          : '',
        ctx.user && ctx.user.name === user.name && !user.bot ? [timeZoneSetting(ctx), vacationSetting(ctx), mailSetting(ctx), pushSetting(ctx), blockedList(ctx)] : '');
    } catch (err) {
      if (!stopped) fill(head, h('h1', {}, name), h('p', { class: 'form-error' }, err.message));
    }
  })();
  const unmountList = mountGameList(games, ctx, {
    title: t('profile.games', { name }), url: `/api/v1/users/${encodeURIComponent(name)}/games?limit=25`, empty: t('profile.no_games', { name }),
    heading: 'h2',  // the profile's own title is the page's h1
  });
  return () => {
    stopped = true;
    unmountList();
  };
}
