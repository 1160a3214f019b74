/**
 * The TextObjectEditor of one ODP shape's text (deck.ts): paragraphs are the text:p / text:h of the shape's text
 * container (draw:text-box, or the shape itself for draw:custom-shape and the other draw shapes), lists included.
 * Character formatting goes into automatic text styles on text:span, paragraph formatting into automatic
 * paragraph styles, bullets and numbering into text:list with an automatic list style (ODF 1.3 Part 3, 5.3).
 */
import type { Element, Node } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import type { CharFormat, ParaFormat, TextObjectEditor, TextPosition, TextRange } from './deck.ts';
import { NS, childElements } from '../xml/dom.ts';
import { type OdpStyles, charStateOf } from './odp-styles.ts';
import { type Piece, paragraphText, paragraphsOf, readPieces, splitPieces, textToPieces, writePieces } from './odp-text.ts';
import { domOf } from './part-reads.ts';

const CONTENT = 'content.xml';

const ALIGN: Record<NonNullable<ParaFormat['align']>, string> = { left: 'start', center: 'center', right: 'end', justify: 'justify' };

/** Edits the text of one shape. `shape` is the draw: element (its styles are read for the formatting in force). */
export class OdpTextEditor implements TextObjectEditor {
  private readonly doc: StructureDocument;
  private readonly container: Element;
  private readonly shape: Element;
  private readonly styles: OdpStyles;

  constructor(doc: StructureDocument, shape: Element, container: Element, styles: OdpStyles) {
    this.doc = doc;
    this.shape = shape;
    this.container = container;
    this.styles = styles;
  }

  /** The paragraph strings; an object without paragraphs has one empty paragraph, as in LibreOffice's editor. */
  paragraphs(): string[] {
    const paras = paragraphsOf(this.container).map(paragraphText);
    return paras.length > 0 ? paras : [''];
  }

  charFormatAt(pos: TextPosition): ReturnType<TextObjectEditor['charFormatAt']> {
    const p = paragraphsOf(this.container)[pos.paragraph];
    const chain: Array<[string, string | undefined]> = [
      ['graphic', this.shape.getAttribute('draw:style-name') ?? undefined],
      ['presentation', this.shape.getAttribute('presentation:style-name') ?? undefined],
      ['paragraph', this.shape.getAttribute('draw:text-style-name') ?? undefined],
    ];
    if (p) {
      chain.push(['paragraph', p.getAttribute('text:style-name') ?? undefined]);
      const pieces = readPieces(p);
      // the character at the position, or the one before it at the end of the paragraph
      const total = pieces.reduce((n, x) => n + x.text.length, 0);
      const at = Math.min(pos.offset, Math.max(0, total - 1));
      let n = 0;
      for (const piece of pieces) {
        if (at < n + piece.text.length) {
          for (const s of piece.spans) chain.push(['text', s]);
          break;
        }
        n += piece.text.length;
      }
    }
    return charStateOf(this.styles.textProps(chain));
  }

  paraFormatAt(paragraph: number): { bullet: boolean; numbering: boolean } {
    const p = paragraphsOf(this.container)[paragraph];
    if (!p) return { bullet: false, numbering: false };
    const kind = this.listKindOf(p);
    return { bullet: kind === 'bullet', numbering: kind === 'number' };
  }

  /** 'bullet' / 'number' when the paragraph is a list item of such a list (outline lists without a style: bullets). */
  private listKindOf(p: Element): 'bullet' | 'number' | undefined {
    const item = p.parentNode as Element | null;
    if (!item || item.namespaceURI !== NS.text || item.localName !== 'list-item') return undefined;
    let level = 0;
    let styleName: string | undefined;
    for (let n: Node | null = item; n && n !== this.container; n = n.parentNode) {
      const el = n as Element;
      if (el.localName === 'list' && el.namespaceURI === NS.text) {
        level++;
        styleName = el.getAttribute('text:style-name') || styleName;
      }
    }
    const kind = this.styles.listKind(styleName, level);
    // a list without a list style takes the presentation object's outline bullets
    return kind ?? (styleName ? undefined : 'bullet');
  }

