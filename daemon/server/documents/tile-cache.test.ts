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
