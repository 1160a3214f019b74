/**
 * LibreOffice's drop-down popups as HTML (issue 23, item 2): a sidebar tool item with a drop-down (underline
 * styles, line spacing, font and highlighting colours, lists) opens, when the editor sends `togglemenu` for it, a
 * popup that LibreOffice 25.2 describes as a JSDialog (vcl/jsdialog/jsdialogsender.cxx generatePopupMessage):
 * `{jsontype: 'dialog', type: 'modalpopup', id, popupParent: <toolbox id>, clickToClose: <item id>, children}`,
 * later `update`s and `action`s of `jsontype: 'popup'` for the same id, and `{type: 'modalpopup', action: 'close'}`
 * when LibreOffice closes it (an entry was chosen). It is shown as a non-modal dialog under its tool item, as
 * Collabora Online shows its popups; Escape, a click outside or the tool item again close it, by sending
 * `{id: '__POPOVER__', cmd: 'close', type: 'popover'}` (LibreOffice's executor closes the popover).
 */
import type { DialogEvent } from '../../../protocol/editor.ts';
import { wrapTab } from '../chrome/dom.ts';
import { t } from '../core/i18n.ts';
import { dialogName, type JsDialogTree, type JsWidget } from './model.ts';
import { JsDialogPanel } from './panel.ts';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex="0"]';

/** The event that asks LibreOffice to close its popover (executor.cxx, type `popover`, cmd `close`). */
export const CLOSE_POPOVER: DialogEvent = { id: '__POPOVER__', cmd: 'close', type: 'popover' };

/** True for the full message of a popup (`type: 'modalpopup'`), as opposed to a dialog's. */
export function isPopupTree(tree: JsDialogTree): boolean {
  return tree.type === 'modalpopup';
}

/** The element a popup hangs from: its tool item (`clickToClose`), else its toolbox (`popupParent`). */
function anchorOf(tree: JsDialogTree): HTMLElement | undefined {
  for (const key of ['clickToClose', 'popupParent']) {
    const id = tree[key];
    if (typeof id !== 'string' || id === '') continue;
    const hit = [...document.querySelectorAll<HTMLElement>('[data-jsd-id]')].find((e) => e.dataset.jsdId === id && e.getClientRects().length > 0);
    if (hit) return hit;
  }
  return undefined;
}

/** One LibreOffice popup shown in the page (non-modal: the document and the sidebar stay usable). */
export class JsPopup {
  readonly element: HTMLElement;
  private readonly panel: JsDialogPanel;
  private readonly anchor: HTMLElement | undefined;
  private readonly onOutside = (e: MouseEvent) => {
    const target = e.target as Node;
    if (this.element.contains(target)) return;
    // The tool item itself toggles the popup (it sends togglemenu): leave that click to it.
    if (this.anchor?.contains(target)) return;
    this.cancel();
  };

  constructor(
    readonly windowId: number,
    tree: JsDialogTree,
    private readonly send: (event: DialogEvent) => void,
    private readonly dismissed: () => void,
  ) {
    this.anchor = anchorOf(tree);
    const content: JsDialogTree = { ...tree, children: (tree.children ?? []) as JsWidget[] };
    this.panel = new JsDialogPanel(windowId, content, send, 'ode-jsd-popup-body');
    this.element = document.createElement('div');
    this.element.className = 'ode-jsd-popup';
    this.element.setAttribute('role', 'dialog');
    // Named by its tool item, else by LibreOffice's title or dialog id (a popup without its tool item in the page).
    const name = this.anchor?.getAttribute('aria-label') || this.anchor?.textContent?.trim() || dialogName(tree) || t('dialogs.untitled');
    this.element.setAttribute('aria-label', name);
    this.element.dataset.windowId = String(windowId);
    this.element.append(this.panel.element);
    this.element.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        this.cancel();
      } else if (e.key === 'Tab') wrapTab(e, this.focusables());
    });
    this.anchor?.setAttribute('aria-expanded', 'true');
  }

  /** Puts the popup in the page under its anchor (kept inside the viewport) and focuses its first control. */
  show(into: HTMLElement): void {
    into.append(this.element);
    const r = this.anchor?.getBoundingClientRect() ?? { left: window.innerWidth / 2, bottom: 80, top: 80 };
    const box = this.element.getBoundingClientRect();
    const left = Math.max(4, Math.min(r.left, window.innerWidth - box.width - 4));
    const below = r.bottom + 2;
    const top = below + box.height <= window.innerHeight - 4 ? below : Math.max(4, r.top - box.height - 2);
    this.element.style.left = `${Math.round(left)}px`;
    this.element.style.top = `${Math.round(top)}px`;
    document.addEventListener('mousedown', this.onOutside, true);
    this.focusables()[0]?.focus();
  }

  /** The whole popup again. */
  replace(tree: JsDialogTree): void {
    this.panel.replace({ ...tree, children: (tree.children ?? []) as JsWidget[] });
  }

  /** One widget again. */
  update(control: JsWidget): void {
    this.panel.update(control);
  }

  /** One action (show, hide, enable, disable, setText). */
  action(controlId: string, actionType: string, data: Record<string, unknown>): void {
    this.panel.action(controlId, actionType, data);
  }

  /** Escape, a click outside: asks LibreOffice to close its popover, and goes. */
  cancel(): void {
    this.send(CLOSE_POPOVER);
    this.dismissed();
  }

  /** Takes the popup out of the page; the focus goes back to its tool item when it was inside. */
  remove(): void {
    document.removeEventListener('mousedown', this.onOutside, true);
    const hadFocus = this.element.contains(document.activeElement);
    this.element.remove();
    this.anchor?.setAttribute('aria-expanded', 'false');
    if (hadFocus && this.anchor?.isConnected) this.anchor.focus();
  }

  private focusables(): HTMLElement[] {
    return [...this.element.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => !x.closest('[hidden]') && x.getClientRects().length > 0);
  }
}
