import type { TileHeader } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';

/** A thumbnail's width in CSS px (painted at devicePixelRatio). */
const THUMB_PX = 180;
/** Invalidations of a part are gathered this long before its thumbnail is asked for again (ms). */
const REFRESH_MS = 400;

/** One entry of the panel: its option element, its canvas, and what is known of its picture. */
interface Thumb {
  option: HTMLLIElement;
  canvas: HTMLCanvasElement;
  /** A picture is on the canvas. */
  painted: boolean;
  /** Asked for and not yet arrived. */
  pending: boolean;
  /** The picture is out of date (invalidated, or the parts moved). */
  dirty: boolean;
  /** Scrolled into (or near) the panel's visible area: only those are asked for. */
  visible: boolean;
}

/**
 * The slide sorter / pages panel (slot `left`): one thumbnail per part, each painted from one tile of the whole
 * part at thumbnail size (all at the same size, so the daemon's tile cache serves them to every view), asked for
 * only when scrolled into view and again (debounced) when LibreOffice invalidates its part. A listbox: the current
 * part is the selected option; click, Enter, or Up/Down/Home/End choose a part (`setPart`); options can be dragged
 * to reorder the parts (`.uno:MovePageUp` / `.uno:MovePageDown` from the dragged part).
 */
export class Sorter {
  readonly element: HTMLElement;
  private readonly list: HTMLUListElement;
  private thumbs: Thumb[] = [];
  private refreshTimer = 0;
  private readonly observer: IntersectionObserver;
  private dragFrom = -1;
  /** The size thumbnails are asked at (px, at devicePixelRatio); tiles of this size and tileTwipWidth are ours. */
  private tileWidth = 0;
  private tileHeight = 0;
  private partWidth = 0;
  private partHeight = 0;
  /** The view's edit mode (0 slides; 2 notes: no thumbnails are asked then). */
  private viewMode = 0;

