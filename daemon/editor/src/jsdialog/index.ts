/**
 * LibreOffice's dialogs as HTML (issue 23; docs/editing.md, "Dialogs"): LibreOffice 25.2 describes its dialogs as
 * JSDialogs (LOK_CALLBACK_JSDIALOG, the daemon's `dialog` messages), which this module renders as accessible modal
 * dialogs (role=dialog, aria-modal, labelled by LibreOffice's title; the focus starts where LibreOffice says and
 * stays inside; Escape is Cancel, Enter in a field is OK) and answers with `dialogEvent`s. As in Collabora, only
 * `jsontype: 'dialog'` is rendered here (the sidebar, notebookbar and popups are other consumers of the same
 * callback); a dialog that LibreOffice still sends as a window is the painted route's (dialogs/lo-window.ts).
 */
import type { DialogEvent } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { wrapTab } from '../chrome/dom.ts';
import { t } from '../core/i18n.ts';
import { findWidget, parseJsDialog, replaceWidget, RESPONSE, responseButton, clickEvent, mnemonic, type JsDialogTree, type JsWidget } from './model.ts';
import { domId, renderWidget, type RenderContext } from './render.ts';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** One JSDialog shown in the page. */
class JsDialogBox {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly titleEl: HTMLElement;
  private tree: JsDialogTree;
  private ctx: RenderContext;
  private readonly tabs = new Map<string, number>();

  constructor(
    readonly windowId: number,
    tree: JsDialogTree,
    private readonly send: (event: DialogEvent) => void,
  ) {
    this.tree = tree;
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
    this.body = document.createElement('div');
    this.body.className = 'ode-jsd-body';
    this.element = document.createElement('div');
    this.element.className = 'ode-jsd';
    this.element.setAttribute('role', 'dialog');
    this.element.setAttribute('aria-modal', 'true');
    this.element.setAttribute('aria-labelledby', titleId);
    this.element.dataset.windowId = String(windowId);
    this.element.append(head, this.body);
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.ctx = this.context();
    this.build();
  }

  private context(): RenderContext {
    return { windowId: this.windowId, dialog: this.tree, send: (ev) => this.send(ev), usedIds: new Set(), tabs: this.tabs };
  }

  /** (Re)builds the whole dialog, keeping the focused field (and what the user typed there but did not send). */
  private build(): void {
    const kept = this.focusedField();
    this.titleEl.textContent = mnemonic(this.tree.title ?? (typeof this.tree.text === 'string' ? this.tree.text : '')).label || t('dialogs.untitled');
    this.ctx = this.context();
    const content = document.createDocumentFragment();
    for (const c of this.tree.children ?? []) {
      const e = renderWidget(c, this.ctx);
      if (e) content.append(e);
    }
    this.body.replaceChildren(content);
    if (kept) this.restore(kept);
  }

  /** The whole dialog again (LibreOffice sends it after a tab page was built, for example). */
  replace(tree: JsDialogTree): void {
    this.tree = tree;
    this.build();
  }

  /** One widget again (`update`): its subtree is rebuilt in place. */
  update(control: JsWidget): void {
    if (!replaceWidget(this.tree, control)) return;
    const old = this.widgetElement(control.id, control.type);
    if (!old) return this.build();
    const kept = old.contains(document.activeElement) ? this.focusedField() : undefined;
    // The old subtree's ids become free for its new elements.
    for (const e of [old, ...old.querySelectorAll<HTMLElement>('[id]')]) if (e.id) this.ctx.usedIds.delete(e.id);
    const fresh = renderWidget(control, this.ctx);
    if (!fresh) return void old.remove();
    if (old.style.gridColumn) fresh.style.gridColumn = old.style.gridColumn;
    if (old.style.gridRow) fresh.style.gridRow = old.style.gridRow;
    old.replaceWith(fresh);
    if (kept) this.restore(kept);
  }

