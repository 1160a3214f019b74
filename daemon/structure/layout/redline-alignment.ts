/**
 * Matching LibreOffice's redline table (measured by a kit, with the page each change starts on) to the engine's
 * tracked change items, so each item gets LibreOffice's page (spec: Tracked change item, startPageNumber).
 */

/** A tracked change as both sides describe it. */
export interface RedlineKey {
  type: string;
  author: string;
  dateTime: string;
}

/** One redline of LibreOffice's table with its 1-based start page. */
export interface LayoutRedline extends RedlineKey {
  page: number;
}

const same = (a: RedlineKey, b: RedlineKey) => a.type === b.type && a.author === b.author && a.dateTime === b.dateTime;

/**
 * The page of each item, in item order. When both lists have the same length they correspond by index (both are
 * in document order). Otherwise they are aligned on (type, author, dateTime) as a longest common subsequence; an
 * item LibreOffice has no redline for takes the page of the redlines around it when those agree (pages only grow
 * in document order, so it is exact then), else the page of the preceding one.
 * @returns one page per item (1 when nothing is known, e.g. an empty redline table).
 */
export function alignRedlinePages(items: readonly RedlineKey[], redlines: readonly LayoutRedline[]): number[] {
  if (items.length === redlines.length) return redlines.map((r) => r.page);
  const n = items.length;
  const m = redlines.length;
  // LCS table over (type, author, dateTime): sizes are small (a document's tracked changes).
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = same(items[i], redlines[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const pages: Array<number | undefined> = new Array(n).fill(undefined);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (same(items[i], redlines[j])) pages[i++] = redlines[j++].page;
    else if (lcs[i + 1][j] >= lcs[i][j + 1]) i++;
    else j++;
  }
  return pages.map((p, i) => {
    if (p !== undefined) return p;
    const before = pages.slice(0, i).findLast((x) => x !== undefined);
    const after = pages.slice(i + 1).find((x) => x !== undefined);
    return before ?? after ?? 1;
  });
}
