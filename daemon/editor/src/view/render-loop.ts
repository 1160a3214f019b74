import type { Rect } from '../../../protocol/editor.ts';
import type { Tile, TileStore } from './tile-store.ts';
import { type Grid, type Viewport, visibleTiles } from './viewport.ts';

/** A selection painted over the tiles (twips), in a colour: another view's text selection or selected shape. */
export interface PaintedSelection {
  part: number;
  rects: Rect[];
  color: string;
}

/** What the render loop reads of the view each frame. */
export interface RenderSource {
  readonly viewport: Viewport;
  readonly store: TileStore;
  /** The part and edit mode shown. */
  shown(): { part: number; mode: number };
  /** Other views' text selections (filled) and selected shapes (framed), this view's selection, and its colour. */
  selections(): { others: Iterable<PaintedSelection>; graphics: Iterable<PaintedSelection>; own: Rect[]; accent: string };
  /** After each painted frame: its grid, and whether every visible tile was there and current. */
  framePainted(grid: Grid, complete: boolean): void;
}

/**
 * The render loop of the document view: at most one frame per animation frame (`schedule`), each painting the
 * canvas (kept over the visible part of the scroller, sized at devicePixelRatio) from the held tiles of the
 * visible grid, tiles of another zoom scaled into the holes until the grid is complete, then the selections.
 */
export class RenderLoop {
  private frame = 0;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly source: RenderSource,
  ) {}

  /** Paints at the next animation frame (once, however often it is called before). */
  schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => ((this.frame = 0), this.render()));
  }

  private render(): void {
    const { viewport, store } = this.source;
    // Before the document's size is known there is nothing to draw: the canvas is sized once the chrome around it
    // is in place (issue 15: each resize reallocates it and redraws everything).
    if (!viewport.docWidth) return;
    const g = viewport.grid();
    const dpr = window.devicePixelRatio || 1;
    const vw = g.width;
    const vh = g.height;
    if (this.canvas.width !== Math.round(vw * dpr) || this.canvas.height !== Math.round(vh * dpr)) {
      this.canvas.width = Math.round(vw * dpr);
      this.canvas.height = Math.round(vh * dpr);
      this.canvas.style.width = `${vw}px`;
      this.canvas.style.height = `${vh}px`;
    }
    const sl = g.scrollLeft;
    const st = g.scrollTop;
    this.canvas.style.transform = `translate(${sl}px, ${st}px)`;
    const ctx = this.canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, vw, vh);
    const s = g.scale;
    const ox = g.offsetX;
    const draw = (tile: Tile) => ctx.drawImage(tile.bitmap, tile.x / s - sl + ox, tile.y / s - st, tile.t / s, tile.t / s);

    const { part, mode } = this.source.shown();
    const visible: Tile[] = [];
    let complete = true;
    for (const [x, y] of visibleTiles(g)) {
      const tile = store.get(part, mode, x, y, g.t);
      if (tile) visible.push(tile);
      if (!tile || tile.stale) complete = false;
    }
    // Until the grid is complete, tiles of another zoom (scaled) fill the holes.
    if (!complete)
      for (const tile of store.all())
        if (tile.t !== g.t && tile.part === part && tile.x < g.right && tile.x + tile.t > g.left && tile.y < g.bottom && tile.y + tile.t > g.top) draw(tile);
    for (const tile of visible) draw(tile);

    this.paintSelections(ctx, s, sl - ox, st, part);
    this.source.framePainted(g, complete);
  }

  private paintSelections(ctx: CanvasRenderingContext2D, s: number, left: number, top: number, part: number): void {
    const { others, graphics, own, accent } = this.source.selections();
    const box = (r: Rect) => [r[0] / s - left, r[1] / s - top, r[2] / s, r[3] / s] as const;
    ctx.save();
    for (const o of others) {
      if (o.part !== part) continue;
      ctx.globalAlpha = 0.25;
      ctx.fillStyle = o.color;
      for (const r of o.rects) ctx.fillRect(...box(r));
    }
    for (const o of graphics) {
      if (o.part !== part) continue;
      ctx.globalAlpha = 1;
      ctx.strokeStyle = o.color;
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 3]);
      for (const r of o.rects) ctx.strokeRect(...box(r));
    }
    ctx.setLineDash([]);
    ctx.globalAlpha = 0.3;
    ctx.fillStyle = accent;
    for (const r of own) ctx.fillRect(...box(r));
    ctx.restore();
  }
}
