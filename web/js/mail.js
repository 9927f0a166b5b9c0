// E-mail (docs/mail.md): the address and what is mailed to it on one's own page, the pages the
// mailed links open (confirming an address, a new password, unsubscribing) and the "forgot your
// password?" form. The server sends nothing itself in these requests: it queues the mail.
import { h, fill } from './util.js';
import { fetchJson, login } from './api.js';
import { t } from './i18n.js';

const mailSettings = async () => (await fetchJson('/api/v1/me/mail')).mail;
const changeMail = async (change) => (await fetchJson('/api/v1/me/mail', { method: 'PATCH', body: change })).mail;

// On one's own page; hidden when the server sends no mail.
export function mailSetting(ctx) {
  const section = h('section', { class: 'mail', hidden: true });
  const address = h('input', { id: 'mail-address', name: 'email', type: 'email', autocomplete: 'email', maxlength: 254 });
  const status = h('p', { class: 'mail-status', role: 'status' });
  const save = h('button', { type: 'submit' }, t('mail.save'));
  const remove = h('button', { type: 'button', class: 'link-quiet' }, t('mail.remove'));
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const boxes = ['your_move', 'game_over', 'digest'].map((what) => {
    const box = h('input', { type: 'checkbox', id: `mail-${what}`, name: what });
    const text = h('span', {}, what === 'your_move' ? '' : t(`mail.${what}`));
    box.addEventListener('change', () => apply({ [what]: box.checked }, t('mail.saved')));
    return { what, box, text, row: h('label', { class: 'check', for: box.id }, box, ' ', text) };
  });
  const choices = h('fieldset', { class: 'mail-choices' }, h('legend', {}, t('mail.send_me')), ...boxes.map((b) => b.row));

  let current = null;
  const show = (mail) => {
    current = mail;
    section.hidden = !mail.enabled;
    address.value = mail.address ?? '';
    status.textContent = !mail.address ? t('mail.none')
      : mail.verified ? t('mail.verified', { address: mail.address }) : t('mail.unverified', { address: mail.address });
    status.className = `mail-status ${mail.address && !mail.verified ? 'pending' : ''}`;
    remove.hidden = !mail.address;
    choices.disabled = !mail.address;
    for (const { what, box } of boxes) box.checked = !!mail[what];
    // How often "your move" may come is the server's setting.
    const minutes = mail.your_move_minutes ?? 60;
    boxes[0].text.textContent = t('mail.your_move', { every: minutes % 60 ? t('time.min', { n: minutes }) : t('time.h', { n: minutes / 60 }) });
  };
  async function apply(change, done) {
    problem.textContent = '';
    try {
      show(await changeMail(change));
      if (done) ctx.toast(done, { kind: 'info' });
    } catch (err) {
      problem.textContent = err.message;
      if (current) show(current);
    }
  }
  const form = h('form', {
    class: 'field-row mail-form', onsubmit: (e) => {
      e.preventDefault();
      const value = address.value.trim();
      if (value === (current?.address ?? '') && current?.verified) return;
      apply({ address: value }, value ? t('mail.sent_link', { address: value }) : t('mail.removed'));
    },
  }, h('label', { for: address.id }, t('mail.address')), ' ', address, ' ', save, ' ', remove);
  remove.addEventListener('click', () => apply({ address: '' }, t('mail.removed')));
  fill(section, h('h2', {}, t('mail.title')), form, status, problem, choices, h('p', { class: 'muted' }, t('mail.help')));
  mailSettings().then(show, () => {});
  return section;
}