  constructor(
    private readonly app: App,
    private readonly pages: boolean,
  ) {
    this.element = document.createElement('div');
    this.element.className = 'ode-sorter';
    this.list = document.createElement('ul');
    this.list.className = 'ode-sorter-list';
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', t(pages ? 'slides.panel.pages' : 'slides.panel.slides'));
    this.list.setAttribute('aria-orientation', 'vertical');
    this.element.append(this.list);
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const i = this.thumbs.findIndex((th) => th.option === e.target);
          if (i >= 0) this.thumbs[i].visible = e.isIntersecting;
        }
        this.askMissing();
      },
      { root: this.element, rootMargin: '200px 0px' },
    );
    this.list.addEventListener('keydown', (e) => this.onKey(e));
    this.list.addEventListener('click', (e) => {
      const i = this.indexOf(e.target);
      if (i >= 0) this.choose(i);
    });
    this.list.addEventListener('dragstart', (e) => {
      this.dragFrom = this.indexOf(e.target);
      if (this.dragFrom < 0 || this.readonly) return e.preventDefault();
      e.dataTransfer?.setData('text/plain', String(this.dragFrom));
      if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
    });
    this.list.addEventListener('dragover', (e) => {
      if (this.dragFrom < 0) return;
      e.preventDefault();
      const i = this.indexOf(e.target);
      for (const [k, th] of this.thumbs.entries()) th.option.classList.toggle('ode-drop-target', k === i && k !== this.dragFrom);
    });
    this.list.addEventListener('dragend', () => this.endDrag());
    this.list.addEventListener('drop', (e) => {
      e.preventDefault();
      const to = this.indexOf(e.target);
      const from = this.dragFrom;
      this.endDrag();
      if (from >= 0 && to >= 0) this.move(from, to);
    });
  }

  private get readonly(): boolean {
    const s = this.app.session.state.status;
    return !s || s.readonly;
  }

  private indexOf(target: EventTarget | null): number {
    const li = (target as Element | null)?.closest?.('li');
    return li ? this.thumbs.findIndex((th) => th.option === li) : -1;
  }

  private endDrag(): void {
    this.dragFrom = -1;
    for (const th of this.thumbs) th.option.classList.remove('ode-drop-target');
  }

  /** Makes part `i` current (LOK setPart); the selection follows LibreOffice's `part` answer. */
  choose(i: number): void {
    if (i < 0 || i >= this.thumbs.length) return;
    this.select(i);
    this.thumbs[i].option.focus();
    if (i !== this.app.session.state.part) this.app.session.send({ type: 'setPart', part: i });
  }

  /**
   * Moves part `from` to position `to`: it becomes current, then goes up or down one place per step
   * (`.uno:MovePageUp` / `.uno:MovePageDown` move the current slide or page, in LibreOffice 7.4 as in 25.2: test/editor/slides.test.ts).
   */
  move(from: number, to: number): void {
    if (from === to || this.readonly) return;
    const { session } = this.app;
    if (from !== session.state.part) session.send({ type: 'setPart', part: from });
    const command = to < from ? '.uno:MovePageUp' : '.uno:MovePageDown';
    for (let k = 0; k < Math.abs(to - from); k++) session.uno(command);
    this.app.notify(t('slides.moved', { n: to + 1 }));
  }

  private onKey(e: KeyboardEvent): void {
    const i = this.indexOf(e.target);
    if (i < 0) return;
    const n = this.thumbs.length;
    let to = -1;
    if (e.key === 'ArrowDown' || e.key === 'ArrowRight') to = Math.min(n - 1, i + 1);
    else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') to = Math.max(0, i - 1);
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = n - 1;
    else if (e.key === 'Enter' || e.key === ' ') to = i;
    else if ((e.key === 'Delete' || e.key === 'Backspace') && !this.readonly && !this.pages) {
      e.preventDefault();
      this.app.commands.run('slide.delete');
      return;
    } else return;
    e.preventDefault();
    if (e.altKey && !this.readonly && to !== i) {
      // Alt+Up/Down moves the slide itself.
      this.move(i, to);
      return;
    }
    this.choose(to);
  }

  /** Marks option `i` as the current part. */
  select(i: number): void {
    for (const [k, th] of this.thumbs.entries()) {
      const on = k === i;
      th.option.setAttribute('aria-selected', String(on));
      th.option.tabIndex = on ? 0 : -1;
    }
    this.thumbs[i]?.option.scrollIntoView({ block: 'nearest' });
  }

  /**
   * The document's parts: one option each, named "Slide n: name"; new sizes or counts repaint every thumbnail.
   * `mode` is the view's edit mode (documentSize): while it is not 0 (View > Notes: `width` x `height` is then the
   * notes page) the slides' size is kept and no thumbnail is asked (the kit paints none for a view in notes, which
   * would end a text edit there); they are asked again once the view is back in mode 0.
   */
  setParts(count: number, names: string[], width: number, height: number, mode = 0): void {
    this.viewMode = mode;
    if (mode !== 0) {
      for (const th of this.thumbs) th.pending = false;
      if (this.partWidth) [width, height] = [this.partWidth, this.partHeight];
    }
    const dpr = window.devicePixelRatio || 1;
    const tileWidth = Math.round(THUMB_PX * dpr);
    const tileHeight = Math.max(1, Math.round((tileWidth * height) / Math.max(1, width)));
    const resized = tileWidth !== this.tileWidth || tileHeight !== this.tileHeight || width !== this.partWidth || height !== this.partHeight;
    Object.assign(this, { tileWidth, tileHeight, partWidth: width, partHeight: height });
    while (this.thumbs.length > count) {
      const th = this.thumbs.pop()!;
      this.observer.unobserve(th.option);
      th.option.remove();
    }
    while (this.thumbs.length < count) {
      const option = document.createElement('li');
      option.className = 'ode-thumb';
      option.setAttribute('role', 'option');
      option.draggable = true;
      option.tabIndex = -1;
      const number = document.createElement('span');
      number.className = 'ode-thumb-number';
      number.setAttribute('aria-hidden', 'true');
      const canvas = document.createElement('canvas');
      canvas.className = 'ode-thumb-canvas';
      canvas.setAttribute('aria-hidden', 'true');
      option.append(number, canvas);
      this.list.append(option);
      this.thumbs.push({ option, canvas, painted: false, pending: false, dirty: true, visible: false });
      this.observer.observe(option);
    }
    for (const [i, th] of this.thumbs.entries()) {
      const name = names[i] || String(i + 1);
      th.option.setAttribute('aria-label', t(this.pages ? 'slides.option.page' : 'slides.option.slide', { n: i + 1, name }));
      th.option.title = name;
      (th.option.firstChild as HTMLElement).textContent = String(i + 1);
      if (resized) {
        th.canvas.width = tileWidth;
        th.canvas.height = tileHeight;
        th.canvas.style.aspectRatio = `${tileWidth} / ${tileHeight}`;
        th.painted = false;
        th.pending = false;
        th.dirty = true;
      }
    }
    this.select(Math.min(this.app.session.state.part, count - 1));
    this.askMissing();
  }

  /** LibreOffice invalidated an area of `part` (-1: every part): its thumbnail is asked for again, debounced. */
  invalidate(part: number): void {
    for (const [i, th] of this.thumbs.entries()) if (part === -1 || i === part) th.dirty = true;
    if (part === -1) for (const th of this.thumbs) th.pending = false;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = window.setTimeout(() => this.askMissing(), REFRESH_MS);
  }

  /** Asks for the thumbnails that are visible and missing or out of date. */
  private askMissing(): void {
    if (!this.tileWidth || !this.app.session.live || this.viewMode !== 0) return;
    for (const [i, th] of this.thumbs.entries()) {
      if (!th.visible || th.pending || (th.painted && !th.dirty)) continue;
      th.pending = true;
      th.dirty = false;
      this.app.session.send({
        type: 'tiles',
        part: i,
        mode: 0,
        width: this.tileWidth,
        height: this.tileHeight,
        tileTwipWidth: this.partWidth,
        tileTwipHeight: this.partHeight,
        positions: [[0, 0]],
        fresh: !th.painted || undefined,
      });
    }
  }

  /** True for a tile frame that is one of this panel's thumbnails (by its size: the document view's tiles are square and smaller). */
  isThumbnail(h: TileHeader): boolean {
    return (
      h.width === this.tileWidth &&
      h.height === this.tileHeight &&
      h.tileTwipWidth === this.partWidth &&
      h.tileTwipHeight === this.partHeight &&
      h.x === 0 &&
      h.y === 0
    );
  }

  /** A thumbnail arrived: painted on its canvas (an `unchanged` answer keeps the picture there). */
  async tileArrived(h: TileHeader, png: Uint8Array): Promise<void> {
    const th = this.thumbs[h.part];
    if (!th) return;
    th.pending = false;
    if (h.encoding !== 'png' || png.length === 0) {
      if (!th.painted) th.dirty = true;
      return;
    }
    const bitmap = await createImageBitmap(new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
    const ctx = th.canvas.getContext('2d')!;
    ctx.clearRect(0, 0, th.canvas.width, th.canvas.height);
    ctx.drawImage(bitmap, 0, 0, th.canvas.width, th.canvas.height);
    bitmap.close();
    th.painted = true;
    th.option.dataset.painted = 'true';
    if (th.dirty) this.invalidate(h.part);
  }

  get count(): number {
    return this.thumbs.length;
  }

  destroy(): void {
    this.observer.disconnect();
    clearTimeout(this.refreshTimer);
    this.element.remove();
  }
}
