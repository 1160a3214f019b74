/**
 * A JSDialog shown in place rather than as a modal box (the sidebar, issue 23): the widget tree rendered by
 * render.ts into one element, kept up to date by LibreOffice's `update` (one widget again) and `action` (setText,
 * show, hide, enable, disable) messages, its widgets' events sent as `dialogEvent`s of its window.
 */
import type { DialogEvent } from '../../../protocol/editor.ts';
import { findWidget, mnemonic, replaceWidget, type JsDialogTree, type JsWidget } from './model.ts';
import { nameControls, renderWidget, type RenderContext } from './render.ts';

/** The focused field of a panel while it is rebuilt: its DOM id, typed text not yet sent, selection. */
interface KeptField {
  id: string;
  value?: string;
  dirty: boolean;
  start: number | null;
  end: number | null;
}

/** One JSDialog rendered into `element` (not modal: the page stays usable around it). */
export class JsDialogPanel {
  readonly element: HTMLElement;
  private tree: JsDialogTree;
  private ctx: RenderContext;
  private readonly tabs = new Map<string, number>();

  constructor(
    readonly windowId: number,
    tree: JsDialogTree,
    private readonly send: (event: DialogEvent) => void,
    className: string,
    private readonly uno?: (command: string) => void,
  ) {
    this.tree = tree;
    this.element = document.createElement('div');
    this.element.className = className;
    this.element.dataset.windowId = String(windowId);
    this.ctx = this.context();
    this.build();
  }

  /** The tree shown now. */
  get dialog(): JsDialogTree {
    return this.tree;
  }

  private context(): RenderContext {
    return { windowId: this.windowId, dialog: this.tree, send: (ev) => this.send(ev), usedIds: new Set(), tabs: this.tabs, uno: this.uno };
  }

  /** (Re)builds everything, keeping the focused field (and what the user typed there but did not send). */
  private build(): void {
    const kept = this.focusedField();
    this.ctx = this.context();
    const content = document.createDocumentFragment();
    for (const c of this.tree.children ?? []) {
      const e = renderWidget(c, this.ctx);
      if (e) content.append(e);
    }
    this.element.replaceChildren(content);
    nameControls(this.element);
    if (kept) this.restore(kept);
  }

  /** The whole tree again (`full` message for the same window). */
  replace(tree: JsDialogTree): void {
    this.tree = tree;
    this.build();
  }

  /** One widget again (`update`): its subtree is rebuilt in place (the whole panel when it is not found). */
  update(control: JsWidget): void {
    if (!replaceWidget(this.tree, control)) return;
    const old = this.widgetElement(control.id, control.type);
    if (!old) return this.build();
    const kept = old.contains(document.activeElement) ? this.focusedField() : undefined;
    for (const e of [old, ...old.querySelectorAll<HTMLElement>('[id]')]) if (e.id) this.ctx.usedIds.delete(e.id);
    const fresh = renderWidget(control, this.ctx);
    if (!fresh) return void old.remove();
    if (old.style.gridColumn) fresh.style.gridColumn = old.style.gridColumn;
    if (old.style.gridRow) fresh.style.gridRow = old.style.gridRow;
    old.replaceWith(fresh);
    nameControls(this.element);
    if (kept) this.restore(kept);
  }

  /** One `action` on a widget: setText, show, hide, enable, disable (others, such as grab_focus, are left out). */
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
          if (!(control.dataset.dirty && control === document.activeElement)) control.value = text;
        } else if (e && !control) e.textContent = mnemonic(text).label;
        return;
      }
      default:
        return;
    }
  }

  private widgetElement(id: string, type?: string): HTMLElement | undefined {
    if (id === '') return undefined;
    for (const e of this.element.querySelectorAll<HTMLElement>('[data-jsd-id]'))
      if (e.dataset.jsdId === id && (type === undefined || e.dataset.jsdType === type)) return e;
    return undefined;
  }

  private focusedField(): KeptField | undefined {
    const a = document.activeElement;
    if (!(a instanceof HTMLElement) || !this.element.contains(a) || !a.id) return undefined;
    const input = a instanceof HTMLInputElement && a.type === 'text' ? a : undefined;
    return { id: a.id, value: input?.value, dirty: input?.dataset.dirty === '1', start: input?.selectionStart ?? null, end: input?.selectionEnd ?? null };
  }

  private restore(kept: KeptField): void {
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
