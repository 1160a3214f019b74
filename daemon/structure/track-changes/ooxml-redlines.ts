/**
 * Reads the revisions of a docx body (ECMA-376 Part 1, 17.13.5 revisions) into a RedlineFlow, the way
 * LibreOffice 7.4's DOCX import (writerfilter) turns them into redlines. Each rule was checked against
 * LibreOffice's redline table on the corpus (docs/structure/tracked-changes.md):
 * - w:ins / w:moveTo runs are Insert, w:del / w:moveFrom runs Delete (deleted text, w:delText, stays in the
 *   text); moved text only joins moved text. Deleted inserted text is a Delete over an Insert in the body, an
 *   Insert over a Delete in table cells (their redlines are made after the table is built).
 * - A paragraph mark change (w:pPr/w:rPr/w:ins|w:del; with both, the last one) covers the paragraph end, so
 *   consecutive changed paragraphs join into one redline; never on the last paragraph of a cell or the body, nor
 *   on a paragraph followed by a table.
 * - w:rPr/w:rPrChange is Format (joined only with neighbours of identical old properties, and absorbed inside
 *   an insertion or deletion); w:pPr/w:pPrChange is ParagraphFormat, a point at the end of the paragraph's text.
 * - Table, row and cell property changes (w:tblPrChange, w:trPrChange, w:tcPrChange), row insertions and
 *   deletions (w:trPr/w:ins|w:del) and w:sectPrChange are not text redlines, except that a comment starting in
 *   an empty cell of a deleted row sits on a zero-width joiner that is deleted with the row.
 * - Comment anchors (w:commentReference) split redlines; the one after an anchor is described `“Note”`.
 * - The first floating table (w:tblpPr) of a section that LibreOffice turns into a text frame comes first.
 * Only the main story is read; headers, footers, notes and text boxes are not (see the analysis page).
 */
import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { REL, targetOfType } from '../package/opc-relationships.ts';
import { NS } from '../xml/dom.ts';
import { RedlineFlow, type RedlineData } from './redline-flow.ts';

const W = NS.w;

/** The main document part of a docx: the package's officeDocument relationship (usually word/document.xml). */
function mainPart(doc: StructureDocument): string {
  return targetOfType(doc.pkg, '', REL.officeDocument) ?? 'word/document.xml';
}

/** A w:ins/w:del/w:moveFrom/w:moveTo element's change data. */
function changeData(el: Element): RedlineData {
  const kind = el.localName;
  return {
    type: kind === 'del' || kind === 'moveFrom' ? 'Delete' : 'Insert',
    author: el.getAttributeNS(W, 'author') ?? '',
    date: el.getAttributeNS(W, 'date') ?? '',
    comment: '',
    moved: kind === 'moveFrom' || kind === 'moveTo',
  };
}

/**
 * The data of text inside these revision elements. In the body LibreOffice stacks a deletion over an insertion
 * (Delete with the Insert underneath); in table cells, whose redlines writerfilter creates after the table is
 * built, the insertion ends on top (Insert over the Delete), as LibreOffice 7.4 reports them.
 */
function stacked(changes: readonly Element[], inCell: boolean): RedlineData | undefined {
  if (changes.length === 0) return undefined;
  const del = changes.find((c) => c.localName === 'del' || c.localName === 'moveFrom');
  const ins = changes.find((c) => c.localName === 'ins' || c.localName === 'moveTo');
  if (!del || !ins) return changeData(del ?? ins!);
  if (inCell) return { ...changeData(ins), next: changeData(del) };
  return { ...changeData(del), next: changeData(ins) };
}

/** True when no paragraph, table or block content control follows `el` among its siblings. */
function isLastBlock(el: Element): boolean {
  for (let n = el.nextSibling; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const name = (n as Element).localName;
    if (name === 'p' || name === 'tbl' || name === 'sdt' || name === 'customXml') return false;
  }
  return true;
}

class DocxWalker {
  readonly flow = new RedlineFlow();
  private readonly changes: Element[] = [];
  private cellDepth = 0;

  body(body: Element): void {
    this.flow.beginStory();
    this.blocks(body, true);
    this.flow.endStory();
    this.endSection(childW(body, 'sectPr'));
  }

  /** Block-level content: paragraphs, tables, block content controls. `last`: this container ends a story. */
  private blocks(parent: Element, last: boolean): void {
    for (let n = parent.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      const el = n as Element;
      if (el.namespaceURI !== W) continue;
      switch (el.localName) {
        case 'p':
          this.paragraph(el, last && isLastBlock(el));
          break;
        case 'tbl': {
          const start = this.flow.position;
          this.table(el);
          if (this.cellDepth === 0) this.pendingFloating.push({ tbl: el, start, end: this.flow.position });
          break;
        }
        case 'sdt': {
          const content = childW(el, 'sdtContent');
          if (content) this.blocks(content, last && isLastBlock(el));
          break;
        }
        case 'customXml':
          this.blocks(el, last && isLastBlock(el));
          break;
      }
    }
  }

