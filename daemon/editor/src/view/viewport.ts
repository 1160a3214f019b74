import type { Rect } from '../../../protocol/editor.ts';

/** Twips per CSS pixel at 100 %: 1440 twips an inch, 96 CSS px an inch. */
export const TWIPS_PER_PX = 15;
/** A tile's side in CSS px; painted at devicePixelRatio for crisp text. */
const TILE_PX = 256;
/** Zoom bounds (1 = 100 %). */
export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 4;

/**
 * One frame's visible area and the tile grid over it, computed once per frame (the paint and the tile requests
 * share it). Twips unless said otherwise.
 */
export interface Grid {
  /** The visible area's left and top edge (the left is negative while a narrow page is centred). */
  left: number;
  top: number;
  /** The visible area's right and bottom edge, clipped to the document. */
  right: number;
  bottom: number;
  /** The top-left corner of the first visible tile (multiples of `t`, never negative). */
  x0: number;
  y0: number;
  /** A tile's side at the zoom tiles are asked at. */
  t: number;
  /** Twips per CSS px at the zoom shown. */
  scale: number;
  /** The scroller's scroll offsets, the left margin that centres a narrow page, the view's size: CSS px. */
  scrollLeft: number;
  scrollTop: number;
  offsetX: number;
  width: number;
  height: number;
}

/** The top-left corners (twips) of the tiles of the visible area, row by row. */
export function* visibleTiles(g: Grid): Generator<[number, number]> {
  for (let y = g.y0; y < g.bottom; y += g.t) for (let x = g.x0; x < g.right; x += g.t) yield [x, y];
}

/** The visible tiles and a one-tile margin around them (the prefetch), inside a document `width` x `height` twips, row by row. */
export function* tilesWithMargin(g: Grid, width: number, height: number): Generator<[number, number]> {
  for (let y = Math.max(0, g.y0 - g.t); y < Math.min(height, g.bottom + g.t); y += g.t) {
    for (let x = Math.max(0, g.x0 - g.t); x < Math.min(width, g.right + g.t); x += g.t) yield [x, y];
  }
}

/**
 * The viewport arithmetic of the document view: the document's size (twips), the zoom shown and the zoom tiles
 * are asked at, and the scroller's geometry; converts between twips in the document, CSS px in the scrolled
 * content (`layer`) and client px, and sizes the scroll area. Holds no tiles and paints nothing.
 */
export class Viewport {
  /** The document (the part shown) in twips; 0 before its size is known. */
  docWidth = 0;
  docHeight = 0;
  /** Spreadsheets: the scroll area runs ahead of the document (LibreOffice grows it as the visible area nears its end). */
  growable = false;
  /** The zoom shown (1 = 100 %). */
  zoom = 1;
  /** The zoom tiles are asked at: lags `zoom` while a gesture goes on. */
  tileZoom = 1;

  constructor(
    readonly scroller: HTMLElement,
    private readonly layer: HTMLElement,
  ) {}

  /** Twips per CSS px at the zoom shown. */
  get scale(): number {
    return TWIPS_PER_PX / this.zoom;
  }

  /** Left margin (CSS px) that centres a page narrower than the view. */
  get offsetX(): number {
    return this.growable ? 0 : Math.max(0, (this.scroller.clientWidth - this.docWidth / this.scale) / 2);
  }

  /** Twips a tile covers at the zoom tiles are asked at. */
  get tileTwips(): number {
    return Math.round((TILE_PX * TWIPS_PER_PX) / this.tileZoom);
  }

  /** Tile side in device px. */
  get tileDevicePx(): number {
    return Math.round(TILE_PX * (window.devicePixelRatio || 1));
  }

  /** This frame's visible area and tile grid (see Grid). */
  grid(): Grid {
    const s = this.scale;
    const t = this.tileTwips;
    const offsetX = this.offsetX;
    const { scrollLeft, scrollTop, clientWidth: width, clientHeight: height } = this.scroller;
    const left = (scrollLeft - offsetX) * s;
    const top = scrollTop * s;
    return {
      left,
      top,
      right: Math.min(this.docWidth, left + width * s),
      bottom: Math.min(this.docHeight, top + height * s),
      x0: Math.max(0, Math.floor(left / t) * t),
      y0: Math.max(0, Math.floor(top / t) * t),
      t,
      scale: s,
      scrollLeft,
      scrollTop,
      offsetX,
      width,
      height,
    };
  }

  /** Twips rectangle to px in `layer` (the scrolled content). */
  local(rect: Rect): { left: number; top: number; width: number; height: number } {
    const s = this.scale;
    return { left: rect[0] / s + this.offsetX, top: rect[1] / s, width: rect[2] / s, height: rect[3] / s };
  }

  /** Twips rectangle to px relative to the scroller's visible top-left corner. */
  toView(rect: Rect): { left: number; top: number; width: number; height: number } {
    const l = this.local(rect);
    return { left: l.left - this.scroller.scrollLeft, top: l.top - this.scroller.scrollTop, width: l.width, height: l.height };
  }

  /** Screen point (client px) to document twips. */
  toTwips(clientX: number, clientY: number): [number, number] {
    const r = this.scroller.getBoundingClientRect();
    const s = this.scale;
    return [Math.round((clientX - r.left + this.scroller.scrollLeft - this.offsetX) * s), Math.round((clientY - r.top + this.scroller.scrollTop) * s)];
  }

  /** The visible area in twips (LOK setClientVisibleArea). */
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

  /** Sizes the scroll area: the document at the zoom shown (spreadsheets: at least a screen past what is seen). */
  resize(): void {
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
  grow(): void {
    if (!this.growable) return;
    const near =
      this.scroller.scrollTop + 1.5 * this.scroller.clientHeight > this.layer.offsetHeight ||
      this.scroller.scrollLeft + 1.5 * this.scroller.clientWidth > this.layer.offsetWidth;
    if (near) this.resize();
  }

  /**
   * Shows zoom `zoom` (already clamped), keeping the document point under `anchor` (client px; default the view's
   * centre) where it is on screen: resizes the scroll area and scrolls. The tile zoom is left to the caller.
   */
  zoomAround(zoom: number, anchor?: { clientX: number; clientY: number }): void {
    const r = this.scroller.getBoundingClientRect();
    const ax = anchor ? anchor.clientX - r.left : this.scroller.clientWidth / 2;
    const ay = anchor ? anchor.clientY - r.top : this.scroller.clientHeight / 2;
    const [px, py] = this.toTwips(r.left + ax, r.top + ay);
    this.zoom = zoom;
    this.resize();
    this.scroller.scrollLeft = px / this.scale + this.offsetX - ax;
    this.scroller.scrollTop = py / this.scale - ay;
  }
}
