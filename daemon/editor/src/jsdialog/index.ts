/**
 * LibreOffice's dialogs as HTML (issue 23; docs/editing.md, "Dialogs"): LibreOffice 25.2 describes its dialogs as
 * JSDialogs (LOK_CALLBACK_JSDIALOG, the daemon's `dialog` messages), which this module renders as accessible modal
 * dialogs (role=dialog, aria-modal, labelled by LibreOffice's title; the focus starts where LibreOffice says and
 * stays inside; Escape is Cancel, Enter in a field is OK) and answers with `dialogEvent`s. As in Collabora, only
 * `jsontype: 'dialog'` is rendered here, with the drop-down popups of the sidebar's tool items (`type:
 * 'modalpopup'`, popup.ts; the sidebar and notebookbar are other consumers of the same callback); a dialog that
 * LibreOffice still sends as a window is the painted route's (dialogs/lo-window.ts).
 */
import type { DialogEvent } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { wrapTab } from '../chrome/dom.ts';
import { t } from '../core/i18n.ts';
import { parseJsDialog, RESPONSE, responseButton, clickEvent, dialogName, type JsDialogTree, type JsWidget } from './model.ts';
import { JsDialogPanel } from './panel.ts';
import { isPopupTree, JsPopup } from './popup.ts';
import { domId } from './render.ts';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** One JSDialog shown in the page: a modal box around a JsDialogPanel (the widgets). */
class JsDialogBox {
  readonly element: HTMLElement;
  private readonly panel: JsDialogPanel;
  private readonly titleEl: HTMLElement;

  constructor(
    readonly windowId: number,
    tree: JsDialogTree,
    private readonly send: (event: DialogEvent) => void,
  ) {
    const titleId = `ode-jsd-${windowId}-title`;
    this.titleEl = document.createElement('h2');
    this.titleEl.id = titleId;
    this.titleEl.className = 'ode-jsd-title';
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'ode-jsd-close';
    close.textContent = '×';
    close.setAttribute('aria-label', t('dialogs.close'));
    close.addEventListener('click', () => this.cancel());
    const head = document.createElement('div');
    head.className = 'ode-jsd-head';
    head.append(this.titleEl, close);
    this.panel = new JsDialogPanel(windowId, tree, send, 'ode-jsd-body');
    this.element = document.createElement('div');
    this.element.className = 'ode-jsd';
    this.element.setAttribute('role', 'dialog');
    this.element.setAttribute('aria-modal', 'true');
    this.element.setAttribute('aria-labelledby', titleId);
    this.element.dataset.windowId = String(windowId);
    this.element.append(head, this.panel.element);
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.setTitle();
  }

  private get tree(): JsDialogTree {
    return this.panel.dialog;
  }

  /** The title shown and the dialog's accessible name: LibreOffice's title, else its dialog id humanised (dialogName). */
  private setTitle(): void {
    this.titleEl.textContent = dialogName(this.tree) || t('dialogs.untitled');
  }

  /** The whole dialog again (LibreOffice sends it after a tab page was built, for example). */
  replace(tree: JsDialogTree): void {
    this.panel.replace(tree);
    this.setTitle();
  }

  /** One widget again (`update`): its subtree is rebuilt in place. */
  update(control: JsWidget): void {
    this.panel.update(control);
  }

  /** One `action` (setText, show, hide, enable, disable; grab_focus is left to the user's own focus). */
  action(controlId: string, actionType: string, data: Record<string, unknown>): void {
    this.panel.action(controlId, actionType, data);
  }

  /** Focuses LibreOffice's first field (`init_focus_id`), else the first control. */
  focusInitial(): void {
    const id = this.tree.init_focus_id;
    const target = (id ? this.element.querySelector<HTMLElement>(`#${CSS.escape(domId(this.windowId, id))}`) : null) ?? this.focusables()[0];
    target?.focus();
    if (target instanceof HTMLInputElement && target.type === 'text') target.select();
  }

  /** Escape, the close button: the dialog's Cancel, else its Close (Word count), else LibreOffice's own close of the dialog. */
  cancel(): void {
    this.commitFocused();
    const cancel = responseButton(this.tree, RESPONSE.cancel) ?? responseButton(this.tree, RESPONSE.close);
    this.send(cancel ? clickEvent(this.tree, cancel) : { id: '__DIALOG__', cmd: 'close', type: 'dialog' });
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.cancel();
    } else if (
      e.key === 'Enter' &&
      !e.isComposing &&
      e.target instanceof HTMLInputElement &&
      (e.target.type === 'text' || e.target.type === 'checkbox' || e.target.type === 'radio')
    ) {
      // Enter in a field: the field's value first, then the default button (OK).
      const ok = responseButton(this.tree, RESPONSE.ok);
      if (!ok) return;
      e.preventDefault();
      this.commitFocused();
      this.send(clickEvent(this.tree, ok));
    } else if (e.key === 'Tab') {
      wrapTab(e, this.focusables());
    }
  }

  /** Sends the focused field's typed value now (its `change` would come only on blur). */
  private commitFocused(): void {
    const a = document.activeElement;
    if (a instanceof HTMLInputElement && this.element.contains(a) && a.dataset.dirty) a.dispatchEvent(new Event('change', { bubbles: true }));
  }

  private focusables(): HTMLElement[] {
    return [...this.element.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => !x.closest('[hidden]') && x.getClientRects().length > 0);
  }
}

