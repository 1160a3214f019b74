/**
 * Document signing with the user's own certificate (docs/editing.md, "Signing"): the File menu's `file.sign`
 * (shown only when the daemon says this view can sign: `signatureState.canSign`) and the document's signature
 * state in the status bar. The certificate and key never reach the browser: the daemon signs in the kit.
 */
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';
import type { SignatureStateName } from '../../../protocol/editor.ts';

registerMessages({
  en: {
    'file.sign': 'Sign document',
    'signing.status': 'Signature: {state}',
    'signing.state.unsigned': 'not signed',
    'signing.state.valid': 'signed, valid',
    'signing.state.partial': 'signed, valid (not every part)',
    'signing.state.notValidated': 'signed, certificate not verified',
    'signing.state.notValidatedPartial': 'signed, certificate not verified (not every part)',
    'signing.state.invalid': 'signed, invalid',
    'signing.state.broken': 'signature broken',
    'signing.state.unknown': 'unknown',
    'signing.signing': 'Signing the document…',
    'signing.done': 'The document is signed and saved.',
    'signing.failed': 'The document could not be signed: {message}',
  },
  fr: {
    'file.sign': 'Signer le document',
    'signing.status': 'Signature : {state}',
    'signing.state.unsigned': 'non signé',
    'signing.state.valid': 'signé, valide',
    'signing.state.partial': 'signé, valide (pas toutes les parties)',
    'signing.state.notValidated': 'signé, certificat non vérifié',
    'signing.state.notValidatedPartial': 'signé, certificat non vérifié (pas toutes les parties)',
    'signing.state.invalid': 'signé, non valide',
    'signing.state.broken': 'signature altérée',
    'signing.state.unknown': 'inconnu',
    'signing.signing': 'Signature du document…',
    'signing.done': 'Le document est signé et enregistré.',
    'signing.failed': 'Le document n’a pas pu être signé : {message}',
  },
  de: {
    'file.sign': 'Dokument signieren',
    'signing.status': 'Signatur: {state}',
    'signing.state.unsigned': 'nicht signiert',
    'signing.state.valid': 'signiert, gültig',
    'signing.state.partial': 'signiert, gültig (nicht alle Teile)',
    'signing.state.notValidated': 'signiert, Zertifikat nicht geprüft',
    'signing.state.notValidatedPartial': 'signiert, Zertifikat nicht geprüft (nicht alle Teile)',
    'signing.state.invalid': 'signiert, ungültig',
    'signing.state.broken': 'Signatur beschädigt',
    'signing.state.unknown': 'unbekannt',
    'signing.signing': 'Das Dokument wird signiert…',
    'signing.done': 'Das Dokument ist signiert und gespeichert.',
    'signing.failed': 'Das Dokument konnte nicht signiert werden: {message}',
  },
});

/** Registers `file.sign` and shows the signature state in the status bar. */
export function mountSigning(app: App): void {
  let canSign = false;
  let busy = false;
  let state: SignatureStateName | undefined;
  app.commands.register({
    id: 'file.sign',
    label: 'file.sign',
    icon: '✍',
    enabled: () => canSign && !busy,
    run: () => {
      if (!canSign || busy) return;
      busy = true;
      app.commands.refresh();
      app.notify(t('signing.signing'));
      app.session.send({ type: 'sign' });
    },
  });
  app.commands.setHidden('file.sign', true);

  const badge = document.createElement('span');
  badge.className = 'ode-signature';
  badge.setAttribute('role', 'status');
  badge.hidden = true;
  const render = () => {
    if (!state) return;
    const text = t('signing.status', { state: t(`signing.state.${state}`) });
    badge.textContent = text;
    badge.dataset.state = state;
    badge.title = text;
    // Nothing to say about an unsigned document that this user cannot sign.
    badge.hidden = state === 'unsigned' && !canSign;
    if (badge.isConnected) return;
    // Before the zoom control, which ends the status bar (as in LibreOffice's own status bar).
    const zoom = app.slots.status.querySelector('.ode-status-zoom');
    if (zoom) zoom.before(badge);
    else app.slots.status.append(badge);
  };

  app.session.on('signatureState', (msg) => {
    canSign = msg.canSign;
    state = msg.state;
    app.commands.setHidden('file.sign', !canSign);
    app.commands.refresh();
    render();
  });
  app.session.on('signed', (msg) => {
    busy = false;
    app.commands.refresh();
    if (msg.ok) {
      if (msg.state) state = msg.state;
      render();
      app.notify(t('signing.done'));
    } else app.notify(t('signing.failed', { message: msg.error?.message ?? '' }), 'error');
  });
  app.session.on('error', (msg) => {
    if (msg.code !== 'sign_unavailable' || !busy) return;
    busy = false;
    app.commands.refresh();
    app.notify(t('signing.failed', { message: msg.message }), 'error');
  });
}
