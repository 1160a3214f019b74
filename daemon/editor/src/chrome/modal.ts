/**
 * Small accessible modal dialogs and popovers for every module of the editor (WAI-ARIA dialog pattern):
 * role=dialog, aria-modal, labelled by its title, focus kept inside (Tab cycles), Escape cancels, the rest of the
 * page inert while it is open, focus given back where it was. Other modules may import `openModal`, `promptText`,
 * `confirmModal` and `popover`.
 */
import { registerMessages, t } from '../core/i18n.ts';
import { el, wrapTab } from './dom.ts';

registerMessages({
  en: { 'modal.ok': 'OK', 'modal.cancel': 'Cancel', 'modal.close': 'Close' },
  fr: { 'modal.ok': 'OK', 'modal.cancel': 'Annuler', 'modal.close': 'Fermer' },
  de: { 'modal.ok': 'OK', 'modal.cancel': 'Abbrechen', 'modal.close': 'Schließen' },
});

/** One button of a modal: its result value and label; the primary one is the default (Enter in a field). */
export interface ModalButton {
  value: string;
  label: string;
  primary?: boolean;
}

export interface ModalOptions {
  /** The dialog's title (its accessible name). */
  title: string;
  /** The dialog's content. */
  body: Node | Node[];
  /** Default: OK (primary) and Cancel. A button with value `cancel` resolves `undefined`. */
  buttons?: ModalButton[];
  /** What gets the focus at open (default: the first field or button of the body, else the primary button). */
  initialFocus?: HTMLElement;
  /** Called with the chosen button's value before closing: false keeps the dialog open (e.g. an empty name). */
  validate?(value: string): boolean;
  /** Extra class of the dialog box (for its size). */
  className?: string;
  /** Gets the dialog's close function at open: controls of the body may close it with a value of their own. */
  bind?(close: (value: string | undefined) => void): void;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
let openCount = 0;

function setPageInert(inert: boolean): void {
  const root = document.getElementById('ode-app');
  if (root) root.inert = inert;
}

/**
 * Shows a modal dialog. Resolves with the value of the button that closed it, or `undefined` when it was
 * cancelled (Escape, Cancel, a click on the backdrop).
 */
export function openModal(opts: ModalOptions): Promise<string | undefined> {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const titleId = `ode-modal-title-${++openCount}-${Date.now().toString(36)}`;
  const buttons = opts.buttons ?? [
    { value: 'ok', label: t('modal.ok'), primary: true },
    { value: 'cancel', label: t('modal.cancel') },
  ];
  const form = el('form', { className: 'ode-modal-body' });
  form.append(...(Array.isArray(opts.body) ? opts.body : [opts.body]));
  const footer = el('div', { className: 'ode-modal-buttons' });
  const box = el(
    'div',
    { className: `ode-modal ${opts.className ?? ''}`.trim() },
    { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId },
    el('h2', { id: titleId, className: 'ode-modal-title' }, {}, opts.title),
    form,
    footer,
  );
  const backdrop = el('div', { className: 'ode-modal-backdrop' }, {}, box);
  return new Promise((resolve) => {
    const close = (value: string | undefined) => {
      if (value !== undefined && value !== 'cancel' && opts.validate && !opts.validate(value)) return;
      backdrop.remove();
      if (--openCount === 0 || !document.querySelector('.ode-modal-backdrop')) setPageInert(false);
      if (previous?.isConnected) previous.focus({ preventScroll: true });
      resolve(value === 'cancel' ? undefined : value);
    };
    for (const b of buttons) {
      const button = el('button', { type: 'button', className: `ode-button${b.primary ? ' ode-primary' : ''}` }, {}, b.label);
      button.addEventListener('click', () => close(b.value));
      footer.append(button);
    }
    const primary = buttons.find((b) => b.primary);
    // Enter in a field chooses the primary button (implicit submission needs a submit button or a single field).
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (primary) close(primary.value);
    });
    form.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.isComposing || !(e.target instanceof HTMLInputElement) || e.target.type === 'checkbox' || e.target.type === 'file') return;
      e.preventDefault();
      if (primary) close(primary.value);
    });
    backdrop.addEventListener('mousedown', (e) => {
      if (e.target === backdrop) close(undefined);
    });
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        close(undefined);
      } else if (e.key === 'Tab') {
        wrapTab(
          e,
          [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => !x.closest('[hidden]')),
        );
      }
    });
    opts.bind?.(close);
    document.body.append(backdrop);
    setPageInert(true);
    const first =
      opts.initialFocus ??
      form.querySelector<HTMLElement>(FOCUSABLE) ??
      footer.querySelector<HTMLElement>('.ode-primary') ??
      footer.querySelector<HTMLElement>('button');
    first?.focus();
    if (first instanceof HTMLInputElement && first.type === 'text') first.select();
  });
}

/** A labelled text field in a dialog. Resolves with the trimmed text, or `undefined` when cancelled. */
export async function promptText(title: string, label: string, value = ''): Promise<string | undefined> {
  const input = el('input', { type: 'text', value, className: 'ode-field' }, { 'aria-label': label });
  const field = el('label', { className: 'ode-modal-field' }, {}, el('span', {}, {}, label), input);
  const answer = await openModal({ title, body: field, initialFocus: input, validate: () => input.value.trim() !== '' });
  return answer === undefined ? undefined : input.value.trim();
}

/** A yes/no question. Resolves true when the primary button was chosen. */
export async function confirmModal(title: string, text: string, okLabel = t('modal.ok')): Promise<boolean> {
  const answer = await openModal({
    title,
    body: el('p', {}, {}, text),
    buttons: [
      { value: 'ok', label: okLabel, primary: true },
      { value: 'cancel', label: t('modal.cancel') },
    ],
  });
  return answer === 'ok';
}

/** An open popover: closes itself on Escape, a click outside, or `close()`. */
export interface Popover {
  readonly element: HTMLElement;
  close(returnFocus?: boolean): void;
}

/**
 * A non-modal popup anchored under `anchor` (colour palettes, the table size picker): role=dialog labelled
 * `label`; Escape or a click outside closes it and gives the focus back to the anchor.
 */
export function popover(anchor: HTMLElement, content: Node, label: string, onClose?: () => void): Popover {
  const box = el('div', { className: 'ode-popover' }, { role: 'dialog', 'aria-label': label }, content);
  const r = anchor.getBoundingClientRect();
  box.style.left = `${Math.max(4, Math.min(r.left, window.innerWidth - 280))}px`;
  box.style.top = `${r.bottom + 4}px`;
  let open = true;
  const close = (returnFocus = true) => {
    if (!open) return;
    open = false;
    box.remove();
    document.removeEventListener('mousedown', outside, true);
    if (returnFocus) anchor.focus({ preventScroll: true });
    onClose?.();
  };
  const outside = (e: MouseEvent) => {
    if (!box.contains(e.target as Node) && e.target !== anchor) close(false);
  };
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  });
  box.addEventListener('focusout', (e) => {
    if (e.relatedTarget instanceof Node && !box.contains(e.relatedTarget)) close(false);
  });
  (document.querySelector('.ode-popups') ?? document.body).append(box);
  document.addEventListener('mousedown', outside, true);
  box.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  return { element: box, close };
}
