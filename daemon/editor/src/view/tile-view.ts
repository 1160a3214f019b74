import type { Rect, TileHeader } from '../../../protocol/editor.ts';
import type { DocumentView } from '../core/app.ts';

/** Twips per CSS pixel at 100 %: 1440 twips an inch, 96 CSS px an inch. */
export const TWIPS_PER_PX = 15;
/** A tile's side in CSS px; painted at devicePixelRatio for crisp text. */
const TILE_PX = 256;
/** Zoom bounds (1 = 100 %). */
export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 4;
/** Tiles kept at most (a 256 px tile at dpr 2 is 1 MiB of bitmap): far-away ones are dropped first. */
const MAX_TILES = 240;
/** A request unanswered for this long is asked again (the answer was lost, e.g. the kit restarted). */
const PENDING_MS = 8000;
/** A zoom gesture (wheel, pinch) settles after this long without a step: then tiles of the new zoom are asked. */
const ZOOM_SETTLE_MS = 160;

/** What the view asks of the connection. */
export interface TileSource {
  /**
   * Paint these tiles of `part` in `mode` (a presentation view's edit mode: 0 slides, 1 master slides, 2 notes);
   * `fresh`: the view holds no copy of them (the daemon must not answer `unchanged`).
   */
  requestTiles(part: number, mode: number, width: number, height: number, tileTwips: number, positions: Array<[number, number]>, fresh: boolean): void;
  /** The zoom of the tiles to come (LOK setClientZoom). */
  zoomChanged(tilePx: number, tileTwips: number): void;
  /** The visible area changed (LOK setClientVisibleArea), debounced. */
  visibleAreaChanged(area: { x: number; y: number; width: number; height: number }): void;
}

interface Tile {
  bitmap: ImageBitmap;
  wid: number;
  /** Invalidated: drawn until its new version arrives, and asked for again. */
  stale: boolean;
  part: number;
  x: number;
  y: number;
  t: number;
}

/** Another view's selection (twips), in its colour. */
interface OtherSelection {
  part: number;
  rects: Rect[];
  color: string;
}

const tileKey = (part: number, mode: number, x: number, y: number, t: number) => `${part}:${mode}:${x},${y}:${t}`;

/**
 * The document as canvas tiles (issue 5 "Document view"): a scrollable area the size of the document (grown ahead
 * of the user for spreadsheets), a canvas over its visible part painted from cached tiles at devicePixelRatio.
 * Only visible tiles and a one-tile margin are requested; an invalidated tile stays on screen until its new version
 * arrives (no flicker) and is never kept as final; tiles far away or of another zoom are dropped (memory bound).
 * Zooming scales the old tiles until those of the new zoom come. Selections (this view's and others') are painted
 * over the tiles; carets, handles and names are DOM elements in `layer` (document px). Twips in the document,
 * CSS px on screen.
 */
export class TileView implements DocumentView {
  readonly scroller: HTMLDivElement;
  /** The scrolled content: overlays positioned in document px (see `local`). */
  readonly layer: HTMLDivElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly caret: HTMLDivElement;
  private readonly tiles = new Map<string, Tile>();
  /** Requested tiles -> when; `staleInFlight`: asked before an invalidation that hit them. */
  private readonly pending = new Map<string, number>();
  private readonly staleInFlight = new Set<string>();
  /**
   * Tiles being decoded (key and whether an invalidation hit them meanwhile): a tile that left `pending` and waits
   * for createImageBitmap must still become stale when LibreOffice invalidates its area before it is kept (issue 23:
   * "Titl" shown for "Title" until a zoom change, the invalidation of the last key arriving during the decode).
   */
  private readonly decoding = new Set<{ key: string; p: number; x: number; y: number; t: number; hit: boolean }>();
  private currentPart = 0;
  /** The edit mode shown (presentations: 0 slides, 1 master slides, 2 the notes page; documentSize `mode`). */
  private currentMode = 0;
  private readonly viewportListeners = new Set<() => void>();
  /** Called after a frame painted newly arrived tiles (App event `painted`). */
  onPainted: () => void = () => undefined;
  /** Called when this view's caret moved (the hidden input follows it). */
  onCaretMoved: (rect: Rect) => void = () => undefined;
  private paintedSinceFrame = false;
  private requestQueued = false;
  private docWidth = 0;
  private docHeight = 0;
  /** Spreadsheets: the scroll area runs ahead of the document (LibreOffice grows it as the visible area nears its end). */
  growable = false;
  private currentZoom = 1;
  /** The zoom tiles are asked at: lags `currentZoom` while a gesture goes on. */
  private tileZoom = 1;
  private zoomTimer: ReturnType<typeof setTimeout> | undefined;
  private areaTimer: ReturnType<typeof setTimeout> | undefined;
  private selection: Rect[] = [];
  private readonly otherSelections = new Map<number, OtherSelection>();
  private readonly otherGraphics = new Map<number, OtherSelection>();
  private cursor: { rect: Rect; visible: boolean } = { rect: [0, 0, 0, 0], visible: false };
  private focused = false;
  private readonly others = new Map<number, HTMLDivElement>();
  private frame = 0;
  /** Asks again for tiles still missing after PENDING_MS (a lost or failed tile must not leave a hole for ever). */
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private accent = '#2b63c6';
  /** Which of the two names of the caret's blink runs (placeCaret switches them to restart it). */
  private blinkB = false;

