import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';

/** The notice's texts (en, fr, de). */
registerMessages({
  en: {
    'update.available': 'A newer Ode is available: {available} (this server runs {current}). Tell whoever runs the server.',
    'update.dismiss': 'Dismiss',
    'update.dismissLabel': 'Dismiss the update notice',
  },
  fr: {
    'update.available':
      'Une version plus récente d’Ode est disponible : {available} (ce serveur a la version {current}). Prévenez la personne qui gère le serveur.',
    'update.dismiss': 'Fermer',
    'update.dismissLabel': 'Fermer l’avis de mise à jour',
  },
  de: {
    'update.available': 'Eine neuere Ode-Version ist verfügbar: {available} (dieser Server hat {current}). Sagen Sie es der Person, die den Server betreibt.',
    'update.dismiss': 'Schließen',
    'update.dismissLabel': 'Hinweis auf die neue Version schließen',
  },
});

/**
 * The update notice for administrators (docs/updates.md; editor.md `updateAvailable`): the daemon sends
 * `updateAvailable` only to views whose CheckFileInfo says IsAdminUser, after the document loaded; this shows it as a
 * banner over the document that does not take the focus (role=status, a polite live region: it is news, not an
 * alarm) with a Dismiss button that gives the focus back to the document. One notice per page.
 */
export function installUpdateNotice(app: App): void {
  let notice: HTMLElement | undefined;
  app.session.on('updateAvailable', (m) => {
    if (notice?.isConnected) return;
    const box = document.createElement('div');
    box.className = 'ode-host-banner ode-update-notice';
    box.setAttribute('role', 'status');
    box.setAttribute('aria-live', 'polite');
    const text = document.createElement('span');
    text.textContent = t('update.available', { available: m.available, current: m.current });
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.className = 'ode-button';
    dismiss.textContent = t('update.dismiss');
    dismiss.setAttribute('aria-label', t('update.dismissLabel'));
    dismiss.addEventListener('click', () => (box.remove(), app.view?.focus()));
    box.append(text, dismiss);
    // Shares the banner area of the host overlays (token warning) when it is there, so banners stack.
    let area = app.slots.popups.querySelector<HTMLElement>('.ode-host-banners');
    if (!area) app.slots.popups.append((area = Object.assign(document.createElement('div'), { className: 'ode-host-banners' })));
    area.append(box);
    notice = box;
  });
}
