import type { RecoveryChoice, RecoveryOfferCopy } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';

/** The banner's texts (en, fr, de). */
registerMessages({
  en: {
    'recovery.text': 'Ode kept changes to this document from {time} that could not be stored ({why}).',
    'recovery.why.conflict': 'the stored file was changed meanwhile',
    'recovery.why.token_expired': 'the access had expired',
    'recovery.why.failed': 'the storage refused them',
    'recovery.why.host_unavailable': 'the storage was unavailable',
    'recovery.restore': 'Restore as the current version',
    'recovery.saveAs': 'Save as a copy',
    'recovery.later': 'Later',
    'recovery.restored': 'The recovered changes are now the current version.',
    'recovery.savedAs': 'The recovered changes were saved as {name}.',
    'recovery.failed': 'The recovered changes could not be stored: {message}',
  },
  fr: {
    'recovery.text': 'Ode a gardé des modifications de ce document du {time} qui n’ont pas pu être enregistrées ({why}).',
    'recovery.why.conflict': 'le fichier stocké a été modifié entre-temps',
    'recovery.why.token_expired': 'l’accès avait expiré',
    'recovery.why.failed': 'le stockage les a refusées',
    'recovery.why.host_unavailable': 'le stockage était indisponible',
    'recovery.restore': 'Restaurer comme version actuelle',
    'recovery.saveAs': 'Enregistrer une copie',
    'recovery.later': 'Plus tard',
    'recovery.restored': 'Les modifications récupérées sont maintenant la version actuelle.',
    'recovery.savedAs': 'Les modifications récupérées ont été enregistrées sous {name}.',
    'recovery.failed': 'Les modifications récupérées n’ont pas pu être enregistrées : {message}',
  },
  de: {
    'recovery.text': 'Ode hat Änderungen an diesem Dokument vom {time} aufbewahrt, die nicht gespeichert werden konnten ({why}).',
    'recovery.why.conflict': 'die gespeicherte Datei wurde inzwischen geändert',
    'recovery.why.token_expired': 'der Zugriff war abgelaufen',
    'recovery.why.failed': 'der Speicher hat sie abgelehnt',
    'recovery.why.host_unavailable': 'der Speicher war nicht erreichbar',
    'recovery.restore': 'Als aktuelle Version wiederherstellen',
    'recovery.saveAs': 'Als Kopie speichern',
    'recovery.later': 'Später',
    'recovery.restored': 'Die wiederhergestellten Änderungen sind jetzt die aktuelle Version.',
    'recovery.savedAs': 'Die wiederhergestellten Änderungen wurden als {name} gespeichert.',
    'recovery.failed': 'Die wiederhergestellten Änderungen konnten nicht gespeichert werden: {message}',
  },
});

/**
 * The recovery banner (issue 17, item 8; editor.md `recoveryOffer`): edits of this document a previous run of the
 * daemon kept but could not store are offered as a banner over the document, one per copy, with "Restore as the
 * current version" (the copy becomes the stored version and the document reloads), "Save as a copy" (a new file
 * beside the document; hidden when the host forbids Save As) and "Later" (hides it until the next offer). The
 * banner is role=alert (the user should decide) but does not take the focus; the answer (`recoveryResult`) is shown
 * with the editor's notification. The daemon sends the offer again whenever the list changes (empty: all stored).
 */
export function installRecoveryBanner(app: App): void {
  const shown = new Map<string, HTMLElement>();
  const area = () => {
    let a = app.slots.popups.querySelector<HTMLElement>('.ode-host-banners');
    if (!a) app.slots.popups.append((a = Object.assign(document.createElement('div'), { className: 'ode-host-banners' })));
    return a;
  };
  const button = (label: string, run: () => void) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'ode-button';
    b.textContent = label;
    b.addEventListener('click', run);
    return b;
  };
  const banner = (copy: RecoveryOfferCopy, canSaveAs: boolean) => {
    const box = document.createElement('div');
    box.className = 'ode-host-banner ode-recovery-banner';
    box.dataset.copy = copy.id;
    box.setAttribute('role', 'alert');
    const text = document.createElement('span');
    text.textContent = t('recovery.text', { time: new Date(copy.createdAt).toLocaleString(), why: t(`recovery.why.${copy.reason}`) });
    const choose = (choice: RecoveryChoice) => () => {
      for (const b of box.querySelectorAll('button')) b.disabled = true;
      app.session.send({ type: 'recoveryChoice', id: copy.id, choice });
    };
    box.append(text, button(t('recovery.restore'), choose('restore')));
    if (canSaveAs) box.append(button(t('recovery.saveAs'), choose('saveAs')));
    box.append(button(t('recovery.later'), () => (box.remove(), shown.delete(copy.id), app.view?.focus())));
    return box;
  };

  app.session.on('recoveryOffer', (m) => {
    const ids = new Set(m.copies.map((c) => c.id));
    for (const [id, box] of shown) if (!ids.has(id)) box.remove(), shown.delete(id);
    for (const c of m.copies) {
      if (shown.has(c.id)) continue;
      const box = banner(c, m.canSaveAs);
      shown.set(c.id, box);
      area().append(box);
    }
  });
  app.session.on('recoveryResult', (m) => {
    if (m.ok) {
      shown.get(m.id)?.remove();
      shown.delete(m.id);
      app.notify(m.choice === 'restore' ? t('recovery.restored') : t('recovery.savedAs', { name: m.name ?? '' }), 'info');
      return;
    }
    for (const b of shown.get(m.id)?.querySelectorAll('button') ?? []) b.disabled = false;
    app.notify(t('recovery.failed', { message: m.error?.message ?? m.error?.code ?? '' }), 'error');
  });
}
