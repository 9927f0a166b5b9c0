// Reporting a player to the administrators (docs/moderation.md): from their profile, or from a
// line they wrote in a game's chat (the server keeps the line as it was said). A modal dialog.
import { h, field, selectInput } from './util.js';
import { fetchJson } from './api.js';
import { t } from './i18n.js';

export const REPORT_CATEGORIES = ['harassment', 'cheating', 'stalling', 'sandbagging', 'spam', 'offensive_name', 'other'];

// Opens the dialog for reporting `user` (a name); `game` and `chatSeq` say where, if anywhere.
// `group` and `groupLine`: a line of a group's chat (docs/groups.md).
export function openReport(ctx, { user, game = null, chatSeq = null, chatText = null, group = null, groupLine = null }) {
  const category = selectInput('report-category', 'category',
    Object.fromEntries(REPORT_CATEGORIES.map((c) => [c, t(`report.category_${c}`)])), chatSeq !== null || groupLine !== null ? 'harassment' : 'cheating');
  const text = h('textarea', { id: 'report-text', name: 'text', maxlength: 1000, rows: 4 });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const send = h('button', { type: 'submit', class: 'primary' }, t('report.send'));
  const dialog = h('dialog', { class: 'report-dialog', 'aria-labelledby': 'report-title' },
    h('form', { onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      send.disabled = true;
      try {
        const body = { user, category: category.value, text: text.value.trim() };
        if (game !== null) body.game = game;
        if (chatSeq !== null) body.chat_seq = chatSeq;
        if (group !== null) body.group = group;
        if (groupLine !== null) body.group_line = groupLine;
        await fetchJson('/api/v1/reports', { method: 'POST', body });
        dialog.close();
        ctx.toast(t('report.sent', { name: user }), { kind: 'info' });
      } catch (err) {
        problem.textContent = err.message;
      } finally {
        send.disabled = false;
      }
    } },
    h('h2', { id: 'report-title' }, t('report.title', { name: user })),
    chatText !== null ? h('blockquote', { class: 'chat-quote' }, chatText) : '',
    h('p', { class: 'muted' }, t('report.help')),
    field(t('report.category'), category),
    field(t('report.text'), text),
    problem,
    h('div', { class: 'buttons' }, send, h('button', { type: 'button', onclick: () => dialog.close() }, t('report.cancel')))));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  category.focus();
  return dialog;
}
