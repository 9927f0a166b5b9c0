// A player's clock as the server last reported it, counted down locally between updates.
import { formatMs, formatDuration, formatDays } from './util.js';
import { t } from './i18n.js';

// What is left `elapsed` ms after the report, for the player whose clock runs. The server's
// word replaces this at the next event; this only keeps the display moving smoothly.
export function runDown(side, time, elapsed) {
  const s = { ...side };
  let rest = elapsed;
  const take = (key) => {
    const used = Math.min(s[key], rest);
    s[key] -= used;
    rest -= used;
  };
  take('main_ms');
  if (rest <= 0) return s;
  if (time.system === 'byoyomi') {
    // Each period used up gives way to the next; the last one stays at zero.
    while (rest > 0) {
      take('period_ms');
      if (rest === 0 || s.periods <= 1) break;
      s.periods -= 1;
      s.period_ms = time.period_ms;
    }
  } else if (time.system === 'canadian') {
    take('period_ms');
  }
  return s;
}

// { main: '12:34', extra: '+ 5×30 s' } in the system's customary notation.

// `timeOff`: why the player's clock stands still now, if it does (a correspondence game's
// 'weekend' or the player's 'vacation').
export function clockText(side, time, timeOff = '') {
  switch (time.system) {
    case 'correspondence':
      return { main: formatDays(side.main_ms), extra: timeOff ? t(`clock.${timeOff}`) : t('clock.per_move_extra', { per: formatDays(time.per_move_ms) }), overtime: false };
    case 'byoyomi':
      if (side.main_ms > 0) return { main: formatMs(side.main_ms), extra: `+ ${side.periods}×${formatDuration(time.period_ms)}`, overtime: false };
      return { main: formatMs(side.period_ms), extra: side.periods === 1 ? t('clock.last_period') : t('clock.periods_left', { n: side.periods }), overtime: true };
    case 'canadian':
      if (side.main_ms > 0) return { main: formatMs(side.main_ms), extra: t('clock.canadian_main', { stones: time.stones, period: formatDuration(time.period_ms) }), overtime: false };
      return { main: formatMs(side.period_ms), extra: t('clock.stones_to_play', { n: side.stones }), overtime: true };
    case 'simple':
      return { main: formatMs(side.main_ms), extra: t('clock.this_move'), overtime: false };
    case 'fischer':
      return { main: formatMs(side.main_ms), extra: t('clock.fischer_extra', { inc: formatDuration(time.increment_ms) }), overtime: false };
    default:
      return { main: formatMs(side.main_ms), extra: '', overtime: false };
  }
}

// Whether this side's time is nearly gone (the clock turns red).
export function isLow(side, time) {
  const left = side.main_ms > 0 ? side.main_ms : side.period_ms;
  if (time.system === 'correspondence') return left < 3600000;  // the last hour
  if (time.system === 'byoyomi' || time.system === 'canadian') return side.main_ms === 0 && left < 10000;
  return left < 10000;
}
