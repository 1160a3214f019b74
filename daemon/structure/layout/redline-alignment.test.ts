import { describe, expect, it } from 'vitest';
import { alignRedlinePages } from './redline-alignment.ts';

const r = (type: string, author: string, page = 0) => ({ type, author, dateTime: '2020-01-01T00:00:00', page });

describe('alignRedlinePages', () => {
  it('same length: by index', () => {
    expect(alignRedlinePages([r('Insert', 'a'), r('Delete', 'b')], [r('Insert', 'a', 1), r('Delete', 'b', 3)])).toEqual([1, 3]);
  });
  it('the kit has a redline the engine does not: skipped by the longest common subsequence', () => {
    const items = [r('Insert', 'a'), r('Delete', 'b'), r('Format', 'c')];
    const kit = [r('Insert', 'a', 1), r('Insert', 'x', 2), r('Delete', 'b', 2), r('Format', 'c', 4)];
    expect(alignRedlinePages(items, kit)).toEqual([1, 2, 4]);
  });
  it('an item the kit lacks takes the page of the redline before it', () => {
    const items = [r('Insert', 'a'), r('Delete', 'z'), r('Format', 'c')];
    const kit = [r('Insert', 'a', 2), r('Format', 'c', 3)];
    expect(alignRedlinePages(items, kit)).toEqual([2, 2, 3]);
  });
  it('nothing measured: page 1', () => {
    expect(alignRedlinePages([r('Insert', 'a')], [])).toEqual([1]);
  });
});
