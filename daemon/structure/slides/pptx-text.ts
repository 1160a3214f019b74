/**
 * The text of a PPTX shape, `p:txBody` (ECMA-376 Part 1, 21.1.2 DrawingML text: a:p with a:pPr?, then a:r, a:br,
 * a:fld runs, then a:endParaRPr?), read as LibreOffice's edit engine sees it and edited through the
 * `TextObjectEditor` interface.
 *
 * Characters: the text of a:r/a:t as is, except that a tab, a line break (a:br) and a field LibreOffice imports
 * as a field (a:fld type slidenum or datetime*) each count as one character U+0001, as in LibreOffice's edit
 * engine (its "feature" character). Other fields are plain text (their a:t). Offsets are UTF-16 code units.
 *
 * Formatting is written into each run's a:rPr (CT_TextCharacterProperties) and a:pPr (CT_TextParagraphProperties)
 * in their schema child order. Reading the formatting in force looks at the run's own a:rPr only, plus the rule
 * that body placeholders have bullets from the master (see docs/structure/slides.md).
 */
import type { Element } from '@xmldom/xmldom';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import { readChild, readChildren, type ReadElement } from '../xml/read-tree.ts';
import type { CharFormat, CharState, ParaFormat, TextObjectEditor, TextPosition, TextRange } from './deck.ts';

/** The edit engine's feature character (tab, line break, field). */
export const FEATURE = '\u0001';

/** a:rPr children in schema order (CT_TextCharacterProperties). */
const RPR_ORDER = [
  'ln',
  'noFill',
  'solidFill',
  'gradFill',
  'blipFill',
  'pattFill',
  'grpFill',
  'effectLst',
  'effectDag',
  'highlight',
  'uLnTx',
  'uLn',
  'uFillTx',
  'uFill',
  'latin',
  'ea',
  'cs',
  'sym',
  'hlinkClick',
  'hlinkMouseOver',
  'rtl',
  'extLst',
];
/** a:pPr children in schema order (CT_TextParagraphProperties). */
const PPR_ORDER = [
  'lnSpc',
  'spcBef',
  'spcAft',
  'buClrTx',
  'buClr',
  'buSzTx',
  'buSzPct',
  'buSzPts',
  'buFontTx',
  'buFont',
  'buNone',
  'buAutoNum',
  'buChar',
  'buBlip',
  'tabLst',
  'defRPr',
  'extLst',
];
/** a:p children other than runs, in order. */
const RUN_NAMES = new Set(['r', 'br', 'fld']);

/** True when LibreOffice imports this a:fld as a field (one feature character) rather than as its text. */
function isLoField(fld: ReadElement): boolean {
  const type = fld.getAttribute('type') ?? '';
  return type === 'slidenum' || type.startsWith('datetime');
}

/** The text of one run element (a:r, a:br, a:fld) as the edit engine holds it. */
function runText(run: ReadElement): string {
  if (run.localName === 'br') return FEATURE;
  if (run.localName === 'fld' && isLoField(run)) return FEATURE;
  const t = readChild(run, NS.a, 't');
  return (t?.textContent ?? '').replace(/\t/g, FEATURE);
}

/** The runs (a:r, a:br, a:fld) of a paragraph. */
function runsOf<E extends ReadElement>(p: E): E[] {
  return readChildren(p, NS.a).filter((e) => RUN_NAMES.has(e.localName ?? ''));
}

/** The plain text of a paragraph as LibreOffice's edit engine holds it (a DOM element or a read tree's). */
export function paragraphText(p: ReadElement): string {
  let s = '';
  for (const r of runsOf(p)) s += runText(r);
  return s;
}

/** The a:p paragraphs of a text body (p:txBody or a:txBody), of the body's type. */
export function paragraphsOf<E extends ReadElement>(txBody: E): E[] {
  return readChildren(txBody, NS.a, 'p');
}

/** Inserts `el` into `parent` before the first child that comes after it in `order` (schema child order). */
export function insertInOrder(parent: Element, el: Element, order: readonly string[]): void {
  const rank = order.indexOf(el.localName ?? '');
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const r = order.indexOf((n as Element).localName ?? '');
    if (r > rank) {
      parent.insertBefore(el, n);
      return;
    }
  }
  parent.appendChild(el);
}

function removeChildren(parent: Element, names: readonly string[]): void {
  for (const c of childElements(parent, NS.a)) if (names.includes(c.localName ?? '')) parent.removeChild(c);
}

/**
 * The editor of one p:txBody. `bulletsFromMaster` says whether paragraphs without their own bullet setting have
 * bullets (true for body placeholders, whose master body style has them).
 */