// "Forgot your password?" under the login form: a name or an address, and a link is mailed.
export function forgotPassword() {
  const who = h('input', { id: 'reset-who', name: 'user', autocomplete: 'username', required: true, maxlength: 254 });
  const answer = h('p', { role: 'status' });
  const submit = h('button', { type: 'submit' }, t('reset.send'));
  const form = h('form', {
    class: 'card account-form forgot', hidden: true, onsubmit: async (e) => {
      e.preventDefault();
      answer.textContent = '';
      answer.className = '';
      submit.disabled = true;
      try {
        await fetchJson('/api/v1/password-reset', { method: 'POST', body: { user: who.value.trim() } });
        answer.textContent = t('reset.sent');
      } catch (err) {
        answer.textContent = err.message;
        answer.className = 'form-error';
      } finally {
        submit.disabled = false;
      }
    },
  }, h('h2', {}, t('reset.title')), h('p', { class: 'muted' }, t('reset.ask_help')),
  h('div', { class: 'field' }, h('label', { for: who.id }, t('reset.who')), who), answer, submit);
  const open = h('button', { type: 'button', class: 'link-quiet forgot-link', onclick: () => {
    form.hidden = false;
    open.hidden = true;
    who.focus();
  } }, t('reset.forgot'));
  return { open, form };
}

// The page a link opens: a title, and what happened or what to do.
function linkPage(root, title, ...content) {
  const body = h('div', { class: 'mail-page-body' }, ...content);
  fill(root, h('section', { class: 'card mail-page' }, h('h1', {}, title), body));
  return body;
}

// #/mail/verify/TOKEN: confirms the address at once (opening the link is the confirmation).
export function mountVerify(root, ctx, token) {
  const body = linkPage(root, t('mail.verify_title'), h('p', {}, t('mail.verifying')));
  fetchJson('/api/v1/mail/verify', { method: 'POST', body: { token } }).then((r) => {
    fill(body, h('p', {}, t('mail.verify_done', { address: r.mail.address })),
      ctx.user ? h('p', {}, h('a', { href: `#/user/${encodeURIComponent(ctx.user.name)}` }, t('mail.to_settings'))) : '');
  }, (err) => fill(body, h('p', { class: 'form-error' }, err.message)));
  return () => {};
}

// #/reset/TOKEN: a new password, then logged in with it.
export function mountReset(root, ctx, token) {
  const password = h('input', { id: 'reset-password', name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128 });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, t('reset.set'));
  linkPage(root, t('reset.title'), h('form', {
    class: 'account-form', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      submit.disabled = true;
      try {
        const done = await fetchJson('/api/v1/password-reset/confirm', { method: 'POST', body: { token, password: password.value } });
        const { user } = await login(done.user.name, password.value);
        ctx.toast(t('reset.done'), { kind: 'info' });
        ctx.signedIn(user);
      } catch (err) {
        problem.textContent = err.message;
      } finally {
        submit.disabled = false;
      }
    },
  }, h('div', { class: 'field' }, h('label', { for: password.id }, t('reset.new_password')), password), problem, submit));
  password.focus();
  return () => {};
}

// #/unsubscribe/USER/KEY/WHAT: a mail's "stop these mails" link asks before it stops them (a link
// scanner opening it changes nothing; mail readers use the one-click POST instead).
export function mountUnsubscribe(root, ctx, user, key, what) {
  const kind = ['your_move', 'game_over', 'digest', 'all'].includes(what) ? what : 'all';
  const label = t(`unsubscribe.what.${kind}`);
  const result = h('p', { role: 'status' });
  const button = h('button', { type: 'button', class: 'primary' }, t('unsubscribe.confirm'));
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await fetchJson(`/api/v1/mail/unsubscribe?user=${encodeURIComponent(user)}&key=${encodeURIComponent(key)}&what=${kind}`, { method: 'POST', body: {} });
      result.textContent = t('unsubscribe.done', { what: label });
      result.className = '';
      button.hidden = true;
    } catch (err) {
      result.textContent = err.message;
      result.className = 'form-error';
      button.disabled = false;
    }
  });
  linkPage(root, t('unsubscribe.title'), h('p', {}, t('unsubscribe.ask', { what: label })), button, result);
  return () => {};
}
