// Log in and sign up: two small forms; the server's messages say what is wrong. An invite code
// (docs/moderation.md) comes from a link (#/join/CODE) or is typed in; a suspended or closed
// account is told why, and until when.
import { h, fill } from './util.js';
import { login, register, setTimeZone, browserTimeZone } from './api.js';
import { t, formatDateTime } from './i18n.js';
import { forgotPassword } from './mail.js';

// A refusal in the player's words: a suspension or ban with the administrators' reason.
function refusal(err) {
  const reason = err.detail?.reason ? t('account.reason', { reason: err.detail.reason }) : '';
  if (err.code === 'suspended') return t('account.suspended', { when: formatDateTime(err.detail.until_ms) }) + reason;
  if (err.code === 'banned') return t('account.banned') + reason;
  return err.message;
}

// `registerFirst`: come by "Create an account" (#/register) or an invite: that form first.
export function mountAccount(root, ctx, invite = null, { registerFirst = !!invite } = {}) {
  const forgot = forgotPassword();
  // The reset form, once asked for, opens beside (on a phone: under) the login form.
  // The page's heading, for a screen reader's list of headings (the forms' titles are seen).
  fill(root, h('h1', { class: 'sr-only' }, t('account.heading')), h('div', { class: 'account-forms' },
    registerFirst ? '' : [form(t('nav.log_in'), 'login', 'current-password'), forgot.form],
    form(t('welcome.create'), 'register', 'new-password'),
    registerFirst ? [form(t('nav.log_in'), 'login', 'current-password'), forgot.form] : ''));

  function form(title, id, passwordAutocomplete) {
    const username = h('input', { id: `${id}-username`, name: 'username', autocomplete: 'username', required: true, minlength: 3, maxlength: 20 });
    const password = h('input', { id: `${id}-password`, name: 'password', type: 'password', autocomplete: passwordAutocomplete, required: true, minlength: 8, maxlength: 128 });
    const code = h('input', { id: 'register-invite', name: 'invite', autocomplete: 'off', maxlength: 64, value: invite ?? '' });
    const codeField = h('div', { class: 'field', hidden: !invite }, h('label', { for: code.id }, t('account.invite')), code);
    const askCode = h('button', { type: 'button', class: 'link-quiet', hidden: !!invite,
      onclick: () => { codeField.hidden = false; askCode.hidden = true; code.focus(); } }, t('account.have_invite'));
    const problem = h('p', { class: 'form-error', role: 'alert' });
    const submit = h('button', { type: 'submit', class: 'primary' }, title);
    return h('form', {
      class: `card account-form ${id}`, onsubmit: async (e) => {
        e.preventDefault();
        problem.textContent = '';
        submit.disabled = true;
        try {
          const { user } = id === 'login'
            ? await login(username.value.trim(), password.value)
            : await register(username.value.trim(), password.value, code.value.trim());
          // A new account's weekends (correspondence games) are the browser's; changed on one's page.
          if (id === 'register' && browserTimeZone() && browserTimeZone() !== user.time_zone) {
            try {
              Object.assign(user, await setTimeZone(browserTimeZone()));
            } catch { /* the server does not know it: UTC stays, and the page offers the list */ }
          }
          ctx.signedIn(user);
        } catch (err) {
          problem.textContent = refusal(err);
          if (err.code === 'invite_required' || err.code === 'bad_invite') {
            codeField.hidden = false;
            askCode.hidden = true;
          }
        } finally {
          submit.disabled = false;
        }
      },
    },
    h('h2', {}, title),
    invite && id === 'register' ? h('p', {}, t('account.invited')) : '',
    h('div', { class: 'field' }, h('label', { for: username.id }, t('account.name')), username),
    h('div', { class: 'field' }, h('label', { for: password.id }, t('account.password')), password),
    id === 'register' ? [codeField, h('p', { class: 'muted' }, t('account.rules'), ' ', askCode)] : '',
    problem, submit, id === 'login' ? h('p', { class: 'forgot-row' }, forgot.open) : '');
  }
  return () => {};
}