  constructor(
    host: HTMLElement,
    private readonly source: TileSource,
  ) {
    this.scroller = Object.assign(document.createElement('div'), { className: 'ode-doc', tabIndex: -1 });
    this.layer = Object.assign(document.createElement('div'), { className: 'ode-sizer' });
    this.canvas = Object.assign(document.createElement('canvas'), { className: 'ode-canvas' });
    this.canvas.setAttribute('aria-hidden', 'true');
    this.caret = Object.assign(document.createElement('div'), { className: 'ode-caret' });
    this.caret.hidden = true;
    this.layer.append(this.caret);
    this.scroller.append(this.canvas, this.layer);
    host.append(this.scroller);
    this.scroller.addEventListener('scroll', () => (this.grow(), this.schedule(), this.viewportChanged()));
    new ResizeObserver(() => (this.resize(), this.schedule(), this.viewportChanged())).observe(this.scroller);
    this.refreshTheme();
  }

  /** The zoom shown (1 = 100 %). */
  get zoom(): number {
    return this.currentZoom;
  }

  /** The part shown (sheet, slide, page; 0-based). */
  get part(): number {
    return this.currentPart;
  }

  /** Twips per CSS px at the current zoom. */
  private get scale(): number {
    return TWIPS_PER_PX / this.currentZoom;
  }

  /** Reads the theme's accent colour (selections); call after a theme change. */
  refreshTheme(): void {
    this.accent = getComputedStyle(this.scroller).getPropertyValue('--accent').trim() || this.accent;
    this.schedule();
  }

  /** Calls `fn` after every scroll, zoom or resize. */
  onViewportChange(fn: () => void): () => void {
    this.viewportListeners.add(fn);
    return () => this.viewportListeners.delete(fn);
  }

  private viewportChanged(): void {
    for (const fn of this.viewportListeners) fn();
    clearTimeout(this.areaTimer);
    this.areaTimer = setTimeout(() => this.docWidth && this.source.visibleAreaChanged(this.visibleArea()), 120);
  }

  /** Twips rectangle to px relative to the scroller's visible top-left corner. */
  toView(rect: Rect): { left: number; top: number; width: number; height: number } {
    const l = this.local(rect);
    return { left: l.left - this.scroller.scrollLeft, top: l.top - this.scroller.scrollTop, width: l.width, height: l.height };
  }

  /** Twips rectangle to px in `layer` (the scrolled content). */
  local(rect: Rect): { left: number; top: number; width: number; height: number } {
    const s = this.scale;
    return { left: rect[0] / s + this.offsetX, top: rect[1] / s, width: rect[2] / s, height: rect[3] / s };
  }

  /** The visible area in twips. */
  visibleArea(): { x: number; y: number; width: number; height: number } {
    const s = this.scale;
    return {
      x: Math.max(0, Math.round((this.scroller.scrollLeft - this.offsetX) * s)),
      y: Math.round(this.scroller.scrollTop * s),
      width: Math.round(this.scroller.clientWidth * s),
      height: Math.round(this.scroller.clientHeight * s),
    };
  }

  /** Scrolls so that `rect` (twips) is visible, with a small margin. */
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

  /** Twips a tile covers at the zoom tiles are asked at. */
  get tileTwips(): number {
    return Math.round((TILE_PX * TWIPS_PER_PX) / this.tileZoom);
  }

  /** Tile side in device px. */
  private get tileDevicePx(): number {
    return Math.round(TILE_PX * (window.devicePixelRatio || 1));
  }

