// Ranks next to names: one small batched request for the ratings of the users on the page
// (/api/v1/ratings?ids=...), kept for the session and refreshed after a rated game.
import { h } from './util.js';
import { fetchJson } from './api.js';
import { t } from './i18n.js';

// 'ranks' after new ratings arrived (the lobby learns which players online are bots).
export const ranksEvents = new EventTarget();
const known = new Map();   // user id → {rank, provisional, bot, rating, deviation, games}
const wanted = new Set();
const awaited = new Map(); // user id → {games, tries, delay}: after a rated game, until it counts
let scheduled = false;

function paint(id, elements = document.querySelectorAll(`[data-rank-user="${id}"]`)) {
  const info = known.get(id);
  if (!info) return;
  for (const el of elements) {
    el.textContent = rankText(id);
    el.title = t('rank.title', { rating: Math.round(info.rating), band: Math.round(2 * info.deviation) }) +
      (info.provisional ? ` (${t('rank.provisional')})` : '') + (info.bot ? ` · ${t('rank.a_bot')}` : '');
    el.classList.toggle('bot', info.bot);
  }
}

async function fetchWanted() {
  scheduled = false;
  const ids = [...wanted].slice(0, 100);
  ids.forEach((id) => wanted.delete(id));
  if (!ids.length) return;
  try {
    const { ratings } = await fetchJson(`/api/v1/ratings?ids=${ids.join(',')}`);
    for (const p of ratings) {
      known.set(p.id, { ...p.rating, bot: p.bot });
      paint(p.id);
      followUp(p.id);
    }
    if (ratings.length) ranksEvents.dispatchEvent(new Event('ranks'));
  } catch {
    // names stay without ranks; the next view asks again
  }
  if (wanted.size) schedule();
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(fetchWanted);
}

// A span that shows the user's rank ("5k", "1d?", "12k · bot") as soon as it is known.
export function rankTag(user) {
  const el = h('span', { class: 'rank', 'data-rank-user': String(user.id) });
  if (known.has(user.id)) paint(user.id, [el]);
  else {
    wanted.add(user.id);
    schedule();
  }
  return el;
}

// The rank as words ("5k", "12k? · bot"), or '' until it is known (blind mode's `who`).
export function rankText(id) {
  const info = known.get(id);
  return !info ? '' : info.bot ? `${info.rank} · ${t('rank.bot')}` : info.rank;
}

// Whether the user is known to be a bot (false until their rating has arrived).
export const isBot = (id) => !!known.get(id)?.bot;
// Their rating, once known (else a newcomer's).
export const ratingOf = (id) => known.get(id)?.rating ?? 1500;

// A rating read elsewhere (a player's page): every rank of that player on the page follows it.
export function learnRank(id, rating, bot) {
  known.set(id, { ...rating, bot });
  paint(id);
  followUp(id);
}

// After a rated game: ask again for these players. In a cluster the hub rates a game another
// node played a moment after its end (docs/cluster.md, "Its rating") and then tells the players'
// pages (`ratings_changed`, which asks again); should that word be lost (a hub that changed
// meanwhile), while a player's count of rated games has not grown, they are asked for again,
// 250 ms after the answer, then 500 ms, then 1 s (followUp).
export function refreshRanks(ids) {
  for (const id of ids) {
    const games = known.get(id)?.games;
    if (games !== undefined) awaited.set(id, { games, tries: 3, delay: 250 });
    known.delete(id);
    wanted.add(id);
  }
  schedule();
}

function followUp(id) {
  const a = awaited.get(id);
  if (!a) return;
  if (known.get(id).games > a.games || a.tries === 0) {
    awaited.delete(id);
    return;
  }
  a.tries -= 1;
  setTimeout(() => {
    wanted.add(id);  // the rank shown meanwhile stays
    schedule();
  }, a.delay);
  a.delay *= 2;
}
