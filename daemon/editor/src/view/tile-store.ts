import type { TileHeader } from '../../../protocol/editor.ts';

/** Tiles kept at most (a 256 px tile at dpr 2 is 1 MiB of bitmap): far-away ones are dropped first. */
const MAX_TILES = 240;
/** A request unanswered for this long is asked again (the answer was lost, e.g. the kit restarted). */
export const PENDING_MS = 8000;

/** One decoded tile: its bitmap and where it lies (part, top-left corner and side in twips). */
export interface Tile {
  bitmap: ImageBitmap;
  /** The daemon's wire id of this version (an `unchanged` answer names it). */
  wid: number;
  /** Invalidated: drawn until its new version arrives, and asked for again. */
  stale: boolean;
  part: number;
  x: number;
  y: number;
  t: number;
}

/** Where a tile lies: part, top-left corner and side (twips). */
interface Place {
  part: number;
  x: number;
  y: number;
  t: number;
}

const tileKey = (part: number, mode: number, x: number, y: number, t: number) => `${part}:${mode}:${x},${y}:${t}`;

/**
 * The tiles of the document view and their requests: the decoded tiles by part, mode, place and side; the tiles
 * asked for and not answered yet (asked again after PENDING_MS); those asked before an invalidation hit them, and
 * those being decoded (both kept stale when they come). An invalidated tile stays until its new version arrives
 * (no flicker) and is never kept as final. Twips throughout; knows nothing of the screen.
 */
export class TileStore {
  private readonly tiles = new Map<string, Tile>();
  /** Requested tiles -> when (performance.now() ms) and where. */
  private readonly pending = new Map<string, Place & { since: number }>();
  /** Asked before an invalidation that hit them. */
  private readonly staleInFlight = new Set<string>();
  /**
   * Tiles being decoded (key and whether an invalidation hit them meanwhile): a tile that left `pending` and waits
   * for createImageBitmap must still become stale when LibreOffice invalidates its area before it is kept (issue 23:
   * "Titl" shown for "Title" until a zoom change, the invalidation of the last key arriving during the decode).
   */
  private readonly decoding = new Set<Place & { hit: boolean }>();

  /** The tile of `part` in `mode` at (`x`, `y`) of side `t`, if held. */
  get(part: number, mode: number, x: number, y: number, t: number): Tile | undefined {
    return this.tiles.get(tileKey(part, mode, x, y, t));
  }

  /** Every tile held (of any part, mode or side). */
  all(): IterableIterator<Tile> {
    return this.tiles.values();
  }

  /** How many requests wait for an answer. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Drops every tile and forgets the requests (another part or edit mode is shown). */
  clear(): void {
    this.drop(() => true);
    this.pending.clear();
    this.staleInFlight.clear();
  }

  /**
   * A tile's answer: `unchanged` (the daemon says our copy of that wire id is current: no longer stale, unless
   * invalidated meanwhile), or a PNG, decoded and kept (stale if it was asked before an invalidation, or one hit it
   * during the decode) when `shown()` still shows its part and mode.
   * @returns 'unchanged', 'kept' (a new bitmap to paint) or 'dropped' (of a part or mode no longer shown).
   */
  async arrived(h: TileHeader, png: Uint8Array, shown: () => { part: number; mode: number }): Promise<'unchanged' | 'kept' | 'dropped'> {
    const key = tileKey(h.part, h.mode, h.x, h.y, h.tileTwipWidth);
    this.pending.delete(key);
    const stale = this.staleInFlight.delete(key);
    const have = this.tiles.get(key);
    if (h.encoding === 'unchanged') {
      if (have && have.wid === h.wid && !stale) have.stale = false;
      return 'unchanged';
    }
    const decode = { part: h.part, x: h.x, y: h.y, t: h.tileTwipWidth, hit: false };
    this.decoding.add(decode);
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
    } finally {
      this.decoding.delete(decode);
    }
    const now = shown();
    if (h.part !== now.part || h.mode !== now.mode) {
      bitmap.close();
      return 'dropped';
    }
    // Newer than what was on screen even when stale: shown, and asked for again.
    this.tiles.get(key)?.bitmap.close();
    this.tiles.set(key, { bitmap, wid: h.wid, stale: stale || decode.hit, part: h.part, x: h.x, y: h.y, t: h.tileTwipWidth });
    return 'kept';
  }

  /**
   * LibreOffice invalidated an area (twips) of a part (-1: every part), or all of it: the tiles there are stale,
   * and those asked for or being decoded will be kept stale when they come (painted before this change).
   */
  invalidate(part: number, x: number, y: number, w: number, h: number, all: boolean): void {
    const hit = (p: Place) => (part === -1 || p.part === part) && (all || (p.x < x + w && x < p.x + p.t && p.y < y + h && y < p.y + p.t));
    for (const tile of this.tiles.values()) if (hit(tile)) tile.stale = true;
    for (const [key, asked] of this.pending) if (hit(asked)) this.staleInFlight.add(key);
    for (const d of this.decoding) if (hit(d)) d.hit = true;
  }

  /**
   * The tiles of `cells` (top-left corners, twips, side `t`, of `part` in `mode`) to ask for now, in order: those
   * missing (`fresh`: the daemon must paint them) and those stale (`refresh`), leaving out those asked for less
   * than PENDING_MS ago; marks them asked at `now` (ms). Requests older than PENDING_MS are forgotten first.
   */
  toAsk(
    part: number,
    mode: number,
    t: number,
    cells: Iterable<[number, number]>,
    now: number,
  ): { fresh: Array<[number, number]>; refresh: Array<[number, number]> } {
    for (const [key, asked] of this.pending) if (now - asked.since >= PENDING_MS) this.pending.delete(key);
    const fresh: Array<[number, number]> = [];
    const refresh: Array<[number, number]> = [];
    for (const [x, y] of cells) {
      const key = tileKey(part, mode, x, y, t);
      const tile = this.tiles.get(key);
      if ((tile && !tile.stale) || this.pending.has(key)) continue;
      this.pending.set(key, { part, x, y, t, since: now });
      (tile ? refresh : fresh).push([x, y]);
    }
    return { fresh, refresh };
  }

  /** Drops the tiles of other sides than `t` (another zoom), then the farthest from (`cx`, `cy`) beyond MAX_TILES. */
  collect(t: number, cx: number, cy: number): void {
    this.drop((tile) => tile.t !== t);
    if (this.tiles.size <= MAX_TILES) return;
    const far = [...this.tiles.values()].sort((a, b) => Math.hypot(b.x - cx, b.y - cy) - Math.hypot(a.x - cx, a.y - cy));
    const drop = new Set(far.slice(0, this.tiles.size - MAX_TILES));
    this.drop((tile) => drop.has(tile));
  }

  private drop(which: (t: Tile) => boolean): void {
    for (const [key, tile] of this.tiles) {
      if (!which(tile)) continue;
      tile.bitmap.close();
      this.tiles.delete(key);
    }
  }
}