export class PptxTextBody implements TextObjectEditor {
  constructor(
    private readonly txBody: Element,
    private readonly bulletsFromMaster: boolean,
    private readonly onChange: () => void,
  ) {}

  /** The paragraphs' plain text. */
  paragraphs(): string[] {
    return paragraphsOf(this.txBody).map(paragraphText);
  }

  private para(i: number): Element {
    const p = paragraphsOf(this.txBody)[i];
    if (!p) throw new RangeError(`no paragraph ${i}`);
    return p;
  }

  /** The run holding the character at `pos` (or the one before it at the end of a paragraph), if any. */
  private runAt(pos: TextPosition): Element | undefined {
    const runs = runsOf(this.para(pos.paragraph)).filter((r) => r.localName !== 'br');
    let at = 0;
    let last: Element | undefined;
    for (const r of runs) {
      const len = runText(r).length;
      if (pos.offset < at + len) return r;
      at += len;
      last = r;
    }
    return last;
  }

  /** The character formatting in force at a position (the run's own a:rPr). */
  charFormatAt(pos: TextPosition): CharState {
    const run = this.runAt(pos);
    const rPr = run ? firstChild(run, NS.a, 'rPr') : firstChild(this.para(pos.paragraph), NS.a, 'endParaRPr');
    const on = (name: string) => rPr?.getAttribute(name) === '1' || rPr?.getAttribute(name) === 'true';
    const baseline = Number(rPr?.getAttribute('baseline') ?? '0');
    const strike = rPr?.getAttribute('strike');
    const u = rPr?.getAttribute('u');
    const effect = rPr ? firstChild(rPr, NS.a, 'effectLst') : undefined;
    return {
      bold: on('b'),
      italic: on('i'),
      strikeout: !!strike && strike !== 'noStrike',
      underline: !!u && u !== 'none',
      shadowed: !!effect && !!firstChild(effect, NS.a, 'outerShdw'),
      escapement: baseline > 0 ? 'super' : baseline < 0 ? 'sub' : 'none',
    };
  }

  /** Bullets and numbering of a paragraph: its own a:pPr, else the master's rule for this shape. */
  paraFormatAt(paragraph: number): { bullet: boolean; numbering: boolean } {
    const pPr = firstChild(this.para(paragraph), NS.a, 'pPr');
    if (pPr) {
      if (firstChild(pPr, NS.a, 'buNone')) return { bullet: false, numbering: false };
      if (firstChild(pPr, NS.a, 'buAutoNum')) return { bullet: false, numbering: true };
      if (firstChild(pPr, NS.a, 'buChar') || firstChild(pPr, NS.a, 'buBlip')) return { bullet: true, numbering: false };
    }
    return { bullet: this.bulletsFromMaster, numbering: false };
  }

  /**
   * Makes a run boundary at `offset` of paragraph `p` (splitting an a:r in two) and returns the index in
   * `runsOf(p)` of the first run at or after it.
   */
  private splitAt(p: Element, offset: number): number {
    const runs = runsOf(p);
    let at = 0;
    for (let i = 0; i < runs.length; i++) {
      const len = runText(runs[i]).length;
      if (offset <= at) return i;
      if (offset < at + len) {
        const r = runs[i];
        const t = firstChild(r, NS.a, 't')!;
        const text = t.textContent ?? '';
        const copy = r.cloneNode(true) as Element;
        t.textContent = text.slice(0, offset - at);
        firstChild(copy, NS.a, 't')!.textContent = text.slice(offset - at);
        p.insertBefore(copy, r.nextSibling);
        return i + 1;
      }
      at += len;
    }
    return runs.length;
  }

  /** The runs of paragraph `p` between offsets `start` and `end` (split as needed). */
  private runsBetween(p: Element, start: number, end: number): Element[] {
    const first = this.splitAt(p, start);
    const last = this.splitAt(p, end);
    return runsOf(p).slice(first, last);
  }