  /** Body-level tables of the current section, decided at the section's end (as writerfilter does). */
  private pendingFloating: Array<{ tbl: Element; start: number; end: number }> = [];

  /**
   * Ends a section (a paragraph's w:pPr/w:sectPr, or the body's last w:sectPr): LibreOffice 7.4 turns the first
   * floating table of the section that passes the conversion rule into a text frame. The later ones stay in
   * the body: observed on RA001 (four floating tables of one section, only the first is a frame; with the first
   * removed, the second is), the reason is not visible in the conversion code.
   */
  endSection(sectPr: Element | undefined): void {
    const page = sectPr ? pageOf(sectPr) : undefined;
    const frame = page ? this.pendingFloating.find((t) => this.becomesFrame(t.tbl, page)) : undefined;
    if (frame) this.flow.frames.push([frame.start, frame.end]);
    this.pendingFloating = [];
  }

  /**
   * Whether LibreOffice 7.4's DOCX import turns this floating table (w:tblPr/w:tblpPr) into a text frame
   * (writerfilter SectionPropertyMap::FloatingTableConversion): when text could fit next to it, i.e. its width
   * (the sum of its w:gridCol) plus 469 twips is under the text area width (or, positioned from the page edge,
   * under the page width less the smaller margin); not when placed absolutely in the bottom-left quarter of the
   * page.
   */
  private becomesFrame(tbl: Element, page: Page): boolean {
    const tblPr = childW(tbl, 'tblPr');
    const tblpPr = tblPr ? childW(tblPr, 'tblpPr') : undefined;
    if (!tblpPr) return false;
    const grid = childW(tbl, 'tblGrid');
    const width = grid ? childrenW(grid, 'gridCol').reduce((sum, c) => sum + (Number(c.getAttributeNS(W, 'w')) || 0), 0) : 0;
    const { width: pageWidth, height: pageHeight, left, right } = page;
    const horz = tblpPr.getAttributeNS(W, 'horzAnchor') || 'page';
    const vert = tblpPr.getAttributeNS(W, 'vertAnchor') || 'page';
    if (horz === 'page' && vert === 'page' && !tblpPr.getAttributeNS(W, 'tblpXSpec') && !tblpPr.getAttributeNS(W, 'tblpYSpec')) {
      const x = Number(tblpPr.getAttributeNS(W, 'tblpX')) || 0;
      const y = Number(tblpPr.getAttributeNS(W, 'tblpY')) || 0;
      if (x < pageWidth / 2 && y > pageHeight / 2) return false;
    }
    const magic = 469;
    if (width + magic < pageWidth - left - right) return true;
    return horz === 'page' && width + magic < pageWidth - Math.min(left, right);
  }

  private table(tbl: Element): void {
    for (const tr of childrenW(tbl, 'tr')) {
      // A tracked row (w:trPr/w:ins|w:del, the last one wins) is a table-row change in LibreOffice, not a text
      // redline. But a comment starting in an empty cell is anchored on a zero-width joiner (U+200D), and in a
      // deleted row that character is tracked as deleted (Comment020; RA001's empty deleted cells get none).
      const trPr = childW(tr, 'trPr');
      const rowMarks = trPr ? childElementsW(trPr).filter((c) => MARK_CHANGES.has(c.localName ?? '')) : [];
      const rowChange = rowMarks.length > 0 ? changeData(rowMarks[rowMarks.length - 1]!) : undefined;
      for (const tc of childrenW(tr, 'tc')) {
        this.cellDepth++;
        this.flow.beginStory();
        if (rowChange?.type === 'Delete' && isEmptyCell(tc) && tc.getElementsByTagNameNS(W, 'commentRangeStart').length > 0) this.flow.append('\u200d', rowChange);
        this.blocks(tc, true);
        this.flow.endStory();
        this.cellDepth--;
      }
    }
  }


  private paragraph(p: Element, lastInStory: boolean): void {
    this.inline(p);
    const pPr = childW(p, 'pPr');
    const rPr = pPr ? childW(pPr, 'rPr') : undefined;
    const pPrChange = pPr ? childW(pPr, 'pPrChange') : undefined;
    if (pPrChange) {
      // ParagraphFormat sits at the end of the paragraph's text (RA001: it splits the insertion running over it).
      const data: RedlineData = { type: 'ParagraphFormat', author: pPrChange.getAttributeNS(W, 'author') ?? '', date: pPrChange.getAttributeNS(W, 'date') ?? '', comment: '' };
      this.flow.appendMarker(data);
    }
    const sectPr = pPr && this.cellDepth === 0 ? childW(pPr, 'sectPr') : undefined;
    if (sectPr) this.endSection(sectPr);
    // writerfilter keeps one paragraph-marker redline: with both w:ins and w:del, the last one read wins.
    const markChanges = rPr ? childElementsW(rPr).filter((c) => MARK_CHANGES.has(c.localName ?? '')) : [];
    const mark = markChanges.length > 0 ? changeData(markChanges[markChanges.length - 1]!) : undefined;
    // The mark of a paragraph followed by a table is not tracked (the redline would end inside the table).
    const beforeTable = nextBlock(p)?.localName === 'tbl';
    this.flow.appendParagraphEnd(lastInStory || beforeTable ? undefined : mark);
  }

