// Log in and sign up: two small forms; the server's messages say what is wrong.
import { h, fill } from './util.js';
import { login, register } from './api.js';
import { t } from './i18n.js';

export function mountAccount(root, ctx) {
  fill(root, h('div', { class: 'account-forms' },
    form(t('nav.log_in'), 'login', login, 'current-password'),
    form(t('welcome.create'), 'register', register, 'new-password')));

  function form(title, id, call, passwordAutocomplete) {
    const username = h('input', { id: `${id}-username`, name: 'username', autocomplete: 'username', required: true, minlength: 3, maxlength: 20 });
    const password = h('input', { id: `${id}-password`, name: 'password', type: 'password', autocomplete: passwordAutocomplete, required: true, minlength: 8, maxlength: 128 });
    const problem = h('p', { class: 'form-error', role: 'alert' });
    const submit = h('button', { type: 'submit', class: 'primary' }, title);
    return h('form', {
      class: `card account-form ${id}`, onsubmit: async (e) => {
        e.preventDefault();
        problem.textContent = '';
        submit.disabled = true;
        try {
          const { user } = await call(username.value.trim(), password.value);
          ctx.signedIn(user);
        } catch (err) {
          problem.textContent = err.message;
        } finally {
          submit.disabled = false;
        }
      },
    },
    h('h2', {}, title),
    h('div', { class: 'field' }, h('label', { for: username.id }, t('account.name')), username),
    h('div', { class: 'field' }, h('label', { for: password.id }, t('account.password')), password),
    id === 'register' ? h('p', { class: 'muted' }, t('account.rules')) : '',
    problem, submit);
  }
  return () => {};
}