  /** Left margin (CSS px) that centres a page narrower than the view. */
  private get offsetX(): number {
    return this.growable ? 0 : Math.max(0, (this.scroller.clientWidth - this.docWidth / this.scale) / 2);
  }

  /** The edit mode shown (presentations: 0 slides, 1 master slides, 2 notes; 0 otherwise). */
  get mode(): number {
    return this.currentMode;
  }

  /** Shows part `part` of a document `width` x `height` twips, in edit mode `mode` (presentations; unchanged when absent). */
  setDocument(part: number, width: number, height: number, mode = this.currentMode): void {
    if (part !== this.currentPart || mode !== this.currentMode) {
      this.dropTiles(() => true);
      this.pending.clear();
      this.staleInFlight.clear();
    }
    this.currentPart = part;
    this.currentMode = mode;
    this.docWidth = width;
    this.docHeight = height;
    this.resize();
    this.schedule();
  }

  /** Sizes the scroll area: the document at the current zoom (spreadsheets: at least a screen past what is seen). */
  private resize(): void {
    const s = this.scale;
    let w = Math.ceil(this.docWidth / s);
    let h = Math.ceil(this.docHeight / s) + (this.growable ? 0 : 40);
    if (this.growable) {
      w = Math.max(w, this.scroller.scrollLeft + 2 * this.scroller.clientWidth);
      h = Math.max(h, this.scroller.scrollTop + 2 * this.scroller.clientHeight);
    }
    this.layer.style.width = `${w}px`;
    this.layer.style.height = `${h}px`;
  }

  /** Spreadsheets: grows the scroll area as the user nears its end. */
  private grow(): void {
    if (!this.growable) return;
    const near =
      this.scroller.scrollTop + 1.5 * this.scroller.clientHeight > this.layer.offsetHeight ||
      this.scroller.scrollLeft + 1.5 * this.scroller.clientWidth > this.layer.offsetWidth;
    if (near) this.resize();
  }

  /**
   * Sets the zoom (1 = 100 %, clamped to 25-400 %), keeping the document point under `anchor` (client px; default
   * the view's centre) where it is. The old tiles are drawn scaled until those of the new zoom arrive; with
   * `settle` (a wheel or pinch gesture) the new tiles are asked for once the gesture pauses.
   */
  setZoom(zoom: number, anchor?: { clientX: number; clientY: number }, settle = false): void {
    const z = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
    if (!this.docWidth) {
      this.currentZoom = this.tileZoom = z;
      this.source.zoomChanged(this.tileDevicePx, this.tileTwips);
      return;
    }
    const r = this.scroller.getBoundingClientRect();
    const ax = anchor ? anchor.clientX - r.left : this.scroller.clientWidth / 2;
    const ay = anchor ? anchor.clientY - r.top : this.scroller.clientHeight / 2;
    const [px, py] = this.toTwips(r.left + ax, r.top + ay);
    this.currentZoom = z;
    this.resize();
    this.scroller.scrollLeft = px / this.scale + this.offsetX - ax;
    this.scroller.scrollTop = py / this.scale - ay;
    clearTimeout(this.zoomTimer);
    const apply = () => {
      if (this.tileZoom === this.currentZoom) return;
      this.tileZoom = this.currentZoom;
      this.source.zoomChanged(this.tileDevicePx, this.tileTwips);
      this.schedule();
    };
    if (settle) this.zoomTimer = setTimeout(apply, ZOOM_SETTLE_MS);
    else apply();
    this.placeOverlays();
    this.schedule();
    this.viewportChanged();
  }

  /** Tells LibreOffice this view's zoom and visible area (after the view went live). */
  announce(): void {
    this.source.zoomChanged(this.tileDevicePx, this.tileTwips);
    this.source.visibleAreaChanged(this.visibleArea());
  }

  /** Screen point (client px) to document twips. */
  toTwips(clientX: number, clientY: number): [number, number] {
    const r = this.scroller.getBoundingClientRect();
    const s = this.scale;
    return [Math.round((clientX - r.left + this.scroller.scrollLeft - this.offsetX) * s), Math.round((clientY - r.top + this.scroller.scrollTop) * s)];
  }

