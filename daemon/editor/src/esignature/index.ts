/**
 * Insert > Electronic signature (`insert.eSignature`; docs/esignature.md): for a PDF whose CheckFileInfo has the
 * three ServerPrivateInfo.ESignature* values (the daemon says so in `services`; the values stay in the daemon).
 * The daemon sends the PDF to the provider; the user signs in the provider's page, opened in a window here; the
 * daemon stores the signed PDF and every view reloads it.
 */
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';

registerMessages({
  en: {
    'insert.eSignature': 'Electronic signature…',
    'esign.starting': 'Sending the document to the signing service…',
    'esign.signing': 'Complete the signature in the signing window.',
    'esign.open': 'Open the signing page',
    'esign.cancel': 'Cancel signing',
    'esign.signed': 'The document is signed and saved.',
    'esign.failed': 'Electronic signature failed: {message}',
    'esign.cancelled': 'Electronic signature cancelled. The document is unchanged.',
    'esign.region': 'Electronic signature',
  },
  fr: {
    'insert.eSignature': 'Signature électronique…',
    'esign.starting': 'Envoi du document au service de signature…',
    'esign.signing': 'Terminez la signature dans la fenêtre de signature.',
    'esign.open': 'Ouvrir la page de signature',
    'esign.cancel': 'Annuler la signature',
    'esign.signed': 'Le document est signé et enregistré.',
    'esign.failed': 'La signature électronique a échoué : {message}',
    'esign.cancelled': 'Signature électronique annulée. Le document est inchangé.',
    'esign.region': 'Signature électronique',
  },
  de: {
    'insert.eSignature': 'Elektronische Signatur…',
    'esign.starting': 'Dokument wird an den Signaturdienst gesendet…',
    'esign.signing': 'Schließen Sie die Signatur im Signaturfenster ab.',
    'esign.open': 'Signaturseite öffnen',
    'esign.cancel': 'Signatur abbrechen',
    'esign.signed': 'Das Dokument ist signiert und gespeichert.',
    'esign.failed': 'Elektronische Signatur fehlgeschlagen: {message}',
    'esign.cancelled': 'Elektronische Signatur abgebrochen. Das Dokument ist unverändert.',
    'esign.region': 'Elektronische Signatur',
  },
});

/** Mounts Insert > Electronic signature for PDF documents (shown only when the daemon's `services` says it is on). */
export function mountESignature(app: App): void {
  const { session, commands, slots } = app;
  let busy = false;
  let popup: Window | null = null;

  const banner = document.createElement('div');
  banner.className = 'ode-esign-banner';
  banner.setAttribute('role', 'region');
  banner.setAttribute('aria-label', t('esign.region'));
  banner.hidden = true;
  const text = document.createElement('p');
  text.setAttribute('role', 'status');
  const link = document.createElement('a');
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  link.textContent = t('esign.open');
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = t('esign.cancel');
  cancel.addEventListener('click', () => session.send({ type: 'eSignatureCancel' }));
  banner.append(text, link, cancel);
  slots.popups.append(banner);

  const end = (message: string, kind: 'info' | 'error') => {
    busy = false;
    banner.hidden = true;
    if (popup && !popup.closed) popup.close();
    popup = null;
    app.notify(message, kind);
    commands.refresh();
  };

  const start = () => {
    busy = true;
    commands.refresh();
    // Opened now, inside the click (popup blockers), and pointed at the provider when the daemon has its URL.
    popup = window.open('', 'ode-esignature', 'popup,width=640,height=760');
    if (popup) popup.opener = null;
    text.textContent = t('esign.starting');
    link.hidden = true;
    banner.hidden = false;
    session.send({ type: 'eSignatureStart' });
  };

  session.on('services', (m) => {
    if (!m.eSignature) return;
    commands.register({ id: 'insert.eSignature', label: 'insert.eSignature', icon: '✍', enabled: () => session.live && !busy, run: start });
  });

  session.on('eSignature', (m) => {
    if (m.state === 'signing' && m.url) {
      text.textContent = t('esign.signing');
      link.href = m.url;
      link.hidden = false;
      banner.hidden = false;
      if (popup && !popup.closed) popup.location.href = m.url;
      cancel.focus();
    } else if (m.state === 'signed') end(t('esign.signed'), 'info');
    else if (m.state === 'failed') end(t('esign.failed', { message: m.message ?? m.code ?? '' }), 'error');
    else if (m.state === 'cancelled') end(t('esign.cancelled'), 'info');
  });
}
