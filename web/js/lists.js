// Lists of games from the archive: the finished games, and one player's history.
import { h, fill, sizeOf, describeResult, formatDate, rulesetName, describeTime } from './util.js';
import { t } from './i18n.js';
import { fetchJson } from './api.js';
import { rankTag } from './ranks.js';

const profile = (name) => h('a', { href: `#/user/${encodeURIComponent(name)}` }, name);

// A colour's player with their rank, or a pair Go game's team (docs/events.md): every name.
function side(g, color) {
  const team = g.settings.teams?.[color];
  if (!team) return [profile(g[color].name), rankTag(g[color])];
  return team.flatMap((m, i) => (i ? [' & ', profile(m.name)] : [profile(m.name)]));
}

// Left out on a phone, so that the result stays in sight (it was scrolled off to the right).
const WIDE = new Set(['board', 'moves', 'started']);

// `heading`: the title's level (a page's own list: h1; a list inside a profile: h2).
export function mountGameList(root, ctx, { title, url, empty, heading = 'h1' }) {
  const rows = h('tbody');
  const more = h('button', { hidden: true, onclick: () => load(next) }, t('games.older'));
  const problem = h('p', { class: 'form-error', role: 'alert' });
  let next = null;
  let stopped = false;
  fill(root, h('section', { class: 'card game-list' }, h(heading, {}, title),
    h('div', { class: 'table-wrap' }, h('table', {},
      h('thead', {}, h('tr', {}, ...['game', 'black', 'white', 'board', 'result', 'moves', 'started', ''].map((k) => h('th', { scope: 'col', class: WIDE.has(k) ? 'wide' : null }, k ? t(`games.col_${k}`) : '')))),
      rows)),
    problem, more));

  async function load(before) {
    problem.textContent = '';
    try {
      const sep = url.includes('?') ? '&' : '?';
      const page = await fetchJson(before ? `${url}${sep}before=${before}` : url);
      if (stopped) return;
      if (!before && !page.games.length) rows.append(h('tr', {}, h('td', { colspan: 8, class: 'empty' }, empty)));
      for (const g of page.games) {
        rows.append(h('tr', { dataset: { game: g.id } },
          h('td', {}, h('a', { href: `#/game/${g.id}` }, `#${g.id}`)),
          h('td', {}, ...side(g, 'black')),
          h('td', {}, ...side(g, 'white')),
          h('td', { class: 'wide', title: describeTime(g.settings.time) }, `${sizeOf(g.settings)} ${rulesetName(g.settings.ruleset)}`),
          h('td', { class: 'col-result', title: describeResult(g.result) }, g.result ?? (g.ended_at_ms ? '' : t('games.playing'))),
          h('td', { class: 'wide' }, g.ended_at_ms ? String(g.move_count) : ''),  // counted when the game ends
          h('td', { class: 'wide' }, formatDate(g.created_at_ms)),
          h('td', {}, h('a', { href: `/api/v1/games/${g.id}.sgf`, download: `tengen-${g.id}.sgf` }, 'SGF'))));
      }
      next = page.next_before;
      more.hidden = next === null;
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  load(null);
  return () => { stopped = true; };
}
