import type { Rect, TileHeader } from '../../../protocol/editor.ts';
import type { DocumentView } from '../core/app.ts';

/** Twips per CSS pixel at 100 %: 1440 twips an inch, 96 CSS px an inch. */
export const TWIPS_PER_PX = 15;
/** A tile's side in CSS px; painted at devicePixelRatio for crisp text. */
const TILE_PX = 256;

/** What the view asks of the connection. */
export interface TileSource {
  requestTiles(part: number, width: number, height: number, tileTwips: number, positions: Array<[number, number]>): void;
}

/**
 * The document as canvas tiles (issue 5's document view, first cut): a scrollable area the size of the document,
 * a canvas over its visible part painted from cached tiles; only visible tiles are requested, invalidated tiles
 * are dropped and asked for again. Coordinates: twips in the document, CSS px on screen.
 */
export class TileView implements DocumentView {
  readonly scroller: HTMLDivElement;
  private readonly sizer: HTMLDivElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly caret: HTMLDivElement;
  private readonly tiles = new Map<string, { bitmap: ImageBitmap; wid: number }>();
  private readonly pending = new Set<string>();
  /** Requested tiles invalidated before they arrived: dropped on arrival and asked for again. */
  private readonly stale = new Set<string>();
  private currentPart = 0;
  private readonly viewportListeners = new Set<() => void>();
  /** Called after a frame painted newly arrived tiles (App event `painted`). */
  onPainted: () => void = () => undefined;
  private paintedSinceFrame = false;
  private docWidth = 0;
  private docHeight = 0;
  private currentZoom = 1;
  private selection: Rect[] = [];
  private cursor: { rect: Rect; visible: boolean } = { rect: [0, 0, 0, 0], visible: false };
  private readonly others = new Map<number, HTMLDivElement>();
  private frame = 0;

  constructor(
    host: HTMLElement,
    private readonly source: TileSource,
  ) {
    this.scroller = Object.assign(document.createElement('div'), { className: 'ode-doc', tabIndex: -1 });
    this.sizer = Object.assign(document.createElement('div'), { className: 'ode-sizer' });
    this.canvas = Object.assign(document.createElement('canvas'), { className: 'ode-canvas' });
    this.canvas.setAttribute('aria-hidden', 'true');
    this.caret = Object.assign(document.createElement('div'), { className: 'ode-caret' });
    this.sizer.append(this.caret);
    this.scroller.append(this.canvas, this.sizer);
    host.append(this.scroller);
    this.scroller.addEventListener('scroll', () => (this.schedule(), this.viewportChanged()));
    new ResizeObserver(() => (this.schedule(), this.viewportChanged())).observe(this.scroller);
  }

  get zoom(): number {
    return this.currentZoom;
  }

  get part(): number {
    return this.currentPart;
  }

  /** Calls `fn` after every scroll, zoom or resize. */
  onViewportChange(fn: () => void): () => void {
    this.viewportListeners.add(fn);
    return () => this.viewportListeners.delete(fn);
  }

  private viewportChanged(): void {
    for (const fn of this.viewportListeners) fn();
  }

  /** Twips rectangle to px relative to the scroller's visible top-left corner. */
  toView(rect: Rect): { left: number; top: number; width: number; height: number } {
    const scale = TWIPS_PER_PX / this.currentZoom;
    return { left: rect[0] / scale + this.offsetX - this.scroller.scrollLeft, top: rect[1] / scale - this.scroller.scrollTop, width: rect[2] / scale, height: rect[3] / scale };
  }

  /** The visible area in twips. */
  visibleArea(): { x: number; y: number; width: number; height: number } {
    const scale = TWIPS_PER_PX / this.currentZoom;
    return { x: Math.max(0, Math.round((this.scroller.scrollLeft - this.offsetX) * scale)), y: Math.round(this.scroller.scrollTop * scale), width: Math.round(this.scroller.clientWidth * scale), height: Math.round(this.scroller.clientHeight * scale) };
  }

