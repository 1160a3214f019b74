import { describe, expect, it } from 'vitest';
import { TileCache, type TileKey } from './tile-cache.ts';

const key = (x: number, part = 0): TileKey => ({ part, mode: 0, width: 256, height: 256, tileTwipWidth: 3840, tileTwipHeight: 3840, x, y: 0 });
const png = (bytes: number) => new Uint8Array(bytes);

describe('TileCache bounds', () => {
  it('drops the oldest tiles past the byte bound, and keeps its byte count right through replace and invalidate', () => {
    const c = new TileCache(100, 10_000);
    for (let i = 0; i < 5; i++) c.put(key(i * 3840), png(3000));
    // 5 x 3000 > 10000: only the three newest fit.
    expect(c.size).toBe(3);
    expect(c.byteSize).toBe(9000);
    expect(c.get(key(0))).toBeUndefined();
    expect(c.get(key(4 * 3840))).toBeDefined();
    c.put(key(4 * 3840), png(1000)); // a repaint replaces, it does not add
    expect(c.byteSize).toBe(7000);
    c.invalidate(0, 4 * 3840, 0, 10, 10, false);
    expect(c.byteSize).toBe(6000);
    c.clear();
    expect(c.byteSize).toBe(0);
  });

  it('drops the oldest past the count bound; a single tile larger than the byte bound is still served', () => {
    const c = new TileCache(2, 1000);
    c.put(key(0), png(10));
    c.put(key(3840), png(10));
    c.put(key(7680), png(10));
    expect(c.size).toBe(2);
    expect(c.get(key(0))).toBeUndefined();
    const big = c.put(key(0, 1), png(5000));
    expect(c.get(key(0, 1))).toBe(big);
    expect(c.size).toBe(1);
  });
});

describe('TileCache paints in progress (issue 23: "Titl" shown for "Title")', () => {
  it('does not cache a tile whose area was invalidated while it was painted, and caches one painted after', () => {
    const c = new TileCache();
    const ticket = c.begin(key(0));
    // LibreOffice reports the next key's change while the kit still paints the tile of the previous one.
    c.invalidate(0, 100, 100, 50, 50, false);
    const painted = c.put(key(0), png(10), ticket);
    expect(painted.png.byteLength).toBe(10);
    expect(c.get(key(0))).toBeUndefined();
    // The next request paints again; nothing invalidated meanwhile: cached, with a newer wire id.
    const again = c.put(key(0), png(11), c.begin(key(0)));
    expect(again.wid).toBeGreaterThan(painted.wid);
    expect(c.get(key(0))).toBe(again);
  });

  it('keeps a tile painted while another part or another area was invalidated; forgets failed paints', () => {
    const c = new TileCache();
    const t1 = c.begin(key(0));
    c.invalidate(1, 0, 0, 100_000, 100_000, false); // another part
    c.invalidate(0, 3840 * 5, 0, 100, 100, false); // another area of the same part
    c.put(key(0), png(10), t1);
    expect(c.get(key(0))?.png.byteLength).toBe(10);
    const t2 = c.begin(key(3840));
    c.end(t2);
    c.invalidate(-1, 0, 0, 0, 0, true);
    expect(t2.stale).toBe(false); // no longer watched
    const t3 = c.begin(key(3840));
    c.clear();
    c.put(key(3840), png(5), t3);
    expect(c.get(key(3840))).toBeUndefined();
  });
});
