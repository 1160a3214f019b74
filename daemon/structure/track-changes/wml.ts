/**
 * Small WordprocessingML (ECMA-376 Part 1, 17) element helpers for the tracked-changes reader: w: children by
 * name, block-order questions, and the change elements of a paragraph mark or a table row.
 */
import type { ReadElement } from '../xml/read-tree.ts';
import { NS } from '../xml/dom.ts';

export const W = NS.w;

/** The revision elements that mark a paragraph mark or a table row as inserted or deleted. */
export const MARK_CHANGES: ReadonlySet<string> = new Set(['ins', 'del', 'moveFrom', 'moveTo']);

/** The first w:`name` child of `el`. */
export function childW(el: ReadElement, name: string): ReadElement | undefined {
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as ReadElement).namespaceURI === W && (n as ReadElement).localName === name) return n as ReadElement;
  }
  return undefined;
}

/** The w:`name` children of `el`. */
export function childrenW(el: ReadElement, name: string): ReadElement[] {
  const out: ReadElement[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as ReadElement).namespaceURI === W && (n as ReadElement).localName === name) out.push(n as ReadElement);
  }
  return out;
}

/** The w: element children of `el`. */
export function childElementsW(el: ReadElement): ReadElement[] {
  const out: ReadElement[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as ReadElement).namespaceURI === W) out.push(n as ReadElement);
  return out;
}

/** The last of the w:ins/w:del/w:moveFrom/w:moveTo children of a w:rPr or w:trPr (writerfilter keeps one). */
export function lastMarkChange(props: ReadElement | undefined): ReadElement | undefined {
  const marks = props ? childElementsW(props).filter((c) => MARK_CHANGES.has(c.localName ?? '')) : [];
  return marks[marks.length - 1];
}

/** The next w: sibling element of `el` (a paragraph, table or block control), if any. */
export function nextBlock(el: ReadElement): ReadElement | undefined {
  for (let n = el.nextSibling; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as ReadElement).namespaceURI === W) return n as ReadElement;
  }
  return undefined;
}

/** True when no paragraph, table or block content control follows `el` among its siblings. */
export function isLastBlock(el: ReadElement): boolean {
  for (let n = el.nextSibling; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const name = (n as ReadElement).localName;
    if (name === 'p' || name === 'tbl' || name === 'sdt' || name === 'customXml') return false;
  }
  return true;
}

/** True when a cell holds no text at all (no w:t, w:delText, w:tab, w:br, w:sym, drawing in it). */
export function isEmptyCell(tc: ReadElement): boolean {
  for (const name of ['t', 'delText', 'tab', 'br', 'sym', 'drawing']) if (tc.getElementsByTagNameNS(W, name).length > 0) return false;
  return true;
}
