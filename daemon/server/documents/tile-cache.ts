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
 * its part (twips). Bounded: the oldest tiles go first past `maxTiles`.
 */
export class TileCache {
  private readonly tiles = new Map<string, CachedTile & TileKey>();
  private nextWid = 1;

  constructor(private readonly maxTiles = 4096) {}

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
    this.tiles.delete(id);
    const entry = { ...k, png, wid: this.nextWid++ };
    this.tiles.set(id, entry);
    if (this.tiles.size > this.maxTiles) this.tiles.delete(this.tiles.keys().next().value!);
    return entry;
  }

  /** Drops the tiles of `part` (every part when -1) that intersect the rectangle, or all of them when `all`. */
  invalidate(part: number, x: number, y: number, width: number, height: number, all: boolean): void {
    for (const [id, t] of this.tiles) {
      if (part !== -1 && t.part !== part) continue;
      if (all || (t.x < x + width && x < t.x + t.tileTwipWidth && t.y < y + height && y < t.y + t.tileTwipHeight)) this.tiles.delete(id);
    }
  }

  /** Drops everything (the document was reloaded). */
  clear(): void {
    this.tiles.clear();
  }

  /** Tiles held. */
  get size(): number {
    return this.tiles.size;
  }
}