  /** A tile arrived: decode it, keep it (stale if it was asked before an invalidation), repaint. */
  async tileArrived(h: TileHeader, png: Uint8Array): Promise<void> {
    const key = tileKey(h.part, h.mode, h.x, h.y, h.tileTwipWidth);
    this.pending.delete(key);
    const stale = this.staleInFlight.delete(key);
    const have = this.tiles.get(key);
    if (h.encoding === 'unchanged') {
      // The daemon says our copy is current: it is no longer stale (unless invalidated meanwhile).
      if (have && have.wid === h.wid && !stale) have.stale = false;
      return this.schedule();
    }
    const decode = { key, p: h.part, x: h.x, y: h.y, t: h.tileTwipWidth, hit: false };
    this.decoding.add(decode);
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
    } finally {
      this.decoding.delete(decode);
    }
    if (h.part !== this.currentPart || h.mode !== this.currentMode) return bitmap.close();
    // Newer than what was on screen even when stale: shown, and asked for again.
    const old = this.tiles.get(key);
    old?.bitmap.close();
    this.tiles.set(key, { bitmap, wid: h.wid, stale: stale || decode.hit, part: h.part, x: h.x, y: h.y, t: h.tileTwipWidth });
    this.paintedSinceFrame = true;
    this.schedule();
  }

  /** LibreOffice invalidated an area (twips) of a part (-1: every part), or all of it: those tiles are stale. */
  invalidate(part: number, x: number, y: number, w: number, h: number, all: boolean): void {
    const hit = (p: number, tx: number, ty: number, t: number) =>
      (part === -1 || p === part) && (all || (tx < x + w && x < tx + t && ty < y + h && y < ty + t));
    for (const tile of this.tiles.values()) if (hit(tile.part, tile.x, tile.y, tile.t)) tile.stale = true;
    // A tile painted before this change may still be on its way: it must not be kept as final.
    for (const key of this.pending.keys()) {
      const m = /^(-?\d+):\d+:(-?\d+),(-?\d+):(\d+)$/.exec(key);
      if (m && hit(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]))) this.staleInFlight.add(key);
    }
    for (const d of this.decoding) if (hit(d.p, d.x, d.y, d.t)) d.hit = true;
    // Ask for the stale visible tiles now, not at the next animation frame: typing shows up one frame sooner.
    // Invalidations of one burst (one WebSocket read) coalesce into one request.
    if (!this.requestQueued) {
      this.requestQueued = true;
      queueMicrotask(() => {
        this.requestQueued = false;
        this.requestTiles();
      });
    }
    this.schedule();
  }

  /** This view's caret (twips); `visible` false hides it (a rect of zeros keeps the last position). */
  setCursor(rect: Rect, visible: boolean): void {
    if (rect[2] !== 0 || rect[3] !== 0) this.cursor.rect = rect;
    this.cursor.visible = visible;
    this.placeCaret();
    this.onCaretMoved(this.cursor.rect);
  }

  /** The caret's last rectangle (twips). */
  get caretRect(): Rect {
    return this.cursor.rect;
  }

  /** The hidden input has (or lost) the focus: the caret shows (and blinks) only while focused. */
  setFocused(focused: boolean): void {
    this.focused = focused;
    this.placeCaret();
  }

  /** This view's selection rectangles (twips). */
  setSelection(rects: Rect[]): void {
    this.selection = rects;
    this.schedule();
  }

  /** This view's selection rectangles (twips). */
  get selectionRects(): Rect[] {
    return this.selection;
  }

  /** Another view's text selection, painted in its colour. */
  setOtherSelection(viewId: number, part: number, rects: Rect[], color: string): void {
    if (rects.length === 0) this.otherSelections.delete(viewId);
    else this.otherSelections.set(viewId, { part, rects, color });
    this.schedule();
  }

  /** Another view's selected shape (null: none), framed in its colour. */
  setOtherGraphic(viewId: number, part: number, rect: Rect | null, color: string): void {
    if (!rect) this.otherGraphics.delete(viewId);
    else this.otherGraphics.set(viewId, { part, rects: [rect], color });
    this.schedule();
  }

  /** Another user's caret, in their colour, with their name. */
  setOtherCursor(viewId: number, rect: Rect, visible: boolean, name: string, color: string): void {
    let el = this.others.get(viewId);
    if (!el) {
      el = Object.assign(document.createElement('div'), { className: 'ode-other-caret' });
      el.append(Object.assign(document.createElement('span'), { className: 'ode-other-name' }));
      this.layer.append(el);
      this.others.set(viewId, el);
    }
    (el.firstChild as HTMLSpanElement).textContent = name;
    el.style.setProperty('--c', color);
    el.hidden = !visible || (rect[2] === 0 && rect[3] === 0);
    el.dataset.rect = rect.join(',');
    this.position(el, rect);
  }

  /** Removes the carets and selections of views that left. */
  keepOthers(viewIds: Set<number>): void {
    for (const [id, el] of this.others) if (!viewIds.has(id)) el.remove(), this.others.delete(id);
    for (const id of this.otherSelections.keys()) if (!viewIds.has(id)) this.otherSelections.delete(id);
    for (const id of this.otherGraphics.keys()) if (!viewIds.has(id)) this.otherGraphics.delete(id);
    this.schedule();
  }

  /** Places `el` over `rect` (twips) in `layer`: left, top, height (min 8 px). */
  private position(el: HTMLElement, rect: Rect): void {
    const l = this.local(rect);
    el.style.left = `${l.left}px`;
    el.style.top = `${l.top}px`;
    el.style.height = `${Math.max(l.height, 8)}px`;
  }

  /** Listeners that re-place their overlays after a zoom (handles, frames). */
  private readonly overlayListeners = new Set<() => void>();
  onOverlaysMoved(fn: () => void): void {
    this.overlayListeners.add(fn);
  }

  private placeOverlays(): void {
    this.placeCaret();
    for (const el of this.others.values()) {
      const r = el.dataset.rect?.split(',').map(Number);
      if (r?.length === 4) this.position(el, r as Rect);
    }
    for (const fn of this.overlayListeners) fn();
  }

  private placeCaret(): void {
    this.caret.hidden = !this.cursor.visible || !this.focused || (this.cursor.rect[2] === 0 && this.cursor.rect[3] === 0);
    this.position(this.caret, this.cursor.rect);
    // Restart the blink so a moving caret is solid: a new animation name starts a new animation, without the forced
    // style and layout of the page that reading offsetWidth between two animation values costs on every caret move.
    this.blinkB = !this.blinkB;
    this.caret.style.animationName = this.blinkB ? 'ode-blink-b' : 'ode-blink';
  }

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => ((this.frame = 0), this.render()));
  }

  private dropTiles(which: (t: Tile) => boolean): void {
    for (const [key, tile] of this.tiles) {
      if (!which(tile)) continue;
      tile.bitmap.close();
      this.tiles.delete(key);
    }
  }

  private render(): void {
    // Before the document's size is known there is nothing to draw: the canvas is sized once the chrome around it
    // is in place (issue 15: each resize reallocates it and redraws everything).
    if (!this.docWidth) return;
    const dpr = window.devicePixelRatio || 1;
    const vw = this.scroller.clientWidth;
    const vh = this.scroller.clientHeight;
    if (this.canvas.width !== Math.round(vw * dpr) || this.canvas.height !== Math.round(vh * dpr)) {
      this.canvas.width = Math.round(vw * dpr);
      this.canvas.height = Math.round(vh * dpr);
      this.canvas.style.width = `${vw}px`;
      this.canvas.style.height = `${vh}px`;
    }
    const sl = this.scroller.scrollLeft;
    const st = this.scroller.scrollTop;
    this.canvas.style.transform = `translate(${sl}px, ${st}px)`;
    const ctx = this.canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, vw, vh);
    const s = this.scale;
    const ox = this.offsetX;
    const t = this.tileTwips;
    const left = (sl - ox) * s;
    const top = st * s;
    const right = Math.min(this.docWidth, left + vw * s);
    const bottom = Math.min(this.docHeight, top + vh * s);
    const draw = (tile: Tile) => ctx.drawImage(tile.bitmap, tile.x / s - sl + ox, tile.y / s - st, tile.t / s, tile.t / s);

    // The grid of the visible area, and a one-tile margin around it (prefetch).
    const x0 = Math.max(0, Math.floor(left / t) * t);
    const y0 = Math.max(0, Math.floor(top / t) * t);
    const visible: Tile[] = [];
    let complete = true;
    for (let y = y0; y < bottom; y += t) {
      for (let x = x0; x < right; x += t) {
        const tile = this.tiles.get(tileKey(this.currentPart, this.currentMode, x, y, t));
        if (tile) visible.push(tile);
        if (!tile || tile.stale) complete = false;
      }
    }
    // Until the grid is complete, tiles of another zoom (scaled) fill the holes.
    if (!complete)
      for (const tile of this.tiles.values())
        if (tile.t !== t && tile.part === this.currentPart && tile.x < right && tile.x + tile.t > left && tile.y < bottom && tile.y + tile.t > top) draw(tile);
    for (const tile of visible) draw(tile);

    this.paintSelections(ctx, s, sl - ox, st);
    if (this.paintedSinceFrame) {
      this.paintedSinceFrame = false;
      performance.mark('ode:painted');
      this.onPainted();
    }
    this.requestTiles();
    if (complete) this.collect(left, top, right, bottom, t);
  }

  /**
   * Asks for the missing visible tiles now rather than at the next animation frame (the first tiles of a document:
   * the frame may wait behind the messages that follow `status`).
   */
  requestNow(): void {
    this.requestTiles();
  }

  /**
   * Requests the visible tiles (row by row) and then the one-tile margin that are missing or stale and not already
   * asked for (PENDING_MS): new ones as `fresh`, stale ones as refreshes.
   */
  private requestTiles(): void {
    if (!this.docWidth) return;
    const vw = this.scroller.clientWidth;
    const vh = this.scroller.clientHeight;
    const s = this.scale;
    const t = this.tileTwips;
    const left = (this.scroller.scrollLeft - this.offsetX) * s;
    const top = this.scroller.scrollTop * s;
    const right = Math.min(this.docWidth, left + vw * s);
    const bottom = Math.min(this.docHeight, top + vh * s);
    const x0 = Math.max(0, Math.floor(left / t) * t);
    const y0 = Math.max(0, Math.floor(top / t) * t);
    const now = performance.now();
    // Asked too long ago: forgotten (asked again below when still in view).
    for (const [key, since] of this.pending) if (now - since >= PENDING_MS) this.pending.delete(key);
    const refresh: Array<[number, number]> = [];
    const fresh: Array<[number, number]> = [];
    const ask = (x: number, y: number) => {
      const key = tileKey(this.currentPart, this.currentMode, x, y, t);
      const tile = this.tiles.get(key);
      const since = this.pending.get(key);
      if ((tile && !tile.stale) || (since !== undefined && now - since < PENDING_MS)) return;
      this.pending.set(key, now);
      (tile ? refresh : fresh).push([x, y]);
    };
    // Visible first (row by row), then the margin.
    for (let y = y0; y < bottom; y += t) for (let x = x0; x < right; x += t) ask(x, y);
    for (let y = Math.max(0, y0 - t); y < Math.min(this.docHeight, bottom + t); y += t) {
      for (let x = Math.max(0, x0 - t); x < Math.min(this.docWidth, right + t); x += t) ask(x, y);
    }

    const px = this.tileDevicePx;
    if (fresh.length > 0) this.source.requestTiles(this.currentPart, this.currentMode, px, px, t, fresh, true);
    if (refresh.length > 0) this.source.requestTiles(this.currentPart, this.currentMode, px, px, t, refresh, false);
    // A tile that never comes (its paint failed or timed out in the daemon, the socket dropped it) is asked again:
    // without this nothing else may ever schedule a render, and the first paint (Document_Loaded) never happens.
    if (this.pending.size > 0 && !this.retryTimer) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.schedule();
      }, PENDING_MS + 100);
    }
  }

  /** Drops tiles of other zooms, and the farthest ones beyond MAX_TILES (the grid on screen is complete). */
  private collect(left: number, top: number, right: number, bottom: number, t: number): void {
    this.dropTiles((tile) => tile.t !== t);
    if (this.tiles.size <= MAX_TILES) return;
    const cx = (left + right) / 2;
    const cy = (top + bottom) / 2;
    const far = [...this.tiles.values()].sort((a, b) => Math.hypot(b.x - cx, b.y - cy) - Math.hypot(a.x - cx, a.y - cy));
    const drop = new Set(far.slice(0, this.tiles.size - MAX_TILES));
    this.dropTiles((tile) => drop.has(tile));
  }

  private paintSelections(ctx: CanvasRenderingContext2D, s: number, left: number, top: number): void {
    const box = (r: Rect) => [r[0] / s - left, r[1] / s - top, r[2] / s, r[3] / s] as const;
    ctx.save();
    for (const o of this.otherSelections.values()) {
      if (o.part !== this.currentPart) continue;
      ctx.globalAlpha = 0.25;
      ctx.fillStyle = o.color;
      for (const r of o.rects) ctx.fillRect(...box(r));
    }
    for (const o of this.otherGraphics.values()) {
      if (o.part !== this.currentPart) continue;
      ctx.globalAlpha = 1;
      ctx.strokeStyle = o.color;
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 3]);
      for (const r of o.rects) ctx.strokeRect(...box(r));
    }
    ctx.setLineDash([]);
    ctx.globalAlpha = 0.3;
    ctx.fillStyle = this.accent;
    for (const r of this.selection) ctx.fillRect(...box(r));
    ctx.restore();
  }
}