  /** Scrolls so that `rect` (twips) is visible. */
  scrollIntoView(rect: Rect): void {
    const v = this.toView(rect);
    const h = this.scroller.clientHeight;
    const w = this.scroller.clientWidth;
    if (v.top < 0) this.scroller.scrollTop += v.top - 20;
    else if (v.top + v.height > h) this.scroller.scrollTop += v.top + v.height - h + 20;
    if (v.left < 0) this.scroller.scrollLeft += v.left - 20;
    else if (v.left + v.width > w) this.scroller.scrollLeft += v.left + v.width - w + 20;
  }

  /** Set by input.ts: focuses the hidden text input. */
  focus: () => void = () => this.scroller.focus({ preventScroll: true });

  /** Twips a tile covers at the current zoom. */
  private get tileTwips(): number {
    return Math.round((TILE_PX * TWIPS_PER_PX) / this.currentZoom);
  }

  /** Left margin (CSS px) that centres a page narrower than the view. */
  private get offsetX(): number {
    return Math.max(0, (this.scroller.clientWidth - this.docWidth / (TWIPS_PER_PX / this.currentZoom)) / 2);
  }

  /** Shows part `part` of a document `width` x `height` twips. */
  setDocument(part: number, width: number, height: number): void {
    if (part !== this.currentPart) this.tiles.clear();
    this.currentPart = part;
    this.docWidth = width;
    this.docHeight = height;
    const scale = TWIPS_PER_PX / this.currentZoom;
    this.sizer.style.width = `${Math.ceil(width / scale)}px`;
    this.sizer.style.height = `${Math.ceil(height / scale) + 40}px`;
    this.schedule();
  }

  /** Sets the zoom (1 = 100 %); every tile is asked for again. */
  setZoom(zoom: number): void {
    this.currentZoom = zoom;
    this.tiles.clear();
    this.pending.clear();
    this.stale.clear();
    this.setDocument(this.currentPart, this.docWidth, this.docHeight);
    this.viewportChanged();
  }

  /** Screen point (client px) to document twips. */
  toTwips(clientX: number, clientY: number): [number, number] {
    const r = this.scroller.getBoundingClientRect();
    const scale = TWIPS_PER_PX / this.currentZoom;
    return [Math.round((clientX - r.left + this.scroller.scrollLeft - this.offsetX) * scale), Math.round((clientY - r.top + this.scroller.scrollTop) * scale)];
  }