  insertText(range: TextRange, text: string): TextPosition {
    const dom = domOf(this.doc, CONTENT);
    let paras = this.ensureParagraph();
    const { start, end } = ordered(range);
    const first = paras[start.paragraph];
    // delete the range
    const [head] = splitPieces(readPieces(first), start.offset);
    const last = paras[end.paragraph] ?? first;
    const [, tail] = splitPieces(readPieces(last), end.offset);
    for (let i = end.paragraph; i > start.paragraph; i--) removeParagraph(paras[i], this.container);
    // the inserted text takes the formatting of the character before it (or after it at the paragraph start)
    const ref = head[head.length - 1] ?? tail[0];
    const spans = ref ? ref.spans : [];
    const link = ref?.link;
    const lines = text.split('\n');
    let current = first;
    let pieces: Piece[] = [...head, ...textToPieces(dom, lines[0], spans, link)];
    let offset = lengthOf(pieces);
    let paragraph = start.paragraph;
    for (let i = 1; i < lines.length; i++) {
      writePieces(current, mergeSpans(pieces, this.styles));
      current = insertParagraphAfter(current);
      paragraph++;
      pieces = textToPieces(dom, lines[i], spans, link);
      offset = lengthOf(pieces);
    }
    writePieces(current, mergeSpans([...pieces, ...tail], this.styles));
    paras = paragraphsOf(this.container);
    this.doc.markChanged(CONTENT);
    return { paragraph, offset };
  }

  formatChars(range: TextRange, format: CharFormat): void {
    const { start, end } = ordered(range);
    if (start.paragraph === end.paragraph && start.offset === end.offset) return;
    const paras = paragraphsOf(this.container);
    for (let i = start.paragraph; i <= end.paragraph && i < paras.length; i++) {
      const p = paras[i];
      const pieces = readPieces(p);
      const from = i === start.paragraph ? start.offset : 0;
      const to = i === end.paragraph ? end.offset : lengthOf(pieces);
      if (to <= from) continue;
      const [before, rest] = splitPieces(pieces, from);
      const [middle, after] = splitPieces(rest, to - from);
      const changed = middle.map((piece) => ({ ...piece, spans: [this.styles.textStyle(piece.spans, format)] }));
      writePieces(p, mergeSpans([...before, ...changed, ...after], this.styles));
    }
    this.doc.markChanged(CONTENT);
  }

  formatParagraphs(first: number, last: number, format: ParaFormat): void {
    const paras = paragraphsOf(this.container);
    for (let i = Math.max(0, first); i <= last && i < paras.length; i++) {
      const p = paras[i];
      if (format.align) p.setAttribute('text:style-name', this.styles.paragraphStyle(p.getAttribute('text:style-name') || undefined, ALIGN[format.align]));
      if (format.bullet !== undefined) this.setList(p, format.bullet ? 'bullet' : undefined);
      if (format.numbering !== undefined) this.setList(p, format.numbering ? 'number' : undefined);
    }
    if (format.bullet !== undefined || format.numbering !== undefined) mergeAdjacentLists(this.container);
    this.doc.markChanged(CONTENT);
  }

  /** Puts paragraph `p` in a list of that kind, or takes it out of any list (kind undefined). */
  private setList(p: Element, kind: 'bullet' | 'number' | undefined): void {
    const top = isolate(p, this.container);
    if (kind === undefined) {
      if (top !== p) {
        this.container.insertBefore(p, top);
        this.container.removeChild(top);
      }
      return;
    }
    const style = this.styles.listStyle(kind);
    if (top === p) {
      const dom = p.ownerDocument!;
      const list = dom.createElementNS(NS.text, 'text:list');
      list.setAttribute('text:style-name', style);
      const item = dom.createElementNS(NS.text, 'text:list-item');
      this.container.insertBefore(list, p);
      list.appendChild(item);
      item.appendChild(p);
    } else {
      top.setAttribute('text:style-name', style);
    }
  }

  /** The paragraphs, with one empty text:p made when the container has none (an empty placeholder). */
  private ensureParagraph(): Element[] {
    const paras = paragraphsOf(this.container);
    if (paras.length > 0) return paras;
    const dom = this.container.ownerDocument!;
    const p = dom.createElementNS(NS.text, 'text:p');
    if (this.shape.getAttribute('presentation:class') === 'outline') {
      // outline paragraphs are list items: the outline style's bullets and levels apply (as LibreOffice writes them)
      const list = dom.createElementNS(NS.text, 'text:list');
      const item = dom.createElementNS(NS.text, 'text:list-item');
      list.appendChild(item);
      item.appendChild(p);
      this.container.appendChild(list);
    } else {
      // a custom shape's text precedes its draw:enhanced-geometry (ODF 1.3 Part 3, 10.6.1)
      const geometry = childElements(this.container, NS.draw, 'enhanced-geometry')[0] ?? null;
      this.container.insertBefore(p, geometry);
    }
    // text was given to the object: it is no longer an empty placeholder
    if (this.shape.getAttribute('presentation:placeholder') === 'true') this.shape.removeAttribute('presentation:placeholder');
    return [p];
  }
}