  /** Replaces `range` with `text`; `\n` starts a new paragraph. Returns the position after the inserted text. */
  insertText(range: TextRange, text: string): TextPosition {
    const paras = paragraphsOf(this.txBody);
    const { start, end } = range;
    const first = paras[start.paragraph];
    // The formatting for new text: the run before the insertion point, else the first run after, else the end-of-paragraph properties.
    const firstRuns = runsOf(first);
    const startIdx = this.splitAt(first, start.offset);
    const model =
      [...runsOf(first).slice(0, startIdx)].reverse().find((r) => r.localName !== 'br') ??
      runsOf(first)
        .slice(startIdx)
        .find((r) => r.localName !== 'br') ??
      firstRuns[0];
    const modelRPr = model ? firstChild(model, NS.a, 'rPr') : firstChild(first, NS.a, 'endParaRPr');
    // Delete the range.
    if (end.paragraph === start.paragraph) {
      for (const r of this.runsBetween(first, start.offset, end.offset)) first.removeChild(r);
    } else {
      const last = paras[end.paragraph];
      for (const r of runsOf(first).slice(this.splitAt(first, start.offset))) first.removeChild(r);
      const tail = runsOf(last).slice(this.splitAt(last, end.offset));
      const endPr = firstChild(first, NS.a, 'endParaRPr');
      for (const r of tail) first.insertBefore(r, endPr ?? null);
      for (let i = start.paragraph + 1; i <= end.paragraph; i++) this.txBody.removeChild(paras[i]);
    }
    // Insert the text, paragraph by paragraph.
    const doc = this.txBody.ownerDocument!;
    const pieces = text.split('\n');
    let para = first;
    let offset = start.offset;
    for (let k = 0; k < pieces.length; k++) {
      if (k > 0) {
        // Split `para` at `offset`: the rest moves into a new paragraph with the same paragraph properties.
        const rest = runsOf(para).slice(this.splitAt(para, offset));
        const np = doc.createElementNS(NS.a, 'a:p');
        const pPr = firstChild(para, NS.a, 'pPr');
        if (pPr) np.appendChild(pPr.cloneNode(true));
        for (const r of rest) np.appendChild(r);
        const endPr = firstChild(para, NS.a, 'endParaRPr');
        if (endPr) np.appendChild(endPr.cloneNode(true));
        this.txBody.insertBefore(np, para.nextSibling);
        para = np;
        offset = 0;
      }
      const piece = pieces[k];
      if (piece === '') continue;
      const idx = this.splitAt(para, offset);
      const run = doc.createElementNS(NS.a, 'a:r');
      const rPr = modelRPr ? (modelRPr.cloneNode(true) as Element) : doc.createElementNS(NS.a, 'a:rPr');
      if (rPr.localName !== 'rPr') {
        // endParaRPr -> rPr: same attributes and children under the run's element name.
        const renamed = doc.createElementNS(NS.a, 'a:rPr');
        for (let i = 0; i < rPr.attributes.length; i++) renamed.setAttribute(rPr.attributes[i].name, rPr.attributes[i].value);
        while (rPr.firstChild) renamed.appendChild(rPr.firstChild);
        run.appendChild(renamed);
      } else {
        run.appendChild(rPr);
      }
      const t = doc.createElementNS(NS.a, 'a:t');
      t.textContent = piece;
      run.appendChild(t);
      const before = runsOf(para)[idx] ?? firstChild(para, NS.a, 'endParaRPr') ?? null;
      para.insertBefore(run, before);
      offset += piece.length;
    }
    this.onChange();
    return { paragraph: start.paragraph + pieces.length - 1, offset };
  }

  /** Applies character formatting to `range` (no-op when the range is empty). */
  formatChars(range: TextRange, format: CharFormat): void {
    const { start, end } = range;
    if (start.paragraph === end.paragraph && start.offset === end.offset) return;
    const paras = paragraphsOf(this.txBody);
    for (let i = start.paragraph; i <= end.paragraph; i++) {
      const p = paras[i];
      const from = i === start.paragraph ? start.offset : 0;
      const to = i === end.paragraph ? end.offset : paragraphText(p).length;
      for (const r of this.runsBetween(p, from, to)) if (r.localName !== 'br') applyCharFormat(rPrOf(r), format);
    }
    this.onChange();
  }

  /** Applies paragraph formatting to paragraphs `first`..`last` inclusive. */
  formatParagraphs(first: number, last: number, format: ParaFormat): void {
    const paras = paragraphsOf(this.txBody);
    for (let i = first; i <= last; i++) applyParaFormat(pPrOf(paras[i]), format);
    this.onChange();
  }
}

/** The a:rPr of a run (a:r or a:fld), created as its first child when missing. */
function rPrOf(run: Element): Element {
  const have = firstChild(run, NS.a, 'rPr');
  if (have) return have;
  const rPr = run.ownerDocument!.createElementNS(NS.a, 'a:rPr');
  rPr.setAttribute('lang', 'en-US');
  run.insertBefore(rPr, run.firstChild);
  return rPr;
}

/** The a:pPr of a paragraph, created as its first child when missing. */
function pPrOf(p: Element): Element {
  const have = firstChild(p, NS.a, 'pPr');
  if (have) return have;
  const pPr = p.ownerDocument!.createElementNS(NS.a, 'a:pPr');
  p.insertBefore(pPr, p.firstChild);
  return pPr;
}

