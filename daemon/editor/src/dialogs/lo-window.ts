import { button } from '../chrome/panels-dom.ts';
import type { EditorSession } from '../core/session.ts';
import { t } from '../core/i18n.ts';
import { clip, mouseButton, mouseButtons, MOD1, MOD2, SHIFT, union, windowKey, type PxRect } from './model.ts';

let nextTitleId = 1;

/**
 * One LibreOffice window of this view shown in the page (docs/editing.md, "Dialogs"): a dialog as an accessible
 * modal box (role=dialog, LibreOffice's title, a canvas that takes the keyboard), or a child window (a list's
 * drop-down) as a canvas over its parent. LibreOffice paints it: invalidated areas are asked for with `windowPaint`
 * (one request per frame for their union) and drawn as they come back; keys and mouse go back as `windowKey` /
 * `windowMouse` in px of the window.
 */
export class LoWindow {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly caret: HTMLElement;
  private readonly titleEl: HTMLElement | undefined;
  private width = 0;
  private height = 0;
  private dirty: PxRect | undefined;
  private frame = 0;
  private drawing: Promise<void> = Promise.resolve();
  private lastMove = 0;
  /** Keys pressed in this window: their release goes to the same window with the same codes. */
  private readonly down = new Map<string, { charCode: number; keyCode: number }>();

  constructor(
    readonly id: number,
    readonly kind: 'dialog' | 'child',
    private readonly session: EditorSession,
    title: string,
    private readonly onEscape: () => void,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'ode-lod-canvas';
    this.ctx = this.canvas.getContext('2d')!;
    this.caret = document.createElement('div');
    this.caret.className = 'ode-lod-caret';
    this.caret.hidden = true;
    if (kind === 'dialog') {
      const titleId = `ode-lod-title-${nextTitleId++}`;
      this.element = document.createElement('div');
      this.element.className = 'ode-lod';
      this.element.setAttribute('role', 'dialog');
      this.element.setAttribute('aria-modal', 'true');
      this.element.setAttribute('aria-labelledby', titleId);
      const head = document.createElement('div');
      head.className = 'ode-lod-head';
      this.titleEl = document.createElement('h2');
      this.titleEl.className = 'ode-lod-title';
      this.titleEl.id = titleId;
      // The dialog's own Cancel: LibreOffice closes it (and answers `close`), as Escape does.
      const close = button(t('dialogs.close'), '×', () => this.onEscape(), 'ode-lod-close');
      head.append(this.titleEl, close);
      const body = document.createElement('div');
      body.className = 'ode-lod-body';
      body.append(this.canvas, this.caret);
      this.element.append(head, body);
      this.canvas.tabIndex = 0;
      this.canvas.setAttribute('role', 'application');
      this.setTitle(title);
    } else {
      this.element = document.createElement('div');
      this.element.className = 'ode-lod-child';
      this.element.append(this.canvas, this.caret);
      this.canvas.setAttribute('role', 'img');
      this.canvas.setAttribute('aria-label', t('dialogs.popup'));
    }
    this.listen();
  }

  /** The window's title (LibreOffice's), also the canvas's accessible name. */
  setTitle(title: string): void {
    const text = title || t('dialogs.untitled');
    if (this.titleEl) this.titleEl.textContent = text;
    if (this.kind === 'dialog') this.canvas.setAttribute('aria-label', t('dialogs.window', { title: text }));
  }

  /** A new size in px: the canvas is cleared and painted again whole. */
  resize(width: number, height: number): void {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.canvas.width = width;
    this.canvas.height = height;
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.invalidate(undefined);
  }

