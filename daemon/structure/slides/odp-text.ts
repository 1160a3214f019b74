/**
 * The text of ODP shapes (ODF 1.3 Part 3, 5.1 text:p / text:h, 5.3 text:list, 6 paragraph elements content) read
 * the way LibreOffice's import reads it, and written back.
 *
 * Reading follows LibreOffice's ODF import (xmloff XMLTextImportHelper::InsertString): white space (space, tab,
 * CR, LF) in character data collapses to one space, white space at the start of a paragraph is dropped, a
 * trailing space is kept; text:s gives its spaces literally. Tabs, line breaks and fields are "features" in
 * LibreOffice's edit engine: its paragraph strings, which the slides extraction reports, hold U+0001 for each
 * (the Collabora documentation shows a line break as "\u0001").
 */
import type { Document, Element } from '@xmldom/xmldom';
import { NS } from '../xml/dom.ts';
import { readChildren, type ReadElement, type ReadNode } from '../xml/read-tree.ts';

/** The character a tab, line break or field stands for in a paragraph string (LibreOffice's CH_FEATURE). */
export const FEATURE = '\u0001';

/**
 * One piece of a paragraph: plain text, or an atom (text:tab, text:line-break, a field) that counts as one
 * FEATURE character. `spans` are the text:style-name of the enclosing text:span elements, outermost first;
 * `link` the enclosing text:a, if any.
 */
export interface Piece<E extends ReadElement = Element> {
  text: string;
  atom?: E;
  spans: string[];
  link?: E;
}

/** Inline elements that are one feature character in LibreOffice's edit engine. */
export const ATOMS: ReadonlySet<string> = new Set(['tab', 'line-break']);
/** text: elements that are fields (ODF 1.3 Part 3, 7 Text fields) as far as Impress uses them. */
export const FIELDS: ReadonlySet<string> = new Set([
  'page-number',
  'page-count',
  'date',
  'time',
  'file-name',
  'author-name',
  'author-initials',
  'title',
  'subject',
  'sender-firstname',
  'sender-lastname',
  'sender-initials',
  'page-continuation',
  'measure',
  'variable-get',
  'variable-set',
  'user-defined',
  'sequence',
  'expression',
  'text-input',
  'description',
  'creator',
  'creation-date',
  'creation-time',
  'keywords',
  'chapter',
  'sheet-name',
  'template-name',
  'bookmark-ref',
  'reference-ref',
  'sequence-ref',
]);
/** Elements whose content is not paragraph text. */
export const SKIPPED: ReadonlySet<string> = new Set([
  'annotation',
  'annotation-end',
  'note',
  'bookmark',
  'bookmark-start',
  'bookmark-end',
  'reference-mark',
  'reference-mark-start',
  'reference-mark-end',
  'soft-page-break',
  'change',
  'change-start',
  'change-end',
  'toc-mark',
  'alphabetical-index-mark',
  'user-index-mark',
]);

/**
 * The pieces of a paragraph (text:p or text:h), white space resolved as LibreOffice's import does. Adjacent text
 * with the same spans and link is one piece. Reads a DOM paragraph (the editor) or a read tree's (the extraction);
 * atoms and links are elements of the paragraph's type.
 */
export function readPieces<E extends ReadElement>(p: E): Piece<E>[] {
  const out: Piece<E>[] = [];
  const state = { ignoreLeadingSpace: true };
  const push = (text: string, spans: string[], link: E | undefined, atom?: E) => {
    const last = out[out.length - 1];
    if (!atom && last && !last.atom && last.link === link && sameSpans(last.spans, spans)) last.text += text;
    else out.push({ text, atom, spans, link });
  };
  const walk = (parent: E, spans: string[], link: E | undefined) => {
    for (let n: ReadNode | null = parent.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 || n.nodeType === 4) {
        let s = '';
        for (const ch of n.nodeValue ?? '') {
          if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
            if (!state.ignoreLeadingSpace) s += ' ';
            state.ignoreLeadingSpace = true;
          } else {
            s += ch;
            state.ignoreLeadingSpace = false;
          }
        }
        if (s) push(s, spans, link);
        continue;
      }
      if (n.nodeType !== 1) continue;
      const el = n as E;
      const local = el.localName ?? '';
      if (el.namespaceURI === NS.text) {
        if (local === 's') {
          const c = Math.max(1, Number(el.getAttributeNS(NS.text, 'c') ?? '1') || 1);
          push(' '.repeat(c), spans, link);
          state.ignoreLeadingSpace = false;
        } else if (ATOMS.has(local) || FIELDS.has(local)) {
          push(FEATURE, spans, link, el);
          state.ignoreLeadingSpace = false;
        } else if (local === 'span') {
          walk(el, [...spans, el.getAttributeNS(NS.text, 'style-name') ?? ''], link);
        } else if (local === 'a') {
          walk(el, spans, el);
        } else if (!SKIPPED.has(local)) {
          walk(el, spans, link);
        }
      } else if (el.namespaceURI === NS.presentation && (local === 'header' || local === 'footer' || local === 'date-time')) {
        push(FEATURE, spans, link, el);
        state.ignoreLeadingSpace = false;
      } else if (el.namespaceURI === NS.office && local === 'annotation') {
        // comments are not paragraph text
      } else if (el.namespaceURI === NS.draw) {
        // a shape anchored in the text is not paragraph text
      } else {
        walk(el, spans, link);
      }
    }
  };
  walk(p, [], undefined);
  return out;
}