/**
 * One console line per JSDialog or popup that opens (window id, type, LibreOffice's dialog id, title): which of
 * LibreOffice's dialogs came up is otherwise seen only as a box over the page (issue 23 item 5).
 */
function logOpened(windowId: number, tree: JsDialogTree): void {
  const dialogid = typeof tree.dialogid === 'string' ? tree.dialogid : '';
  console.info(`[ode] jsdialog open ${windowId} ${tree.type} ${dialogid || '-'} "${dialogName(tree)}"`);
}

/**
 * Renders this view's JSDialogs (`dialog` messages of `jsontype: 'dialog'`) and sends their widgets' events
 * (`dialogEvent`). A dialog goes when LibreOffice closes it, or with the document (reload, kit gone, idle).
 */
export function mountJsDialogs(app: App): void {
  const { session } = app;
  const open = new Map<number, JsDialogBox>();
  const layer = document.createElement('div');
  layer.className = 'ode-jsd-layer';
  layer.hidden = true;
  let wasInert = false;

  const sync = () => {
    const any = open.size > 0;
    if (any === !layer.hidden) return;
    layer.hidden = !any;
    const page = document.getElementById('ode-app');
    if (any) {
      if (!layer.isConnected) document.body.append(layer);
      wasInert = page?.inert ?? false;
      if (page) page.inert = true;
    } else if (page) page.inert = wasInert;
  };
  const close = (windowId: number) => {
    const box = open.get(windowId);
    if (!box) return;
    open.delete(windowId);
    const hadFocus = box.element.contains(document.activeElement);
    box.element.remove();
    sync();
    if (hadFocus || open.size === 0) {
      const top = [...open.values()].at(-1);
      if (top) top.focusInitial();
      else app.view.focus();
    }
  };

  // Popups (popup.ts): non-modal, one per window id, in the popups slot.
  const popups = new Map<number, JsPopup>();
  const closePopup = (windowId: number) => {
    const p = popups.get(windowId);
    if (!p) return false;
    popups.delete(windowId);
    p.remove();
    return true;
  };
  const popupMessage = (msg: NonNullable<ReturnType<typeof parseJsDialog>>): boolean => {
    const popup = popups.get(msg.windowId);
    switch (msg.kind) {
      case 'full': {
        if (!isPopupTree(msg.dialog)) return false;
        if (popup) {
          popup.replace(msg.dialog);
          return true;
        }
        const fresh = new JsPopup(
          msg.windowId,
          msg.dialog,
          (event) => session.send({ type: 'dialogEvent', windowId: msg.windowId, event }),
          () => closePopup(msg.windowId),
        );
        popups.set(msg.windowId, fresh);
        fresh.show(app.slots.popups);
        return true;
      }
      case 'update':
        if (msg.jsontype !== 'popup' || !popup) return false;
        popup.update(msg.control);
        return true;
      case 'action':
        if (msg.jsontype !== 'popup' || !popup) return false;
        popup.action(msg.controlId, msg.actionType, msg.data);
        return true;
      case 'close':
        // LibreOffice's close of a popup (`type: 'modalpopup'`): the window id of a popup shown.
        return closePopup(msg.windowId);
    }
  };

  session.on('dialog', (m) => {
    const msg = parseJsDialog(m.json);
    if (!msg || (msg.jsontype !== 'dialog' && msg.jsontype !== 'popup')) return;
    if (msg.kind === 'full' && !open.has(msg.windowId) && !popups.has(msg.windowId)) logOpened(msg.windowId, msg.dialog);
    if (popupMessage(msg) || msg.jsontype !== 'dialog') return;
    const box = open.get(msg.windowId);
    switch (msg.kind) {
      case 'full': {
        if (box) return box.replace(msg.dialog);
        const fresh = new JsDialogBox(msg.windowId, msg.dialog, (event) => session.send({ type: 'dialogEvent', windowId: msg.windowId, event }));
        open.set(msg.windowId, fresh);
        layer.append(fresh.element);
        sync();
        fresh.focusInitial();
        return;
      }
      case 'update':
        return box?.update(msg.control);
      case 'action':
        return box?.action(msg.controlId, msg.actionType, msg.data);
      case 'close':
        return close(msg.windowId);
    }
  });
  for (const type of ['reloaded', 'kitDied', 'idle'] as const)
    session.on(type, () => {
      [...open.keys()].forEach(close);
      [...popups.keys()].forEach(closePopup);
    });
}