/** `<a:NAME><a:srgbClr val="RRGGBB"/></a:NAME>` */
function colorElement(rPr: Element, name: string, rgb: number): Element {
  const el = rPr.ownerDocument!.createElementNS(NS.a, `a:${name}`);
  const clr = rPr.ownerDocument!.createElementNS(NS.a, 'a:srgbClr');
  clr.setAttribute('val', (rgb & 0xffffff).toString(16).toUpperCase().padStart(6, '0'));
  el.appendChild(clr);
  return el;
}

/** Writes a character format into an a:rPr (ECMA-376 Part 1, 21.1.2.3.9), keeping the schema child order. */
export function applyCharFormat(rPr: Element, f: CharFormat): void {
  if (f.bold !== undefined) rPr.setAttribute('b', f.bold ? '1' : '0');
  if (f.italic !== undefined) rPr.setAttribute('i', f.italic ? '1' : '0');
  if (f.strikeout !== undefined) rPr.setAttribute('strike', f.strikeout ? 'sngStrike' : 'noStrike');
  if (f.underline !== undefined) rPr.setAttribute('u', f.underline ? 'sng' : 'none');
  if (f.escapement !== undefined) {
    if (f.escapement === 'none') rPr.removeAttribute('baseline');
    else rPr.setAttribute('baseline', f.escapement === 'super' ? '30000' : '-25000');
  }
  if (f.shadowed !== undefined) {
    removeChildren(rPr, ['effectLst', 'effectDag']);
    if (f.shadowed) {
      const doc = rPr.ownerDocument!;
      const lst = doc.createElementNS(NS.a, 'a:effectLst');
      const shdw = doc.createElementNS(NS.a, 'a:outerShdw');
      for (const [k, v] of [
        ['blurRad', '38100'],
        ['dist', '38100'],
        ['dir', '2700000'],
        ['algn', 'tl'],
      ])
        shdw.setAttribute(k, v);
      const clr = doc.createElementNS(NS.a, 'a:srgbClr');
      clr.setAttribute('val', '000000');
      const alpha = doc.createElementNS(NS.a, 'a:alpha');
      alpha.setAttribute('val', '43137');
      clr.appendChild(alpha);
      shdw.appendChild(clr);
      lst.appendChild(shdw);
      insertInOrder(rPr, lst, RPR_ORDER);
    }
  }
  if (f.color !== undefined) {
    removeChildren(rPr, ['noFill', 'solidFill', 'gradFill', 'blipFill', 'pattFill', 'grpFill']);
    if (f.color >= 0) insertInOrder(rPr, colorElement(rPr, 'solidFill', f.color), RPR_ORDER);
  }
  if (f.backColor !== undefined) {
    removeChildren(rPr, ['highlight']);
    if (f.backColor >= 0) insertInOrder(rPr, colorElement(rPr, 'highlight', f.backColor), RPR_ORDER);
  }
}

/** Writes a paragraph format into an a:pPr (ECMA-376 Part 1, 21.1.2.2.7), keeping the schema child order. */
export function applyParaFormat(pPr: Element, f: ParaFormat): void {
  if (f.align) pPr.setAttribute('algn', { left: 'l', center: 'ctr', right: 'r', justify: 'just' }[f.align]);
  const doc = pPr.ownerDocument!;
  const bullets = ['buFontTx', 'buFont', 'buNone', 'buAutoNum', 'buChar', 'buBlip'];
  if (f.bullet === true) {
    removeChildren(pPr, bullets);
    const font = doc.createElementNS(NS.a, 'a:buFont');
    font.setAttribute('typeface', 'Arial');
    insertInOrder(pPr, font, PPR_ORDER);
    const ch = doc.createElementNS(NS.a, 'a:buChar');
    ch.setAttribute('char', '\u2022');
    insertInOrder(pPr, ch, PPR_ORDER);
  } else if (f.numbering === true) {
    removeChildren(pPr, bullets);
    const num = doc.createElementNS(NS.a, 'a:buAutoNum');
    num.setAttribute('type', 'arabicPeriod');
    insertInOrder(pPr, num, PPR_ORDER);
  } else if (f.bullet === false || f.numbering === false) {
    removeChildren(pPr, bullets);
    insertInOrder(pPr, doc.createElementNS(NS.a, 'a:buNone'), PPR_ORDER);
  }
  if ((f.bullet === true || f.numbering === true) && !pPr.hasAttribute('marL')) {
    pPr.setAttribute('marL', '342900');
    pPr.setAttribute('indent', '-342900');
  }
}
