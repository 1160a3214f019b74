import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

registerMessages({
  en: { 'file.save': 'Save', 'status.opening': 'Opening the document…', 'status.ready': 'Ready', 'status.readonly': 'Read-only', 'status.unsaved': 'Unsaved changes', 'status.saved': 'All changes saved', 'status.saving': 'Saving…' },
  fr: { 'file.save': 'Enregistrer', 'status.opening': 'Ouverture du document…', 'status.ready': 'Prêt', 'status.readonly': 'Lecture seule', 'status.unsaved': 'Modifications non enregistrées', 'status.saved': 'Toutes les modifications sont enregistrées', 'status.saving': 'Enregistrement…' },
});

/**
 * The chrome around the document (issue 5 "Chrome"), first cut: title, Save, parts, zoom, users, status bar.
 * Registers `file.save`; sets `app.notify`.
 */
export function mountChrome(app: App): void {
  const { session, slots, commands } = app;
  const title = el('span', { className: 'ode-title' }, t('status.opening'));
  const saveButton = el('button', { type: 'button', className: 'ode-button', title: `${t('file.save')} (Ctrl+S)`, disabled: true }, t('file.save'));
  const zoom = el('select', { className: 'ode-select', title: 'Zoom' }, ...[50, 75, 100, 125, 150, 200].map((z) => el('option', { value: String(z / 100), selected: z === 100 }, `${z}%`)));
  const parts = el('select', { className: 'ode-select', title: 'Sheet, slide or page', hidden: true });
  const users = el('span', { className: 'ode-users', role: 'list', ariaLabel: 'Users editing' });
  const state = el('span', { className: 'ode-state', role: 'status' }, t('status.opening'));
  slots.toolbar.setAttribute('role', 'toolbar');
  slots.toolbar.append(title, saveButton, parts, zoom, users);
  slots.status.append(state);

  const showState = (text: string, error = false) => {
    state.textContent = text;
    state.classList.toggle('ode-error', error);
  };
  app.notify = (text, kind = 'info') => showState(text, kind === 'error');

  commands.register({
    id: 'file.save',
    label: 'file.save',
    shortcut: 'Ctrl+S',
    enabled: () => session.live && !session.state.status?.readonly,
    run: () => {
      showState(t('status.saving'));
      session.send({ type: 'save' });
    },
  });
  saveButton.addEventListener('click', () => commands.run('file.save'));
  zoom.addEventListener('change', () => app.view.setZoom(Number(zoom.value)));
  parts.addEventListener('change', () => session.send({ type: 'setPart', part: Number(parts.value) }));

  session.on('status', (m) => {
    title.textContent = String(m.fileInfo.BaseFileName ?? 'Document');
    document.title = `${title.textContent} — Ode`;
    saveButton.disabled = m.readonly;
    saveButton.hidden = commands.isHidden('file.save');
    parts.hidden = m.parts <= 1 || m.docType === 'text';
    parts.replaceChildren(...m.partNames.map((n, i) => el('option', { value: String(i), selected: i === m.part }, n || `Part ${i + 1}`)));
    showState(m.readonly ? t('status.readonly') : t('status.ready'));
  });
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
    saveButton.disabled = true;
  });
}
