// The top of the lobby, for someone who just arrived: what this is (for guests), quick match
// (a board size and a speed; the server pairs players of similar rank) and the bots online,
// each one click from a game against them.
import { h, fill, formatMs, keepFocus } from './util.js';
import { t, tn } from './i18n.js';
import { rankTag, isBot, ratingOf, ranksEvents } from './ranks.js';
import { Command, Message } from './wire.js';

const SIZES = [9, 13, 19];
const SPEEDS = ['blitz', 'live'];
// What quick match plays (server/src/lobby/quick_match.cpp; docs/games.md).
const QUICK_CLOCKS = {
  blitz: { 9: '1 min + 5×10 s', 13: '2 min + 5×10 s', 19: '5 min + 5×10 s' },
  live: { 9: '5 min + 5×20 s', 13: '10 min + 5×30 s', 19: '20 min + 5×30 s' },
};
// A game against a bot: the player takes Black (and the first move), byo-yomi by size, rated.
const BOT_MAIN_MS = { 9: 5 * 60000, 13: 10 * 60000, 19: 20 * 60000 };
export const botSettings = (size) => ({
  width: size, height: size, ruleset: 'japanese', color: 'black', rated: true,
  time: { system: 'byoyomi', main_ms: BOT_MAIN_MS[size], periods: 5, period_ms: 30000 },
});

const choice = (label, pressed, onclick, attrs = {}) =>
  h('button', { type: 'button', class: 'choice', 'aria-pressed': String(pressed), onclick, ...attrs }, label);