  /** One `action` (setText, show, hide, enable, disable; grab_focus is left to the user's own focus). */
  action(controlId: string, actionType: string, data: Record<string, unknown>): void {
    const w = findWidget(this.tree, controlId);
    const e = this.widgetElement(controlId);
    const control = e?.matches('input, select, button, textarea') ? e : e?.querySelector<HTMLElement>('input, select, button, textarea');
    switch (actionType) {
      case 'show':
      case 'hide':
        if (w) w.visible = actionType === 'show';
        if (e) e.hidden = actionType === 'hide';
        return;
      case 'enable':
      case 'disable':
        if (w) w.enabled = actionType === 'enable';
        if (control && 'disabled' in control) (control as HTMLInputElement).disabled = actionType === 'disable';
        e?.classList.toggle('ode-jsd-disabled', actionType === 'disable');
        return;
      case 'setText': {
        const text = typeof data.text === 'string' ? data.text : '';
        if (w) w.text = text;
        if (control instanceof HTMLInputElement) {
          // What the user is typing there is not overwritten by LibreOffice's echo of an earlier value.
          if (!(control.dataset.dirty && control === document.activeElement)) control.value = text;
        } else if (e && !control) e.textContent = mnemonic(text).label;
        return;
      }
      default:
        return;
    }
  }

  /** Focuses LibreOffice's first field (`init_focus_id`), else the first control. */
  focusInitial(): void {
    const id = this.tree.init_focus_id;
    const target = (id ? this.element.querySelector<HTMLElement>(`#${CSS.escape(domId(this.windowId, id))}`) : null) ?? this.focusables()[0];
    target?.focus();
    if (target instanceof HTMLInputElement && target.type === 'text') target.select();
  }

  /** Escape, the close button: the dialog's Cancel (or LibreOffice's own close of the dialog). */
  cancel(): void {
    this.commitFocused();
    const cancel = responseButton(this.tree, RESPONSE.cancel);
    this.send(cancel ? clickEvent(this.tree, cancel) : { id: '__DIALOG__', cmd: 'close', type: 'dialog' });
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.cancel();
    } else if (e.key === 'Enter' && !e.isComposing && e.target instanceof HTMLInputElement && (e.target.type === 'text' || e.target.type === 'checkbox' || e.target.type === 'radio')) {
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

  private widgetElement(id: string, type?: string): HTMLElement | undefined {
    if (id === '') return undefined;
    for (const e of this.body.querySelectorAll<HTMLElement>('[data-jsd-id]')) if (e.dataset.jsdId === id && (type === undefined || e.dataset.jsdType === type)) return e;
    return undefined;
  }

  private focusedField(): { id: string; value?: string; dirty: boolean; start: number | null; end: number | null } | undefined {
    const a = document.activeElement;
    if (!(a instanceof HTMLElement) || !this.element.contains(a) || !a.id) return undefined;
    const input = a instanceof HTMLInputElement && a.type === 'text' ? a : undefined;
    return { id: a.id, value: input?.value, dirty: input?.dataset.dirty === '1', start: input?.selectionStart ?? null, end: input?.selectionEnd ?? null };
  }

  private restore(kept: { id: string; value?: string; dirty: boolean; start: number | null; end: number | null }): void {
    const e = this.element.querySelector<HTMLElement>(`#${CSS.escape(kept.id)}`);
    if (!e) return;
    e.focus({ preventScroll: true });
    if (e instanceof HTMLInputElement && kept.dirty && kept.value !== undefined) {
      e.value = kept.value;
      e.dataset.dirty = '1';
      if (kept.start !== null && kept.end !== null) e.setSelectionRange(kept.start, kept.end);
    }
  }
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

  session.on('dialog', (m) => {
    const msg = parseJsDialog(m.json);
    if (!msg || msg.jsontype !== 'dialog') return;
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
  for (const type of ['reloaded', 'kitDied', 'idle'] as const) session.on(type, () => [...open.keys()].forEach(close));
}
