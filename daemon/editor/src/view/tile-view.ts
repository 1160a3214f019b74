import type { Rect, TileHeader } from '../../../protocol/editor.ts';
import type { DocumentView } from '../core/app.ts';
import { type PaintedSelection, RenderLoop } from './render-loop.ts';
import { PENDING_MS, TileStore } from './tile-store.ts';
import { type Grid, MAX_ZOOM, MIN_ZOOM, tilesWithMargin, Viewport, visibleTiles } from './viewport.ts';

export { MAX_ZOOM, MIN_ZOOM, TWIPS_PER_PX } from './viewport.ts';

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

/**
 * The document as canvas tiles (issue 5 "Document view"): a scrollable area the size of the document (grown ahead
 * of the user for spreadsheets), a canvas over its visible part painted from cached tiles at devicePixelRatio.
 * Only visible tiles and a one-tile margin are requested; an invalidated tile stays on screen until its new version
 * arrives (no flicker) and is never kept as final; tiles far away or of another zoom are dropped (memory bound).
 * Zooming scales the old tiles until those of the new zoom come. Selections (this view's and others') are painted
 * over the tiles; carets, handles and names are DOM elements in `layer` (document px). Twips in the document,
 * CSS px on screen. The parts: tile-store.ts (tiles and requests), viewport.ts (geometry, the visible grid),
 * render-loop.ts (the frames); the DOM overlays are here.
 */
