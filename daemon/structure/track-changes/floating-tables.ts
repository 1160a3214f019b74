/**
 * Which floating tables (w:tblPr/w:tblpPr, ECMA-376 Part 1 17.4.58) LibreOffice 7.4's DOCX import turns into text
 * frames. It matters for tracked changes because frame content sits before the body in Writer's nodes, so the
 * redlines of such a table come first in the redline table (RA001).
 */
import type { ReadElement } from '../xml/read-tree.ts';
import { W, childW, childrenW } from './wml.ts';

/** Page width, height and side margins of a section, in twips. */
export interface Page {
  width: number;
  height: number;
  left: number;
  right: number;
}

/** The page of a w:sectPr (w:pgSz, w:pgMar), if it gives size and margins. */
export function pageOf(sectPr: ReadElement): Page | undefined {
  const pgSz = childW(sectPr, 'pgSz');
  const pgMar = childW(sectPr, 'pgMar');
  if (!pgSz || !pgMar) return undefined;
  const n = (el: ReadElement, name: string): number => Number(el.getAttributeNS(W, name)) || 0;
  return { width: n(pgSz, 'w'), height: n(pgSz, 'h'), left: n(pgMar, 'left'), right: n(pgMar, 'right') };
}

/** writerfilter's margin: a table this close to the text area width gets no wrapping in Word (twips). */
const WRAP_MARGIN = 469;

/**
 * writerfilter SectionPropertyMap::FloatingTableConversion: a floating table becomes a frame when text could fit
 * next to it, i.e. its width (the sum of its w:gridCol) plus 469 twips is under the text area width (or, placed
 * from the page edge, under the page width less the smaller margin); not when placed absolutely in the
 * bottom-left quarter of the page. Non-floating tables never do.
 */
export function becomesFrame(tbl: ReadElement, page: Page): boolean {
  const tblPr = childW(tbl, 'tblPr');
  const tblpPr = tblPr ? childW(tblPr, 'tblpPr') : undefined;
  if (!tblpPr) return false;
  const grid = childW(tbl, 'tblGrid');
  const width = grid ? childrenW(grid, 'gridCol').reduce((sum, c) => sum + (Number(c.getAttributeNS(W, 'w')) || 0), 0) : 0;
  const horz = tblpPr.getAttributeNS(W, 'horzAnchor') || 'page';
  const vert = tblpPr.getAttributeNS(W, 'vertAnchor') || 'page';
  if (horz === 'page' && vert === 'page' && !tblpPr.getAttributeNS(W, 'tblpXSpec') && !tblpPr.getAttributeNS(W, 'tblpYSpec')) {
    const x = Number(tblpPr.getAttributeNS(W, 'tblpX')) || 0;
    const y = Number(tblpPr.getAttributeNS(W, 'tblpY')) || 0;
    if (x < page.width / 2 && y > page.height / 2) return false;
  }
  if (width + WRAP_MARGIN < page.width - page.left - page.right) return true;
  return horz === 'page' && width + WRAP_MARGIN < page.width - Math.min(page.left, page.right);
}
