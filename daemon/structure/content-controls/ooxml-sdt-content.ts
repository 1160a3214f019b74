import type { Element } from '@xmldom/xmldom';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import { childrenThroughAlternates, type ReadElement } from '../xml/read-tree.ts';
import { detachInDocumentOrder } from './document-order.ts';

/**
 * The text of a w:sdtContent and its replacement (ECMA-376 Part 1 17.5.2: CT_SdtContentBlock, CT_SdtContentRun,
 * CT_SdtContentRow, CT_SdtContentCell). Reading: w:t, w:tab ("\t"), w:br and w:cr ("\n"), w:noBreakHyphen
 * (U+2011), w:softHyphen (U+00AD), w:sym (its character); paragraphs joined by "\n". Property elements, deleted
 * text, field codes, drawings and the fallback branch of mc:AlternateContent are not text as shown.
 */

const SKIP = new Set([
  'pPr',
  'rPr',
  'sdtPr',
  'sdtEndPr',
  'tcPr',
  'trPr',
  'tblPr',
  'tblGrid',
  'delText',
  'instrText',
  'delInstrText',
  'drawing',
  'pict',
  'object',
  'footnoteReference',
  'endnoteReference',
  'commentReference',
  'tabs',
]);

/** The text of an sdtContent as shown: see the module comment. */
export function sdtContentText(content: ReadElement): string {
  const state = { out: '', paragraphs: 0 };
  walkText(content, state);
  return state.out;
}

function walkText(el: ReadElement, state: { out: string; paragraphs: number }): void {
  for (const c of childrenThroughAlternates(el)) {
    if (c.namespaceURI !== NS.w) continue;
    const name = c.localName ?? '';
    if (SKIP.has(name)) continue;
    switch (name) {
      case 't':
        state.out += c.textContent ?? '';
        break;
      case 'tab':
        state.out += '\t';
        break;
      case 'br':
      case 'cr':
        state.out += '\n';
        break;
      case 'noBreakHyphen':
        state.out += '\u2011';
        break;
      case 'softHyphen':
        state.out += '\u00ad';
        break;
      case 'sym': {
        const code = parseInt(c.getAttributeNS(NS.w, 'char') ?? '', 16);
        // Symbol-font characters are stored in the private-use area F0xx; the shown glyph is the low byte.
        if (Number.isFinite(code)) state.out += String.fromCodePoint(code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code);
        break;
      }
      case 'p':
        if (state.paragraphs++ > 0) state.out += '\n';
        walkText(c, state);
        break;
      default:
        walkText(c, state);
    }
  }
}

/**
 * The run properties to keep when the text is replaced: those of the first w:r that holds text (or of the first
 * run at all), as a deep copy; undefined when there is none.
 */
export function firstRunProperties(content: Element): Element | undefined {
  const runs = content.getElementsByTagNameNS(NS.w, 'r');
  let fallback: Element | undefined;
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i];
    const rPr = firstChild(r, NS.w, 'rPr');
    if (!fallback && rPr) fallback = rPr;
    if (firstChild(r, NS.w, 't')) return rPr ? (rPr.cloneNode(true) as Element) : undefined;
  }
  return fallback ? (fallback.cloneNode(true) as Element) : undefined;
}

/** A w:r with optional run properties and `text`, tabs as w:tab and line breaks as w:br (17.3.3). */
export function buildRun(owner: Element, text: string, rPr: Element | undefined): Element {
  const doc = owner.ownerDocument!;
  const r = doc.createElementNS(NS.w, 'w:r');
  if (rPr) r.appendChild(rPr.cloneNode(true));
  const pieces = text.split(/(\t|\r\n|\n|\r)/);
  for (const piece of pieces) {
    if (piece === '') continue;
    if (piece === '\t') r.appendChild(doc.createElementNS(NS.w, 'w:tab'));
    else if (piece === '\n' || piece === '\r' || piece === '\r\n') r.appendChild(doc.createElementNS(NS.w, 'w:br'));
    else {
      const t = doc.createElementNS(NS.w, 'w:t');
      if (/^\s|\s$|\s\s/.test(piece)) t.setAttributeNS('http://www.w3.org/XML/1998/namespace', 'xml:space', 'preserve');
      t.appendChild(doc.createTextNode(piece));
      r.appendChild(t);
    }
  }
  return r;
}

function removeChildren(el: Element, keep?: (c: Element) => boolean): void {
  for (let n = el.firstChild; n; ) {
    const next = n.nextSibling;
    if (!(n.nodeType === 1 && keep?.(n as Element))) el.removeChild(n);
    n = next;
  }
}

/** Makes paragraph `p` hold only its w:pPr and one run with `text` (none when empty). */
function fillParagraph(p: Element, text: string, rPr: Element | undefined): void {
  removeChildren(p, (c) => c.namespaceURI === NS.w && c.localName === 'pPr');
  if (text !== '') p.appendChild(buildRun(p, text, rPr));
}