export class TileView implements DocumentView {
  readonly scroller: HTMLDivElement;
  /** The scrolled content: overlays positioned in document px (see `local`). */
  readonly layer: HTMLDivElement;
  private readonly caret: HTMLDivElement;
  private readonly viewport: Viewport;
  private readonly store = new TileStore();
  private readonly loop: RenderLoop;
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
  private zoomTimer: ReturnType<typeof setTimeout> | undefined;
  private areaTimer: ReturnType<typeof setTimeout> | undefined;
  private selection: Rect[] = [];
  private readonly otherSelections = new Map<number, PaintedSelection>();
  private readonly otherGraphics = new Map<number, PaintedSelection>();
  private cursor: { rect: Rect; visible: boolean } = { rect: [0, 0, 0, 0], visible: false };
  private focused = false;
  private readonly others = new Map<number, HTMLDivElement>();
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
    const canvas = Object.assign(document.createElement('canvas'), { className: 'ode-canvas' });
    canvas.setAttribute('aria-hidden', 'true');
    this.caret = Object.assign(document.createElement('div'), { className: 'ode-caret' });
    this.caret.hidden = true;
    this.layer.append(this.caret);
    this.scroller.append(canvas, this.layer);
    host.append(this.scroller);
    this.viewport = new Viewport(this.scroller, this.layer);
    this.loop = new RenderLoop(canvas, {
      viewport: this.viewport,
      store: this.store,
      shown: () => ({ part: this.currentPart, mode: this.currentMode }),
      selections: () => ({ others: this.otherSelections.values(), graphics: this.otherGraphics.values(), own: this.selection, accent: this.accent }),
      framePainted: (grid, complete) => this.framePainted(grid, complete),
    });
    this.scroller.addEventListener('scroll', () => (this.viewport.grow(), this.schedule(), this.viewportChanged()));
    new ResizeObserver(() => (this.viewport.resize(), this.schedule(), this.viewportChanged())).observe(this.scroller);
    this.refreshTheme();
  }

  /** The zoom shown (1 = 100 %). */
  get zoom(): number {
    return this.viewport.zoom;
  }

  /** The part shown (sheet, slide, page; 0-based). */
  get part(): number {
    return this.currentPart;
  }

  /** Spreadsheets: the scroll area runs ahead of the document (LibreOffice grows it as the visible area nears its end). */
  get growable(): boolean {
    return this.viewport.growable;
  }

  set growable(on: boolean) {
    this.viewport.growable = on;
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
    this.areaTimer = setTimeout(() => this.viewport.docWidth && this.source.visibleAreaChanged(this.visibleArea()), 120);
  }

  /** Twips rectangle to px relative to the scroller's visible top-left corner. */
  toView(rect: Rect): { left: number; top: number; width: number; height: number } {
    return this.viewport.toView(rect);
  }

  /** Twips rectangle to px in `layer` (the scrolled content). */
  local(rect: Rect): { left: number; top: number; width: number; height: number } {
    return this.viewport.local(rect);
  }

  /** The visible area in twips. */
  visibleArea(): { x: number; y: number; width: number; height: number } {
    return this.viewport.visibleArea();
  }

  /** Scrolls so that `rect` (twips) is visible, with a small margin. */
  scrollIntoView(rect: Rect): void {
    this.viewport.scrollIntoView(rect);
  }

  /** Set by input.ts: focuses the hidden text input. */
  focus: () => void = () => this.scroller.focus({ preventScroll: true });

  /** Twips a tile covers at the zoom tiles are asked at. */
  get tileTwips(): number {
    return this.viewport.tileTwips;
  }

  /** The edit mode shown (presentations: 0 slides, 1 master slides, 2 notes; 0 otherwise). */
  get mode(): number {
    return this.currentMode;
  }

  /** Shows part `part` of a document `width` x `height` twips, in edit mode `mode` (presentations; unchanged when absent). */
  setDocument(part: number, width: number, height: number, mode = this.currentMode): void {
    if (part !== this.currentPart || mode !== this.currentMode) this.store.clear();
    this.currentPart = part;
    this.currentMode = mode;
    this.viewport.docWidth = width;
    this.viewport.docHeight = height;
    this.viewport.resize();
    this.schedule();
  }

  /**
   * Sets the zoom (1 = 100 %, clamped to 25-400 %), keeping the document point under `anchor` (client px; default
   * the view's centre) where it is. The old tiles are drawn scaled until those of the new zoom arrive; with
   * `settle` (a wheel or pinch gesture) the new tiles are asked for once the gesture pauses.
   */
  setZoom(zoom: number, anchor?: { clientX: number; clientY: number }, settle = false): void {
    const z = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
    const vp = this.viewport;
    if (!vp.docWidth) {
      vp.zoom = vp.tileZoom = z;
      this.source.zoomChanged(vp.tileDevicePx, vp.tileTwips);
      return;
    }
    vp.zoomAround(z, anchor);
    clearTimeout(this.zoomTimer);
    const apply = () => {
      if (vp.tileZoom === vp.zoom) return;
      vp.tileZoom = vp.zoom;
      this.source.zoomChanged(vp.tileDevicePx, vp.tileTwips);
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
    this.source.zoomChanged(this.viewport.tileDevicePx, this.viewport.tileTwips);
    this.source.visibleAreaChanged(this.visibleArea());
  }

  /** Screen point (client px) to document twips. */
  toTwips(clientX: number, clientY: number): [number, number] {
    return this.viewport.toTwips(clientX, clientY);
  }

  /** A tile arrived: decode it, keep it (stale if it was asked before an invalidation), repaint. */
  async tileArrived(h: TileHeader, png: Uint8Array): Promise<void> {
    const got = await this.store.arrived(h, png, () => ({ part: this.currentPart, mode: this.currentMode }));
    if (got === 'dropped') return;
    if (got === 'kept') this.paintedSinceFrame = true;
    this.schedule();
  }

  /** LibreOffice invalidated an area (twips) of a part (-1: every part), or all of it: those tiles are stale. */
  invalidate(part: number, x: number, y: number, w: number, h: number, all: boolean): void {
    this.store.invalidate(part, x, y, w, h, all);
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
    this.loop.schedule();
  }

  /** After a frame: tells who waits for new tiles on screen, asks for the missing ones, drops far or other-zoom tiles. */
  private framePainted(grid: Grid, complete: boolean): void {
    if (this.paintedSinceFrame) {
      this.paintedSinceFrame = false;
      performance.mark('ode:painted');
      this.onPainted();
    }
    this.requestTiles(grid);
    if (complete) this.store.collect(grid.t, (grid.left + grid.right) / 2, (grid.top + grid.bottom) / 2);
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
   * asked for (PENDING_MS): new ones as `fresh`, stale ones as refreshes. `grid`: the frame's, when called from one.
   */
  private requestTiles(grid?: Grid): void {
    const vp = this.viewport;
    if (!vp.docWidth) return;
    const g = grid ?? vp.grid();
    const cells = function* () {
      yield* visibleTiles(g);
      yield* tilesWithMargin(g, vp.docWidth, vp.docHeight);
    };
    const { fresh, refresh } = this.store.toAsk(this.currentPart, this.currentMode, g.t, cells(), performance.now());
    const px = vp.tileDevicePx;
    if (fresh.length > 0) this.source.requestTiles(this.currentPart, this.currentMode, px, px, g.t, fresh, true);
    if (refresh.length > 0) this.source.requestTiles(this.currentPart, this.currentMode, px, px, g.t, refresh, false);
    // A tile that never comes (its paint failed or timed out in the daemon, the socket dropped it) is asked again:
    // without this nothing else may ever schedule a render, and the first paint (Document_Loaded) never happens.
    if (this.store.waiting > 0 && !this.retryTimer) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.schedule();
      }, PENDING_MS + 100);
    }
  }
}
