import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

registerMessages({
  en: { 'status.opening': 'Opening the document…', 'status.ready': 'Ready', 'status.readonly': 'Read-only', 'status.unsaved': 'Unsaved changes', 'status.saved': 'All changes saved', 'status.saving': 'Saving…' },
  fr: { 'status.opening': 'Ouverture du document…', 'status.ready': 'Prêt', 'status.readonly': 'Lecture seule', 'status.unsaved': 'Modifications non enregistrées', 'status.saved': 'Toutes les modifications sont enregistrées', 'status.saving': 'Enregistrement…' },
});

/**
 * The panels around the document, first cut: the status line (save state) and the users badges. Sets `app.notify`.
 */
export function mountPanels(app: App): void {
  const { session, slots } = app;
  const users = el('span', { className: 'ode-users', role: 'list', ariaLabel: 'Users editing' });
  const state = el('span', { className: 'ode-state', role: 'status' }, t('status.opening'));
  slots.toolbar.append(users);
  slots.status.append(state);
  const showState = (text: string, error = false) => {
    state.textContent = text;
    state.classList.toggle('ode-error', error);
  };
  app.notify = (text, kind = 'info') => showState(text, kind === 'error');
  session.on('sent', (m) => {
    if (m.type === 'save') showState(t('status.saving'));
  });
  session.on('status', (m) => showState(m.readonly ? t('status.readonly') : t('status.ready')));
  session.on('views', (m) =>
    users.replaceChildren(
      ...m.views.map((v) => {
        const badge = el('span', { className: 'ode-user', role: 'listitem', title: v.userName }, v.userName.slice(0, 1).toUpperCase());
        badge.style.setProperty('--c', v.color);
        return badge;
      }),
    ),
  );
  session.on('modified', (m) => showState(m.modified ? t('status.unsaved') : t('status.saved')));
  session.on('saved', (m) => (m.ok ? showState(t('status.saved')) : showState(`Not saved: ${m.error?.message ?? 'unknown error'}`, true)));
  session.on('storage', (m) => showState(m.message, m.state !== 'ok'));
  session.on('tokenExpiring', () => showState('Your access expires soon: save your work.', true));
  session.on('error', (m) => showState(m.message, true));
  session.on('kitDied', (m) => showState(m.message, true));
  session.on('idle', (m) => showState(m.message, true));
  session.on('closed', (code, reason) => {
    if (code !== 1000) showState(`Disconnected: ${reason || `code ${code}`}. Reload the page to continue.`, true);
  });
}
