// Telling a player it is their move when they look elsewhere: the tab's title and icon, and
// (only if they asked for it) a browser notification while the tab is hidden.
import { t } from './i18n.js';

const NOTIFY_KEY = 'tengen-notify';
const icon = () => document.querySelector('link[rel="icon"]');

// The tab shows "● Your move" and an icon with a red dot while `on`.
export function showTurn(on, title) {
  document.title = on ? `● ${t('game.your_move')} · ${title}` : title;
  const link = icon();
  if (link) link.href = on ? 'favicon-turn.svg' : 'favicon.svg';
}

export const notificationsSupported = () => typeof Notification !== 'undefined';
export const notificationsOn = () =>
  notificationsSupported() && localStorage.getItem(NOTIFY_KEY) === 'on' && Notification.permission === 'granted';

// Turns notifications on (asking the browser's permission, in the click that asked) or off; the
// outcome: true when they will be shown.
export async function setNotifications(on) {
  if (!on || !notificationsSupported()) {
    localStorage.setItem(NOTIFY_KEY, 'off');
    return false;
  }
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  localStorage.setItem(NOTIFY_KEY, permission === 'granted' ? 'on' : 'off');
  return permission === 'granted';
}

// A notification, only while the page is hidden and the player wants them; clicking it brings
// the tab forward. One per game at a time (the tag replaces the previous one).
export function notify(title, body, tag) {
  if (!notificationsOn() || document.visibilityState === 'visible') return;
  try {
    const n = new Notification(title, { body, tag, icon: 'favicon-turn.svg' });
    n.onclick = () => { window.focus(); n.close(); };
  } catch {
    // some browsers allow notifications only from a service worker: the title still says it
  }
}
