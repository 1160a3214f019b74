import { describe, expect, it } from 'vitest';
import { pageAt, parseRects } from './redline-pages.ts';

describe('LOK rectangles and pages', () => {
  it('parses "x, y, w, h; ..." (twips) and skips junk', () => {
    expect(parseRects('284, 284, 12240, 15840; 284, 16408, 12240, 15840')).toEqual([
      { x: 284, y: 284, w: 12240, h: 15840 },
      { x: 284, y: 16408, w: 12240, h: 15840 },
    ]);
    expect(parseRects('')).toEqual([]);
    expect(parseRects('1, 2, 3')).toEqual([]);
  });
  it('a point belongs to the last page whose top is above it (the gap between pages counts to the page above)', () => {
    const pages = parseRects('284, 284, 12240, 15840; 284, 16408, 12240, 15840');
    expect(pageAt(pages, 3000)).toBe(1);
    expect(pageAt(pages, 16200)).toBe(1);
    expect(pageAt(pages, 16408)).toBe(2);
    expect(pageAt(pages, 40000)).toBe(2);
  });
});
