import { CLOSE } from '../../../protocol/editor.ts';
import { el } from '../chrome/panels-dom.ts';
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';

/**
 * Opens the editor page again as the host did: a form POST of the token fields to this page's address (the page
 * was itself a form POST, so a plain reload would ask to re-send it).
 */
export function reopen(app: App, fragment?: string): void {
  const c = app.config;
  // `fragment` (without '#') rides on the address: the reopened page reads it from location.hash.
  const action = fragment === undefined ? location.href : `${location.href.replace(/#.*$/, '')}#${fragment}`;
  const form = el('form', { method: 'post', action, target: '_self' });
  const field = (name: string, value: string | number | undefined) =>
    value !== undefined && form.append(el('input', { type: 'hidden', name, value: String(value) }));
  field('access_token', c.accessToken);
  field('access_token_ttl', c.accessTokenTtl);
  field('checkfileinfo_override', c.checkFileInfoOverride);
  document.body.append(form);
  form.submit();
}

export interface Overlays {
  /** The document was unloaded for inactivity: "click to continue" opens it again. */
  idle(): void;
  /** The editing socket closed (editor.md close codes). */
  closed(code: number, message?: string): void;
  /** The stored document changed while there were unsaved changes: overwrite or reload. */
  conflict(): void;
  /** The access token expires at `expiresAt` (ms): a dismissible banner. */
  tokenExpiring(expiresAt: number): void;
  /** Removes the token banner (a new token came). */
  hideTokenBanner(): void;
  /** An informational banner (update notice): dismissible. */
  banner(text: string): void;
}

/**
 * The overlays of the host integration (issue 5: idle and closed overlays unless DisableInactiveMessages, the token
 * expiry warning 15 minutes before access_token_ttl, the conflict question). Overlays go in the `overlay` slot as
 * role=alertdialog with the focus on their first button and Tab kept inside; banners go in `popups` and do not block
 * the document. `inactiveMessages()` false (DisableInactiveMessages) suppresses idle and closed overlays.
 */
export function createOverlays(app: App, inactiveMessages: () => boolean): Overlays {
  const { slots } = app;
  let banners: HTMLElement | undefined;
  let tokenBanner: HTMLElement | undefined;

  const show = (kind: string, title: string, text: string, buttons: Array<{ label: string; run: () => void }>, clickAnywhere?: () => void) => {
    const titleId = `ode-overlay-title-${kind}`;
    const textId = `ode-overlay-text-${kind}`;
    const box = el('div', { className: `ode-host-dialog ode-host-${kind}` }, el('h2', { id: titleId }, title), el('p', { id: textId }, text));
    box.setAttribute('role', 'alertdialog');
    box.setAttribute('aria-modal', 'true');
    box.setAttribute('aria-labelledby', titleId);
    box.setAttribute('aria-describedby', textId);
    const row = el('div', { className: 'ode-host-actions' });
    const controls = buttons.map((b) => {
      const button = el('button', { type: 'button', className: 'ode-button ode-host-primary' }, b.label);
      button.addEventListener('click', (e) => (e.stopPropagation(), b.run()));
      return button;
    });
    row.append(...controls);
    box.append(row);
    box.addEventListener('keydown', (e) => {
      if (e.key !== 'Tab' || controls.length === 0) return;
      const i = controls.indexOf(document.activeElement as HTMLButtonElement);
      const next = e.shiftKey ? (i <= 0 ? controls.length - 1 : i - 1) : (i + 1) % controls.length;
      e.preventDefault();
      controls[next].focus();
    });
    const backdrop = el('div', { className: 'ode-host-backdrop' }, box);
    if (clickAnywhere) backdrop.addEventListener('click', clickAnywhere);
    slots.overlay.replaceChildren(backdrop);
    slots.overlay.hidden = false;
    controls[0]?.focus();
  };
  const hide = () => {
    slots.overlay.replaceChildren();
    slots.overlay.hidden = true;
  };
  const bannerArea = () => {
    if (!banners) slots.popups.append((banners = el('div', { className: 'ode-host-banners' })));
    return banners;
  };
  const addBanner = (text: string) => {
    const b = el('div', { className: 'ode-host-banner' }, el('span', {}, text));
    b.setAttribute('role', 'alert');
    const dismiss = el('button', { type: 'button', className: 'ode-button' }, t('host.dismiss'));
    dismiss.addEventListener('click', () => (b.remove(), app.view?.focus()));
    b.append(dismiss);
    bannerArea().append(b);
    return b;
  };

  return {
    idle() {
      if (!inactiveMessages()) return;
      const go = () => reopen(app);
      show('idle', t('host.idle.title'), t('host.idle.text'), [{ label: t('host.idle.continue'), run: go }], go);
    },
    closed(code, message) {
      if (!inactiveMessages()) return;
      const known = ['4409', '4410', '4401', '4403', '4500', '1001'].includes(String(code));
      const text =
        message && code === CLOSE.failed ? `${message} ${t('host.closed.4500')}` : known ? t(`host.closed.${code}`) : t('host.closed.other', { code });
      const buttons = code === CLOSE.ownerClosed || code === CLOSE.forbiddenHost ? [] : [{ label: t('host.reload'), run: () => reopen(app) }];
      show('closed', t('host.closed.title'), text, buttons);
    },
    conflict() {
      const answer = (choice: 'overwrite' | 'reload') => {
        app.session.send({ type: 'resolveConflict', choice });
        hide();
        app.view?.focus();
      };
      show('conflict', t('host.conflict.title'), t('host.conflict.text'), [
        { label: t('host.conflict.overwrite'), run: () => answer('overwrite') },
        { label: t('host.conflict.reload'), run: () => answer('reload') },
      ]);
    },
    tokenExpiring(expiresAt) {
      tokenBanner?.remove();
      tokenBanner = addBanner(t('host.token.text', { time: new Date(expiresAt).toLocaleTimeString() }));
      tokenBanner.classList.add('ode-host-token');
    },
    hideTokenBanner() {
      tokenBanner?.remove();
      tokenBanner = undefined;
    },
    banner(text) {
      addBanner(text);
    },
  };
}
