/** One cached tile: its PNG and its wire id (editor.md, "Tiles"). */
export interface CachedTile {
  png: Uint8Array;
  wid: number;
}

/** A tile's identity: part, mode, the zoom (tile size in px and in twips) and its position in twips. */
export interface TileKey {
  part: number;
  mode: number;
  width: number;
  height: number;
  tileTwipWidth: number;
  tileTwipHeight: number;
  x: number;
  y: number;
  /** The WatermarkText painted into the tile (per user): a tile with one is never served to a view with another or none. */
  watermark?: string;
}

/**
 * Painted tiles of one document, shared by its views, so a second view asking for the same area is served
 * without painting again (issue 4). Invalidation drops every tile that intersects the invalidated rectangle of
 * its part (twips). Bounded in count and in bytes (the daemon's memory budget, issue 19: ten open documents
 * within 150 MB): the oldest tiles go first past `maxTiles` or `maxBytes` of PNG data. 8 MB holds about ten
 * screens of a 1920x1080 window at pixel ratio 2 (some 40 tiles of about 20 kB each per screen).
 */
/**
 * A paint in progress (`TileCache.begin`): an invalidation of its area before `put` makes the painted tile
 * uncacheable, as the kit may have painted it before LibreOffice applied the change it reports.
 */
export interface PaintTicket {
  readonly key: TileKey;
  stale: boolean;
}

export class TileCache {
  private readonly tiles = new Map<string, CachedTile & TileKey>();
  /**
   * Paints in progress. Without them a tile painted while an invalidation of its area arrived was cached as current
   * and served (`unchanged` to the view that asked again) until the zoom changed (issue 23: "Titl" for "Title").
   */
  private readonly painting = new Set<PaintTicket>();
  private nextWid = 1;
  private bytes = 0;

  /**
   * @param maxTiles most tiles held
   * @param maxBytes most PNG bytes held
   */
  constructor(
    private readonly maxTiles = 4096,
    private readonly maxBytes = 8 * 1024 * 1024,
  ) {}

  private static id(k: TileKey): string {
    return `${k.part}:${k.mode}:${k.width}x${k.height}:${k.tileTwipWidth}x${k.tileTwipHeight}:${k.x},${k.y}${k.watermark ? `:wm=${k.watermark}` : ''}`;
  }

  /** The cached tile, if any. */
  get(k: TileKey): CachedTile | undefined {
    return this.tiles.get(TileCache.id(k));
  }

  /** Starts a paint of `k`: pass the ticket to `put` (or `end` when the paint failed). */
  begin(k: TileKey): PaintTicket {
    const ticket = { key: k, stale: false };
    this.painting.add(ticket);
    return ticket;
  }

  /** Forgets a paint that produced no tile. */
  end(ticket: PaintTicket): void {
    this.painting.delete(ticket);
  }

  /**
   * Stores a freshly painted tile and returns it with its new wire id. With the `ticket` of its paint, a tile whose
   * area was invalidated during the paint is returned (with a new wire id) but not cached: the next request paints.
   */
  put(k: TileKey, png: Uint8Array, ticket?: PaintTicket): CachedTile {
    if (ticket) {
      this.painting.delete(ticket);
      if (ticket.stale) return { png, wid: this.nextWid++ };
    }
    const id = TileCache.id(k);
    this.drop(id);
    const entry = { ...k, png, wid: this.nextWid++ };
    this.tiles.set(id, entry);
    this.bytes += png.byteLength;
    while (this.tiles.size > 1 && (this.tiles.size > this.maxTiles || this.bytes > this.maxBytes)) this.drop(this.tiles.keys().next().value!);
    return entry;
  }

  /** Drops the tiles of `part` (every part when -1) that intersect the rectangle, or all of them when `all`. */
  invalidate(part: number, x: number, y: number, width: number, height: number, all: boolean): void {
    const hit = (t: TileKey) =>
      (part === -1 || t.part === part) && (all || (t.x < x + width && x < t.x + t.tileTwipWidth && t.y < y + height && y < t.y + t.tileTwipHeight));
    for (const [id, t] of this.tiles) if (hit(t)) this.drop(id);
    for (const ticket of this.painting) if (hit(ticket.key)) ticket.stale = true;
  }

  /** Drops everything (the document was reloaded). */
  clear(): void {
    this.tiles.clear();
    this.bytes = 0;
    for (const ticket of this.painting) ticket.stale = true;
  }

  /** Tiles held. */
  get size(): number {
    return this.tiles.size;
  }

  /** PNG bytes held. */
  get byteSize(): number {
    return this.bytes;
  }

  private drop(id: string): void {
    const t = this.tiles.get(id);
    if (!t) return;
    this.bytes -= t.png.byteLength;
    this.tiles.delete(id);
  }
}