/**
 * Replaces the shown text of a w:sdt's content by `text`, keeping the first run's formatting:
 * - run level (content of runs): one w:r, tabs and line breaks inside it;
 * - block level (paragraphs, tables): the first paragraph's w:pPr is kept and each line becomes a paragraph, so
 *   the text reads back unchanged (paragraphs are joined by "\n");
 * - row and cell level: the cells stay (a table needs them); the first cell gets the text, the other cells keep
 *   one empty paragraph each.
 * Nested content controls inside the replaced content go with it.
 */
export function replaceSdtContent(content: Element, text: string, rPr: Element | undefined): void {
  const kids = childElements(content);
  const level = contentLevel(content);
  const markers = unpairedMarkers(content);
  if (level === 'run') {
    removeChildren(content);
    for (const m of markers) content.appendChild(m);
    if (text !== '') content.appendChild(buildRun(content, text, rPr));
    return;
  }
  if (level === 'block') {
    fillBlock(content, kids, text, rPr);
  } else {
    const cells = level === 'cell' ? childElements(content, NS.w, 'tc') : childElements(content, NS.w, 'tr').flatMap((tr) => childElements(tr, NS.w, 'tc'));
    cells.forEach((tc, i) => {
      const paragraphs = childElements(tc).filter((c) => !(c.namespaceURI === NS.w && c.localName === 'tcPr'));
      fillBlock(tc, paragraphs, i === 0 ? text : '', rPr);
    });
  }
  // Range markers whose other end lies outside go into the first paragraph, after its properties.
  const p = content.getElementsByTagNameNS(NS.w, 'p')[0];
  if (p) {
    const pPr = firstChild(p, NS.w, 'pPr');
    const before = pPr ? pPr.nextSibling : p.firstChild;
    for (const m of markers) p.insertBefore(m, before);
  }
}

/** Range markers (17.13.6 bookmarks, 17.13.4 comment ranges, 17.13.7 permissions): start name to end name. */
const RANGE_PAIRS: Readonly<Record<string, string>> = { bookmarkStart: 'bookmarkEnd', commentRangeStart: 'commentRangeEnd', permStart: 'permEnd' };

/**
 * The range markers inside `content` whose partner (same w:id) is outside it, detached and in document order:
 * removing them with the content would leave the other end alone, so they are kept. Pairs wholly inside go.
 */
function unpairedMarkers(content: Element): Element[] {
  const found: Element[] = [];
  const ids = new Map<string, number>();
  for (const [start, end] of Object.entries(RANGE_PAIRS)) {
    for (const name of [start, end]) {
      const list = content.getElementsByTagNameNS(NS.w, name);
      for (let i = 0; i < list.length; i++) {
        const key = `${start}:${list[i].getAttributeNS(NS.w, 'id') ?? ''}`;
        ids.set(key, (ids.get(key) ?? 0) + 1);
        found.push(list[i]);
      }
    }
  }
  const kept = found.filter((m) => {
    const start = RANGE_PAIRS[m.localName ?? ''] ? m.localName! : Object.keys(RANGE_PAIRS).find((k) => RANGE_PAIRS[k] === m.localName)!;
    return ids.get(`${start}:${m.getAttributeNS(NS.w, 'id') ?? ''}`) === 1;
  });
  return detachInDocumentOrder(content, kept);
}

/** Replaces the block-level children `blocks` of `container` by paragraphs, one per line of `text`. */
function fillBlock(container: Element, blocks: Element[], text: string, rPr: Element | undefined): void {
  const doc = container.ownerDocument!;
  const template = blocks.find((b) => b.namespaceURI === NS.w && b.localName === 'p') ?? doc.createElementNS(NS.w, 'w:p');
  const next = blocks.length > 0 ? blocks[blocks.length - 1].nextSibling : null;
  for (const b of blocks) container.removeChild(b);
  text.split(/\r\n|\n|\r/).forEach((line, i) => {
    const p = i === 0 ? template : (template.cloneNode(true) as Element);
    fillParagraph(p, line, rPr);
    container.insertBefore(p, next);
  });
}

/** Where an sdt stands: `run` (CT_SdtRun), `block` (CT_SdtBlock), `row` (CT_SdtRow) or `cell` (CT_SdtCell). */
export function contentLevel(content: Element): 'run' | 'block' | 'row' | 'cell' {
  const sdt = content.parentNode as Element | null;
  const parent = sdt?.parentNode as Element | null;
  const where = parent && parent.namespaceURI === NS.w ? parent.localName : '';
  if (where === 'tbl') return 'row';
  if (where === 'tr') return 'cell';
  if (
    where === 'p' ||
    where === 'hyperlink' ||
    where === 'smartTag' ||
    where === 'fldSimple' ||
    where === 'ins' ||
    where === 'del' ||
    where === 'moveTo' ||
    where === 'moveFrom'
  )
    return 'run';
  if (where === 'sdtContent') return contentLevel(parent!);
  // customXml can wrap any level: decide from the content itself.
  for (const c of childElements(content, NS.w)) {
    if (c.localName === 'p' || c.localName === 'tbl') return 'block';
    if (c.localName === 'tr') return 'row';
    if (c.localName === 'tc') return 'cell';
    if (c.localName === 'r') return 'run';
  }
  return where === 'body' || where === 'tc' || where === 'hdr' || where === 'ftr' || where === 'footnote' || where === 'endnote' || where === 'txbxContent'
    ? 'block'
    : 'run';
}