function sameSpans(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** The plain text of a paragraph as LibreOffice's edit engine holds it (features as U+0001). */
export function paragraphText(p: ReadElement): string {
  let s = '';
  for (const piece of readPieces(p)) s += piece.text;
  return s;
}

/**
 * The paragraph elements (text:p, text:h) of a text container (draw:text-box, a shape, a table cell), in order,
 * including those inside text:list / text:list-item / text:list-header at any depth.
 */
export function paragraphsOf<E extends ReadElement>(container: E): E[] {
  const out: E[] = [];
  const walk = (parent: E) => {
    for (const el of readChildren(parent, NS.text)) {
      const local = el.localName;
      if (local === 'p' || local === 'h') out.push(el);
      else if (local === 'list' || local === 'list-item' || local === 'list-header') walk(el);
    }
  };
  walk(container);
  return out;
}

/**
 * Rewrites the content of paragraph `p` from pieces: consecutive pieces with the same spans and link share one
 * text:span / text:a; nested spans must have been merged into one style name before (at most one span each).
 * Spaces that the import would collapse or drop are written as text:s.
 */
export function writePieces(p: Element, pieces: readonly Piece[]): void {
  const dom = p.ownerDocument!;
  while (p.firstChild) p.removeChild(p.firstChild);
  let ignoreLeadingSpace = true;
  let linkEl: Element | undefined;
  let linkSrc: Element | undefined;
  let target: Element = p;
  for (const piece of pieces) {
    if (piece.text === '' && !piece.atom) continue;
    // the link wrapper
    if (piece.link !== linkSrc) {
      linkSrc = piece.link;
      linkEl = piece.link ? (piece.link.cloneNode(false) as Element) : undefined;
      if (linkEl) p.appendChild(linkEl);
    }
    const parent = linkEl ?? p;
    const style = piece.spans[piece.spans.length - 1];
    if (style) {
      target = dom.createElementNS(NS.text, 'text:span');
      target.setAttributeNS(NS.text, 'text:style-name', style);
      parent.appendChild(target);
    } else {
      target = parent;
    }
    if (piece.atom) {
      target.appendChild(piece.atom.cloneNode(true));
      ignoreLeadingSpace = false;
      continue;
    }
    let literal = '';
    let spaces = 0;
    const flushLiteral = () => {
      if (literal) target.appendChild(dom.createTextNode(literal));
      literal = '';
    };
    const flushSpaces = () => {
      if (spaces === 0) return;
      flushLiteral();
      const s = dom.createElementNS(NS.text, 'text:s');
      if (spaces > 1) s.setAttributeNS(NS.text, 'text:c', String(spaces));
      target.appendChild(s);
      spaces = 0;
    };
    for (const ch of piece.text) {
      if (ch === ' ') {
        if (ignoreLeadingSpace) spaces++;
        else {
          flushSpaces();
          literal += ' ';
          ignoreLeadingSpace = true;
        }
      } else {
        flushSpaces();
        literal += ch;
        ignoreLeadingSpace = false;
      }
    }
    flushSpaces();
    flushLiteral();
    // a run of spaces written as text:s leaves the import's flag off, as a literal space leaves it on
    if (target.lastChild && (target.lastChild as Element).localName === 's') ignoreLeadingSpace = false;
  }
}

/** Splits pieces at character offset `at` (UTF-16 units); returns [before, after]. Atoms count as one unit. */
export function splitPieces(pieces: readonly Piece[], at: number): [Piece[], Piece[]] {
  const before: Piece[] = [];
  const after: Piece[] = [];
  let pos = 0;
  for (const piece of pieces) {
    const len = piece.text.length;
    if (pos + len <= at) before.push(piece);
    else if (pos >= at) after.push(piece);
    else {
      const cut = at - pos;
      before.push({ ...piece, text: piece.text.slice(0, cut) });
      after.push({ ...piece, text: piece.text.slice(cut) });
    }
    pos += len;
  }
  return [before, after];
}

/** Turns inserted text (no paragraph breaks) into pieces with the given spans and link; tabs become text:tab. */
export function textToPieces(dom: Document, text: string, spans: string[], link: Element | undefined): Piece[] {
  const out: Piece[] = [];
  let buf = '';
  for (const ch of text) {
    if (ch === '\t') {
      if (buf) out.push({ text: buf, spans, link });
      buf = '';
      out.push({ text: FEATURE, atom: dom.createElementNS(NS.text, 'text:tab'), spans, link });
    } else if (ch !== '\r') buf += ch;
  }
  if (buf) out.push({ text: buf, spans, link });
  return out;
}