  /** Marks an area stale (the whole window when undefined); it is asked for on the next frame. */
  invalidate(rect: PxRect | undefined): void {
    if (this.width === 0) return;
    this.dirty = union(this.dirty, rect ?? { x: 0, y: 0, width: this.width, height: this.height });
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const area = this.dirty && clip(this.dirty, this.width, this.height);
      this.dirty = undefined;
      if (area) this.session.send({ type: 'windowPaint', windowId: this.id, ...area });
    });
  }

  /** Draws a painted area (`windowPaint` answer, base64 PNG), in the order the answers came. */
  painted(area: PxRect, pngBase64: string): void {
    const bytes = Uint8Array.from(atob(pngBase64), (c) => c.charCodeAt(0));
    const bitmap = createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    this.drawing = this.drawing.then(async () => {
      const image = await bitmap.catch(() => undefined);
      if (!image) return;
      this.ctx.clearRect(area.x, area.y, area.width, area.height);
      this.ctx.drawImage(image, area.x, area.y);
      image.close();
      this.element.dataset.painted = 'true';
    });
  }

  /** LibreOffice's text cursor in the window (cursor_invalidate / cursor_visible). */
  setCaret(rect: PxRect | undefined, visible?: boolean): void {
    if (rect) {
      Object.assign(this.caret.style, { left: `${rect.x}px`, top: `${rect.y}px`, height: `${Math.max(rect.height, 1)}px` });
    }
    if (visible !== undefined) this.caret.hidden = !visible;
  }

  /** Moves a child window to (x, y) px of its parent. */
  place(x: number, y: number): void {
    Object.assign(this.element.style, { left: `${x}px`, top: `${y}px` });
  }

  focus(): void {
    this.canvas.focus({ preventScroll: true });
  }

  dispose(): void {
    cancelAnimationFrame(this.frame);
    this.element.remove();
  }

  private sendKey(event: 'input' | 'up', k: { charCode: number; keyCode: number }): void {
    this.session.send({ type: 'windowKey', windowId: this.id, event, charCode: k.charCode, keyCode: k.keyCode });
  }

  private listen(): void {
    const c = this.canvas;
    c.addEventListener('keydown', (e) => {
      // Every key belongs to the dialog while it has the focus: the document's shortcuts must not see it.
      e.stopPropagation();
      if (e.isComposing) return;
      const k = windowKey(e);
      if (!k) return;
      e.preventDefault();
      if (e.key === 'Escape') {
        this.onEscape();
        return;
      }
      this.down.set(e.code || e.key, k);
      this.sendKey('input', k);
    });
    c.addEventListener('keyup', (e) => {
      e.stopPropagation();
      const k = this.down.get(e.code || e.key);
      if (!k) return;
      this.down.delete(e.code || e.key);
      e.preventDefault();
      this.sendKey('up', k);
    });
    const modifier = (e: MouseEvent) => (e.shiftKey ? SHIFT : 0) | (e.ctrlKey || e.metaKey ? MOD1 : 0) | (e.altKey ? MOD2 : 0);
    const at = (e: MouseEvent) => {
      const r = c.getBoundingClientRect();
      const sx = r.width ? this.width / r.width : 1;
      const sy = r.height ? this.height / r.height : 1;
      return { x: Math.round((e.clientX - r.left) * sx), y: Math.round((e.clientY - r.top) * sy) };
    };
    // A press or release: the button, and the click count (double clicks in lists and fields).
    const button = (event: 'buttondown' | 'buttonup', e: MouseEvent) => {
      e.preventDefault();
      e.stopPropagation();
      if (event === 'buttondown' && this.kind === 'dialog') this.focus();
      this.session.send({
        type: 'windowMouse',
        windowId: this.id,
        event,
        ...at(e),
        count: Math.max(1, e.detail),
        buttons: mouseButton(e.button),
        modifier: modifier(e),
      });
    };
    c.addEventListener('mousedown', (e) => button('buttondown', e));
    c.addEventListener('mouseup', (e) => button('buttonup', e));
    c.addEventListener('mousemove', (e) => {
      // Hover and drags (sliders, selections in lists); at most one move a frame.
      const now = performance.now();
      if (now - this.lastMove < 16) return;
      this.lastMove = now;
      this.session.send({ type: 'windowMouse', windowId: this.id, event: 'move', ...at(e), count: 1, buttons: mouseButtons(e.buttons), modifier: modifier(e) });
    });
    c.addEventListener('contextmenu', (e) => e.preventDefault());
  }
}