  /** A tile arrived: decode it, keep it, repaint. */
  async tileArrived(h: TileHeader, png: Uint8Array): Promise<void> {
    const key = `${h.part}:${h.x},${h.y}:${h.tileTwipWidth}`;
    this.pending.delete(key);
    if (this.stale.delete(key)) return this.schedule();
    if (h.encoding === 'unchanged') return this.schedule();
    const bitmap = await createImageBitmap(new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
    this.tiles.get(key)?.bitmap.close();
    this.tiles.set(key, { bitmap, wid: h.wid });
    this.paintedSinceFrame = true;
    this.schedule();
  }

  /** LibreOffice invalidated an area (twips) of a part, or all of it. */
  invalidate(part: number, x: number, y: number, w: number, h: number, all: boolean): void {
    const t = this.tileTwips;
    const hit = (key: string) => {
      const [p, pos] = key.split(':');
      const [tx, ty] = pos.split(',').map(Number);
      return (part === -1 || Number(p) === part) && (all || (tx < x + w && x < tx + t && ty < y + h && y < ty + t));
    };
    for (const [key, tile] of this.tiles) {
      if (!hit(key)) continue;
      tile.bitmap.close();
      this.tiles.delete(key);
    }
    // A tile painted before this change may still be on its way: it must not be kept.
    for (const key of this.pending) if (hit(key)) this.stale.add(key);
    this.schedule();
  }

  /** This view's caret (twips). */
  setCursor(rect: Rect, visible: boolean): void {
    if (rect[2] !== 0 || rect[3] !== 0) this.cursor.rect = rect;
    this.cursor.visible = visible;
    this.placeCaret();
  }

  /** This view's selection rectangles (twips). */
  setSelection(rects: Rect[]): void {
    this.selection = rects;
    this.schedule();
  }

  /** Another user's caret, in their colour, with their name. */
  setOtherCursor(viewId: number, rect: Rect, visible: boolean, name: string, color: string): void {
    let el = this.others.get(viewId);
    if (!el) {
      el = Object.assign(document.createElement('div'), { className: 'ode-other-caret' });
      el.append(Object.assign(document.createElement('span'), { className: 'ode-other-name' }));
      this.sizer.append(el);
      this.others.set(viewId, el);
    }
    (el.firstChild as HTMLSpanElement).textContent = name;
    el.style.setProperty('--c', color);
    el.hidden = !visible || (rect[2] === 0 && rect[3] === 0);
    this.position(el, rect);
  }

  /** Removes the carets of views that left. */
  keepOthers(viewIds: Set<number>): void {
    for (const [id, el] of this.others) if (!viewIds.has(id)) (el.remove(), this.others.delete(id));
  }

  private position(el: HTMLElement, rect: Rect): void {
    const scale = TWIPS_PER_PX / this.currentZoom;
    el.style.left = `${rect[0] / scale + this.offsetX}px`;
    el.style.top = `${rect[1] / scale}px`;
    el.style.height = `${Math.max(rect[3] / scale, 8)}px`;
  }

  private placeCaret(): void {
    this.caret.hidden = !this.cursor.visible;
    this.position(this.caret, this.cursor.rect);
  }

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => ((this.frame = 0), this.render()));
  }

  private render(): void {
    const dpr = window.devicePixelRatio || 1;
    const vw = this.scroller.clientWidth;
    const vh = this.scroller.clientHeight;
    if (this.canvas.width !== Math.round(vw * dpr) || this.canvas.height !== Math.round(vh * dpr)) {
      this.canvas.width = Math.round(vw * dpr);
      this.canvas.height = Math.round(vh * dpr);
      this.canvas.style.width = `${vw}px`;
      this.canvas.style.height = `${vh}px`;
    }
    this.canvas.style.transform = `translate(${this.scroller.scrollLeft}px, ${this.scroller.scrollTop}px)`;
    const ctx = this.canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, vw, vh);
    if (!this.docWidth) return;
    const scale = TWIPS_PER_PX / this.currentZoom;
    const t = this.tileTwips;
    const tilePx = t / scale;
    const left = (this.scroller.scrollLeft - this.offsetX) * scale;
    const top = this.scroller.scrollTop * scale;
    const missing: Array<[number, number]> = [];
    for (let y = Math.max(0, Math.floor(top / t) * t); y < Math.min(this.docHeight, top + vh * scale); y += t) {
      for (let x = Math.max(0, Math.floor(left / t) * t); x < Math.min(this.docWidth, left + vw * scale); x += t) {
        const key = `${this.currentPart}:${x},${y}:${t}`;
        const tile = this.tiles.get(key);
        const sx = x / scale - this.scroller.scrollLeft + this.offsetX;
        const sy = y / scale - this.scroller.scrollTop;
        if (tile) ctx.drawImage(tile.bitmap, sx, sy, tilePx, tilePx);
        else if (!this.pending.has(key)) {
          this.pending.add(key);
          missing.push([x, y]);
        }
      }
    }
    ctx.fillStyle = 'rgba(43, 99, 198, 0.25)';
    for (const r of this.selection) ctx.fillRect(r[0] / scale - this.scroller.scrollLeft + this.offsetX, r[1] / scale - this.scroller.scrollTop, r[2] / scale, r[3] / scale);
    if (this.paintedSinceFrame) {
      this.paintedSinceFrame = false;
      this.onPainted();
    }
    if (missing.length > 0) this.source.requestTiles(this.currentPart, Math.round(TILE_PX * dpr), Math.round(TILE_PX * dpr), t, missing);
    this.placeCaret();
  }
}
