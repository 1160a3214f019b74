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
export class TileCache {
  private readonly tiles = new Map<string, CachedTile & TileKey>();
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

  /** Stores a freshly painted tile and returns it with its new wire id. */
  put(k: TileKey, png: Uint8Array): CachedTile {
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
    for (const [id, t] of this.tiles) {
      if (part !== -1 && t.part !== part) continue;
      if (all || (t.x < x + width && x < t.x + t.tileTwipWidth && t.y < y + height && y < t.y + t.tileTwipHeight)) this.drop(id);
    }
  }

  /** Drops everything (the document was reloaded). */
  clear(): void {
    this.tiles.clear();
    this.bytes = 0;
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
