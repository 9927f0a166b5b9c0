// Web Push on this device (docs/web-client.md, "Push"), on one's own page: turned on here (the
// browser asks for permission, subscribes with the server's public key, and the subscription goes
// to the server with what to be told), off, a test, and the choices. The words of a notification
// are the service worker's (sw.js), in the page's language, which the page tells it.
import { h, fill } from './util.js';
import { fetchJson } from './api.js';
import { t } from './i18n.js';

const CHOICES = ['your_move', 'game_start', 'round_start', 'opponent_back'];

const supported = () => window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

// The server's key (base64url) as the bytes PushManager.subscribe wants.
function keyBytes(key) {
  const text = atob(key.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (key.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export function pushSetting(ctx) {
  const section = h('section', { class: 'push', hidden: true });
  const status = h('p', { class: 'push-status', role: 'status' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const toggle = h('button', { type: 'button' });
  const test = h('button', { type: 'button', class: 'link-quiet' }, t('push.test'));
  const boxes = CHOICES.map((what) => {
    const box = h('input', { type: 'checkbox', id: `push-${what}`, name: what });
    box.addEventListener('change', () => save());
    return { what, box, row: h('label', { class: 'check', for: box.id }, box, ' ', t(`push.choice_${what}`)) };
  });
  const choices = h('fieldset', { class: 'push-choices' }, h('legend', {}, t('push.tell_me')), ...boxes.map((b) => b.row));
  let key = null;
  let subscription = null;

  const show = (device) => {
    const on = !!device?.subscribed;
    status.textContent = on ? t('push.status_on') : t('push.status_off');
    toggle.textContent = on ? t('push.off') : t('push.on');
    toggle.className = on ? '' : 'primary';
    test.hidden = !on;
    choices.disabled = !on;
    for (const { what, box } of boxes) box.checked = on ? device[what] : true;
  };
  const chosen = () => Object.fromEntries(boxes.map(({ what, box }) => [what, box.checked]));
  async function save() {
    problem.textContent = '';
    try {
      show(await fetchJson('/api/v1/me/push/subscribe', { method: 'POST', body: { ...subscription.toJSON(), ...chosen() } }));
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  async function turnOn() {
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      problem.textContent = t('push.denied');
      return;
    }
    const registration = await navigator.serviceWorker.ready;
    try {
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    } catch (err) {
      problem.textContent = t('push.failed', { why: err.message });
      return;
    }
    await save();
  }
  async function turnOff() {
    try {
      await fetchJson('/api/v1/me/push/unsubscribe', { method: 'POST', body: { endpoint: subscription.endpoint } });
      await subscription.unsubscribe();
      subscription = null;
      show(null);
    } catch (err) {
      problem.textContent = err.message;
    }
  }
  toggle.addEventListener('click', () => {
    problem.textContent = '';
    (subscription ? turnOff() : turnOn()).catch((err) => { problem.textContent = err.message; });
  });
  test.addEventListener('click', async () => {
    try {
      await fetchJson('/api/v1/me/push/test', { method: 'POST', body: { endpoint: subscription.endpoint } });
      ctx.toast(t('push.test_sent'), { kind: 'info' });
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  fill(section, h('h2', {}, t('push.title')), status, h('div', { class: 'field-row' }, toggle, ' ', test), problem, choices,
    h('p', { class: 'muted' }, t('push.help')));

  (async () => {
    const server = await fetchJson('/api/v1/push');
    if (!server.enabled) return;  // this server sends none: nothing to show
    if (!supported()) {
      fill(section, h('h2', {}, t('push.title')), h('p', { class: 'muted' }, t('push.unsupported')));
      section.hidden = false;
      return;
    }
    key = server.key;
    const registration = await navigator.serviceWorker.ready;
    subscription = await registration.pushManager.getSubscription();
    if (Notification.permission === 'denied') problem.textContent = t('push.denied');
    show(subscription ? await fetchJson('/api/v1/me/push/device', { method: 'POST', body: { endpoint: subscription.endpoint } }) : null);
    // Shown once its button says what it does (a screen reader, or axe, met an empty button in
    // the moment between).
    section.hidden = false;
  })().catch(() => {});
  return section;
}