export function playNow(ctx) {
  const el = h('div', { class: 'play-now' });
  // 9×9 until the player chooses (what a newcomer wants; the choice is remembered).
  let size = Number(localStorage.getItem('tengen-quick-size')) || 9;
  let speed = localStorage.getItem('tengen-quick-speed') || 'live';
  let botProblem = '';
  let quickProblem = '';
  let asked = null;  // {challenge, bot}: the challenge sent to a bot, until the game starts

  function welcome() {
    return h('section', { class: 'card welcome' },
      h('h2', {}, t('welcome.title')),
      h('p', {}, t('welcome.what')),
      h('p', {}, ...tn('welcome.join', { link: h('a', { class: 'button primary', href: '#/register' }, t('welcome.create')) })),
      h('p', {}, ...tn('welcome.learn', { link: h('a', { class: 'learn-link', href: '#/learn' }, t('welcome.learn_link')) })),
      h('p', { class: 'muted' }, t('welcome.watch')));
  }

  function quickMatch() {
    const seeking = ctx.lobby.seeking;
    const body = [h('h2', {}, t('quick.title'))];
    if (seeking) {
      const waited = Date.now() - seeking.since;
      body.push(h('p', { class: 'seeking', role: 'status' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        `${t('quick.looking', { size: `${seeking.seek.size}×${seeking.seek.size}`, speed: t(`quick.speed_${seeking.seek.speed}`).toLocaleLowerCase() })} `,
        h('span', { class: 'muted seek-time' }, formatMs(waited).replace(/\.\d$/, ''))),
      h('p', { class: 'muted' }, seeking.waiting > 1 ? t('quick.others_waiting', { n: seeking.waiting - 1 }) : t('quick.nobody_waiting')),
      h('button', { type: 'button', onclick: cancelSeek, dataset: { key: 'seek' } }, t('common.cancel')));
    } else {
      body.push(h('p', { class: 'muted' }, t('quick.what')),
        h('div', { class: 'choices', role: 'group', 'aria-label': t('quick.board_size') },
          ...SIZES.map((s) => choice(`${s}×${s}`, s === size, () => { size = s; localStorage.setItem('tengen-quick-size', s); render(); }, { dataset: { key: `size-${s}` } }))),
        h('div', { class: 'choices', role: 'group', 'aria-label': t('quick.speed') },
          ...SPEEDS.map((k) => choice(t(`quick.speed_${k}`), k === speed, () => { speed = k; localStorage.setItem('tengen-quick-speed', k); render(); }, { dataset: { key: `speed-${k}` } }))),
        h('p', { class: 'muted' }, t('quick.clock', { clock: QUICK_CLOCKS[speed][size] })),
        h('button', { type: 'button', class: 'primary', onclick: seek, dataset: { key: 'seek' } }, t('quick.find')));
    }
    if (quickProblem) body.push(h('p', { class: 'form-error', role: 'alert' }, quickProblem));
    return h('section', { class: 'card quick-match' }, ...body);
  }

  function bots() {
    // Weakest first (a house bot's rating starts from its level: docs/bots.md), then by name.
    const online = [...ctx.lobby.online.values()].filter((u) => isBot(u.id))
      .sort((a, b) => ratingOf(a.id) - ratingOf(b.id) || a.name.localeCompare(b.name));
    const body = [h('h2', {}, t('bots.title'))];
    if (!online.length) {
      body.push(h('p', { class: 'empty' }, t('bots.none')));
    } else {
      body.push(h('p', { class: 'muted' }, t('bots.what')),
        h('ul', { class: 'bots' }, ...online.map((u) => h('li', {},
          h('span', { class: 'bot-name' }, h('a', { href: `#/user/${encodeURIComponent(u.name)}`, dataset: { key: `bot-${u.name}` } }, u.name), rankTag(u)),
          h('span', { class: 'choices' }, ...SIZES.map((s) => h('button', {
            type: 'button', class: 'small', disabled: !!asked, 'aria-label': t('bots.play_on', { name: u.name, size: `${s}×${s}` }), onclick: () => challengeBot(u, s),
            dataset: { key: `bot-${u.name}-${s}` },
          }, `${s}×${s}`)))))));
    }
    if (asked) body.push(h('p', { class: 'muted', role: 'status' }, t('bots.asking', { name: asked.bot })));
    if (botProblem) body.push(h('p', { class: 'form-error', role: 'alert' }, botProblem));
    return h('section', { class: 'card play-bot' }, ...body);
  }

  // Redrawn on every lobby change: the keyboard's place is kept (keepFocus).
  function render() {
    keepFocus(el, () => {
      if (!ctx.user) fill(el, welcome());
      else fill(el, quickMatch(), bots());
    });
  }

  async function seek() {
    quickProblem = '';
    try {
      await ctx.conn.command(Command.seek, { size, speed });
    } catch (err) {
      quickProblem = err.message;
      render();
    }
  }

  async function cancelSeek() {
    try {
      await ctx.conn.command(Command.cancel_seek, {});
    } catch (err) {
      quickProblem = err.message;
      render();
    }
  }

  async function challengeBot(bot, s) {
    botProblem = '';
    asked = { challenge: null, bot: bot.name };
    render();
    try {
      const ack = await ctx.conn.command(Command.create_challenge, { settings: botSettings(s), opponent: bot.name });
      if (asked) asked.challenge = ack.challenge;
    } catch (err) {
      asked = null;
      botProblem = err.message;
      render();
    }
  }

  // A declined challenge to a bot: the bot said no (busy, usually); the game start navigates away.
  function onMessage(e) {
    const m = e.detail;
    if (m.type === Message.challenge_closed && asked && m.challenge === asked.challenge) {
      // Its reason, if it gave one, is in the page's toast (app.js); here, what to do about it.
      if (m.reason === 'declined') botProblem = m.why ? t('bots.declined_try') : t('bots.declined', { name: asked.bot });
      asked = null;
      render();
    }
  }
  const onLobby = () => render();
  const tick = setInterval(() => { if (ctx.lobby.seeking) el.querySelector('.seek-time')?.replaceChildren(formatMs(Date.now() - ctx.lobby.seeking.since).replace(/\.\d$/, '')); }, 1000);
  ctx.conn.addEventListener('message', onMessage);
  ctx.events.addEventListener('lobby', onLobby);
  ranksEvents.addEventListener('ranks', onLobby);
  render();
  return {
    el,
    destroy() {
      clearInterval(tick);
      ctx.conn.removeEventListener('message', onMessage);
      ctx.events.removeEventListener('lobby', onLobby);
      ranksEvents.removeEventListener('ranks', onLobby);
    },
  };
}