function ordered(range: TextRange): TextRange {
  const { start, end } = range;
  if (start.paragraph < end.paragraph || (start.paragraph === end.paragraph && start.offset <= end.offset)) return range;
  return { start: end, end: start };
}

function lengthOf(pieces: readonly Piece[]): number {
  return pieces.reduce((n, p) => n + p.text.length, 0);
}

/** Nested spans become one automatic style holding their merged properties (writePieces writes one span). */
function mergeSpans(pieces: Piece[], styles: OdpStyles): Piece[] {
  return pieces.map((p) => (p.spans.length > 1 ? { ...p, spans: [styles.textStyle(p.spans, {})] } : p));
}

/** A new empty paragraph after `p` (same element and style); in a list, a new list item after p's item. */
function insertParagraphAfter(p: Element): Element {
  const np = p.cloneNode(false) as Element;
  np.removeAttribute('xml:id');
  np.removeAttribute('text:id');
  const parent = p.parentNode as Element;
  if (parent.localName === 'list-item' && parent.namespaceURI === NS.text) {
    const item = parent.cloneNode(false) as Element;
    item.removeAttribute('xml:id');
    item.removeAttribute('text:start-value');
    item.appendChild(np);
    // what followed p in its item (nested lists) follows the new paragraph
    while (p.nextSibling) item.appendChild(p.nextSibling);
    parent.parentNode!.insertBefore(item, parent.nextSibling);
  } else {
    parent.insertBefore(np, p.nextSibling);
  }
  return np;
}

/** Removes a paragraph, and the list items and lists it leaves empty. */
function removeParagraph(p: Element, container: Element): void {
  let node: Element = p;
  let parent = node.parentNode as Element;
  parent.removeChild(node);
  while (
    parent !== container &&
    !hasElementChild(parent) &&
    (parent.localName === 'list-item' || parent.localName === 'list' || parent.localName === 'list-header')
  ) {
    node = parent;
    parent = node.parentNode as Element;
    parent.removeChild(node);
  }
}

function hasElementChild(el: Element): boolean {
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) return true;
  return false;
}

/**
 * Splits the lists around paragraph `p` so that the direct child of `container` holding it holds nothing else
 * (the other items move to copies of the lists before and after it); returns that child (p itself when p is not
 * in a list).
 */
function isolate(p: Element, container: Element): Element {
  let child: Element = p;
  while (child.parentNode && child.parentNode !== container) {
    const parent = child.parentNode as Element;
    const grand = parent.parentNode as Element;
    const before = parent.cloneNode(false) as Element;
    const after = parent.cloneNode(false) as Element;
    before.removeAttribute('xml:id');
    after.removeAttribute('xml:id');
    while (parent.firstChild && parent.firstChild !== child) before.appendChild(parent.firstChild);
    while (child.nextSibling) after.appendChild(child.nextSibling);
    if (hasElementChild(before)) grand.insertBefore(before, parent);
    if (hasElementChild(after)) grand.insertBefore(after, parent.nextSibling);
    child = parent;
  }
  return child;
}

/**
 * Joins adjacent top-level text:list elements of the same list style into one, so that numbering runs on
 * across the paragraphs (a new text:list restarts it; LibreOffice writes one list for such a run too).
 */
function mergeAdjacentLists(container: Element): void {
  let prev: Element | undefined;
  for (let n: Node | null = container.firstChild; n; ) {
    const next: Node | null = n.nextSibling;
    if (n.nodeType === 1) {
      const el = n as Element;
      const isList = el.namespaceURI === NS.text && el.localName === 'list';
      if (
        isList &&
        prev &&
        prev.getAttribute('text:style-name') === el.getAttribute('text:style-name') &&
        !el.getAttribute('text:continue-numbering') &&
        !el.getAttribute('xml:id')
      ) {
        while (el.firstChild) prev.appendChild(el.firstChild);
        container.removeChild(el);
      } else prev = isList ? el : undefined;
    }
    n = next;
  }
}
