import type { Rect } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';

/**
 * The cell cursors (issue 5 "Spreadsheets: cell cursor"): this view's as a thick accent rectangle, other users'
 * in their colour with their name (current sheet only). Drawn in `layer`, a box over the document view's visible
 * area, at the positions `app.view.toView` gives; redrawn on every scroll and zoom. The own cursor is scrolled
 * into view when it moved because of the keyboard (arrow keys, name box), not after a click.
 */
export class CellCursors {
  private own: Rect | null = null;
  private readonly ownEl: HTMLDivElement;
  private readonly others = new Map<number, { el: HTMLDivElement; rect: Rect | null; part: number }>();
  /** Set by a key press (or a jump from the name box): the next move scrolls the cursor into view. */
  private followNext = false;
  /** A cell to scroll to once the document has grown to contain it. */
  private pending: Rect | undefined;

  constructor(
    private readonly app: App,
    private readonly layer: HTMLElement,
  ) {
    this.ownEl = Object.assign(document.createElement('div'), { className: 'ode-cell-cursor', hidden: true });
    this.ownEl.setAttribute('aria-hidden', 'true');
    layer.append(this.ownEl);
    app.view.onViewportChange(() => this.draw());
    app.session.on('documentSize', () => {
      const rect = this.pending;
      if (rect) requestAnimationFrame(() => this.pending === rect && this.scrollTo(rect));
    });
    app.slots.doc.addEventListener('keydown', () => (this.followNext = true), true);
    app.slots.doc.addEventListener('mousedown', () => (this.followNext = false), true);
  }

  /** The own cell cursor in twips (null: none). */
  get rect(): Rect | null {
    return this.own;
  }

  /** The next move of the own cursor scrolls it into view. */
  follow(): void {
    this.followNext = true;
  }

  setOwn(rect: Rect | null): void {
    this.own = rect;
    this.pending = undefined;
    if (rect && this.followNext) {
      this.followNext = false;
      this.scrollTo(rect);
    }
    this.draw();
  }

  /**
   * Scrolls `rect` into view. A cell past the sheet's tiled area makes LibreOffice grow the document first
   * (DOCUMENT_SIZE_CHANGED), so until the document is large enough the scroll is tried again on `documentSize`.
   */
  private scrollTo(rect: Rect): void {
    this.app.view.scrollIntoView(rect);
    const v = this.app.view.toView(rect);
    const box = this.app.view.scroller;
    this.pending = v.top < 0 || v.top + v.height > box.clientHeight || v.left < 0 || v.left + v.width > box.clientWidth ? rect : undefined;
  }

  setOther(viewId: number, part: number, rect: Rect | null, name: string, color: string): void {
    let o = this.others.get(viewId);
    if (!o) {
      const el = Object.assign(document.createElement('div'), { className: 'ode-cell-cursor ode-cell-cursor-other' });
      el.append(Object.assign(document.createElement('span'), { className: 'ode-cell-cursor-name' }));
      this.layer.append(el);
      o = { el, rect, part };
      this.others.set(viewId, o);
    }
    o.rect = rect;
    o.part = part;
    (o.el.firstChild as HTMLElement).textContent = name;
    o.el.title = name;
    o.el.style.setProperty('--c', color);
    this.draw();
  }

  /** Drops the cursors of views that left. */
  keep(viewIds: Set<number>): void {
    for (const [id, o] of this.others) if (!viewIds.has(id)) o.el.remove(), this.others.delete(id);
  }

  draw(): void {
    place(this.app, this.ownEl, this.own);
    for (const o of this.others.values()) place(this.app, o.el, o.part === this.app.session.state.part ? o.rect : null);
  }
}

function place(app: App, el: HTMLElement, rect: Rect | null): void {
  el.hidden = !rect || rect[2] <= 0 || rect[3] <= 0;
  if (el.hidden || !rect) return;
  const v = app.view.toView(rect);
  el.style.transform = `translate(${v.left}px, ${v.top}px)`;
  el.style.width = `${v.width}px`;
  el.style.height = `${v.height}px`;
}