  /** Inline content of a paragraph (runs and their wrappers), with the enclosing revision elements. */
  private inline(parent: Element): void {
    for (let n = parent.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      const el = n as Element;
      if (el.namespaceURI !== W) continue;
      switch (el.localName) {
        case 'r':
          this.run(el);
          break;
        case 'ins':
        case 'del':
        case 'moveFrom':
        case 'moveTo':
          this.changes.push(el);
          this.inline(el);
          this.changes.pop();
          break;
        case 'sdt': {
          const content = childW(el, 'sdtContent');
          if (content) this.inline(content);
          break;
        }
        case 'hyperlink':
        case 'smartTag':
        case 'customXml':
        case 'fldSimple':
        case 'dir':
        case 'bdo':
          this.inline(el);
          break;
      }
    }
  }

  private run(r: Element): void {
    const rPr = childW(r, 'rPr');
    const rPrChange = rPr ? childW(rPr, 'rPrChange') : undefined;
    let format: RedlineData | undefined;
    if (rPrChange) {
      const old = childW(rPrChange, 'rPr');
      format = {
        type: 'Format',
        author: rPrChange.getAttributeNS(W, 'author') ?? '',
        date: rPrChange.getAttributeNS(W, 'date') ?? '',
        comment: '',
        formatKey: old ? old.toString() : '',
      };
    }
    const change = stacked(this.changes, this.cellDepth > 0);
    let text = '';
    for (let n = r.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      const el = n as Element;
      if (el.namespaceURI !== W) continue;
      switch (el.localName) {
        case 't':
        case 'delText':
          text += el.textContent ?? '';
          break;
        case 'tab':
        case 'ptab':
          text += '\t';
          break;
        case 'br': {
          const type = el.getAttributeNS(W, 'type');
          if (!type || type === 'textWrapping') text += '\n';
          break;
        }
        case 'cr':
          text += '\n';
          break;
        case 'sym': {
          // w:sym w:char is a hexadecimal code (Symbol-font codes F0xx included, as LibreOffice keeps them).
          const code = parseInt(el.getAttributeNS(W, 'char') ?? '', 16);
          if (Number.isFinite(code) && code > 0) text += String.fromCharCode(code);
          break;
        }
        case 'noBreakHyphen':
          text += '\u2011';
          break;
        case 'softHyphen':
          text += '\u00ad';
          break;
        case 'commentReference':
          this.flow.append(text, change, format);
          text = '';
          this.flow.addCommentAnchor();
          break;
      }
    }
    this.flow.append(text, change, format);
  }
}

/** The next paragraph, table or block control after `el`, if any. */
function nextBlock(el: Element): Element | undefined {
  for (let n = el.nextSibling; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === W) return n as Element;
  }
  return undefined;
}

/** Page width, height and side margins of a section, in twips. */
interface Page {
  width: number;
  height: number;
  left: number;
  right: number;
}

/** The page of a w:sectPr, if it gives size and margins. */
function pageOf(sectPr: Element): Page | undefined {
  const pgSz = sectPr ? childW(sectPr, 'pgSz') : undefined;
  const pgMar = sectPr ? childW(sectPr, 'pgMar') : undefined;
  if (!pgSz || !pgMar) return undefined;
  const n = (el: Element, name: string): number => Number(el.getAttributeNS(W, name)) || 0;
  return { width: n(pgSz, 'w'), height: n(pgSz, 'h'), left: n(pgMar, 'left'), right: n(pgMar, 'right') };
}

function childW(el: Element, name: string): Element | undefined {
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === W && (n as Element).localName === name) return n as Element;
  }
  return undefined;
}

/** True when a cell holds no text at all (no w:t, w:delText, w:tab, w:br, w:sym in it). */
function isEmptyCell(tc: Element): boolean {
  for (const name of ['t', 'delText', 'tab', 'br', 'sym', 'drawing']) if (tc.getElementsByTagNameNS(W, name).length > 0) return false;
  return true;
}

const MARK_CHANGES = new Set(['ins', 'del', 'moveFrom', 'moveTo']);

function childElementsW(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).namespaceURI === W) out.push(n as Element);
  return out;
}

function childrenW(el: Element, name: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === W && (n as Element).localName === name) out.push(n as Element);
  }
  return out;
}

/**
 * The redline flow of a docx's main story (word/document.xml).
 * @throws StructureError bad_package when the part is missing or not well-formed.
 */
export function readOoxmlRedlines(doc: StructureDocument): RedlineFlow {
  const walker = new DocxWalker();
  const root = doc.xml(mainPart(doc)).documentElement!;
  for (const body of childrenW(root, 'body')) walker.body(body);
  return walker.flow;
}
