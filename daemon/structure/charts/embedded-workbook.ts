import type { Document, Element } from '@xmldom/xmldom';
import { StructureDocument } from '../document.ts';
import { ZipPackage } from '../package/zip-package.ts';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import { cellName, columnIndex, type RangeRef } from './cell-ref.ts';
import { relTarget } from './ooxml-chart-refs.ts';

/**
 * The workbook embedded with a DrawingML chart (ECMA-376 Part 1, 21.2.2.63 c:externalData -> a package
 * relationship to `../embeddings/*.xlsx`), edited so that its cells agree with the chart's formulas and caches:
 * SpreadsheetML cells (18.3.1.4 c, 18.3.1.73 row), shared strings (18.4.9 sst), and the table over the chart
 * data (18.5.1.2 table, ref and tableColumns), as Word keeps them.
 *
 * The xlsx is a package inside the package: it is opened with ZipPackage and written back into the outer
 * package when the outer document is saved (see `commitOnSave`).
 */
export class EmbeddedWorkbook {
  private readonly book: StructureDocument;
  private readonly part: string;
  private sst: { dom: Document; index: Map<string, number> } | undefined | null = null;
  private readonly sheetParts = new Map<string, string | undefined>();

  private constructor(book: StructureDocument, part: string) {
    this.book = book;
    this.part = part;
  }

  /** The embedded workbook of a chart part, if it has one inside the package (not an external link). */
  static forChart(doc: StructureDocument, chartPart: string): EmbeddedWorkbook | undefined {
    const space = doc.xml(chartPart).documentElement!;
    const ext = firstChild(space, NS.c, 'externalData');
    const target = ext && relTarget(doc, chartPart, ext.getAttributeNS(NS.r, 'id') ?? '');
    if (!target || !doc.has(target) || !/\.xlsx$/i.test(target)) return undefined;
    const open = openBooks(doc);
    let wb = open.get(target);
    if (!wb) {
      wb = new EmbeddedWorkbook(new StructureDocument(ZipPackage.open(doc.pkg.bytesOf(target)!), 'docx'), target);
      open.set(target, wb);
    }
    return wb;
  }

  /** The worksheet part of the sheet named `name`. */
  private sheetPart(name: string): string | undefined {
    if (this.sheetParts.has(name)) return this.sheetParts.get(name);
    const wbPart = 'xl/workbook.xml';
    let part: string | undefined;
    if (this.book.has(wbPart)) {
      const sheets = firstChild(this.book.xml(wbPart).documentElement!, NS.x, 'sheets');
      const sheet = sheets && childElements(sheets, NS.x, 'sheet').find((s) => s.getAttribute('name') === name);
      if (sheet) part = relTarget(this.book, wbPart, sheet.getAttributeNS(NS.r, 'id') ?? '');
    }
    this.sheetParts.set(name, part && this.book.has(part) ? part : undefined);
    return this.sheetParts.get(name);
  }

  private sheetData(sheet: string): { part: string; data: Element } | undefined {
    const part = this.sheetPart(sheet);
    if (!part) return undefined;
    const data = firstChild(this.book.xml(part).documentElement!, NS.x, 'sheetData');
    return data ? { part, data } : undefined;
  }

  /** The c element at (col, row), created in order when `create`. */
  private cell(sheet: string, col: number, row: number, create: boolean): { part: string; c: Element } | undefined {
    const sd = this.sheetData(sheet);
    if (!sd) return undefined;
    const dom = sd.data.ownerDocument!;
    let rowEl: Element | undefined;
    let before: Element | null = null;
    for (const r of childElements(sd.data, NS.x, 'row')) {
      const n = Number(r.getAttribute('r')) - 1;
      if (n === row) rowEl = r;
      if (n > row) {
        before = r;
        break;
      }
    }
    if (!rowEl) {
      if (!create) return undefined;
      rowEl = dom.createElementNS(NS.x, sd.data.prefix ? `${sd.data.prefix}:row` : 'row');
      rowEl.setAttribute('r', String(row + 1));
      sd.data.insertBefore(rowEl, before);
    }
    const ref = cellName(col, row);
    let cBefore: Element | null = null;
    for (const c of childElements(rowEl, NS.x, 'c')) {
      const r = c.getAttribute('r') ?? '';
      if (r === ref) return { part: sd.part, c };
      const m = /^([A-Z]+)/.exec(r);
      if (m && columnIndex(m[1]) > col) {
        cBefore = c;
        break;
      }
    }
    if (!create) return undefined;
    const c = dom.createElementNS(NS.x, sd.data.prefix ? `${sd.data.prefix}:c` : 'c');
    c.setAttribute('r', ref);
    rowEl.insertBefore(c, cBefore);
    rowEl.removeAttribute('spans');
    return { part: sd.part, c };
  }

  private emptyCell(c: Element): void {
    for (const k of childElements(c)) c.removeChild(k);
    c.removeAttribute('t');
  }

  /** Empties every cell of the range (values, formulas), keeping their styles. */
  clear(range: RangeRef): void {
    for (let row = range.row1; row <= range.row2; row++) {
      for (let col = range.col1; col <= range.col2; col++) {
        const hit = this.cell(range.sheet, col, row, false);
        if (hit) {
          this.emptyCell(hit.c);
          this.book.markChanged(hit.part);
        }
      }
    }
  }

  /** Sets a cell to a number (NaN leaves it empty) or a text (a shared string, or an inline string). */
  set(sheet: string, col: number, row: number, value: number | string): void {
    const hit = this.cell(sheet, col, row, true);
    if (!hit) return;
    const { c } = hit;
    const dom = c.ownerDocument!;
    const child = (name: string, text: string): Element => {
      const e = dom.createElementNS(NS.x, c.prefix ? `${c.prefix}:${name}` : name);
      e.appendChild(dom.createTextNode(text));
      return e;
    };
    this.emptyCell(c);
    if (typeof value === 'number') {
      if (!Number.isNaN(value)) c.appendChild(child('v', String(value)));
    } else if (value !== '') {
      const sst = this.sharedStrings();
      if (sst) {
        c.setAttribute('t', 's');
        c.appendChild(child('v', String(this.stringIndex(sst, value))));
      } else {
        c.setAttribute('t', 'inlineStr');
        const is = dom.createElementNS(NS.x, c.prefix ? `${c.prefix}:is` : 'is');
        const t = child('t', value);
        if (/^\s|\s$/.test(value)) t.setAttributeNS('http://www.w3.org/XML/1998/namespace', 'xml:space', 'preserve');
        is.appendChild(t);
        c.appendChild(is);
      }
    }
    this.book.markChanged(hit.part);
  }

  private sharedStrings(): { dom: Document; index: Map<string, number> } | undefined {
    if (this.sst !== null) return this.sst;
    const part = 'xl/sharedStrings.xml';
    if (!this.book.has(part)) return (this.sst = undefined);
    const dom = this.book.xml(part);
    const index = new Map<string, number>();
    childElements(dom.documentElement!, NS.x, 'si').forEach((si, i) => {
      const t = firstChild(si, NS.x, 't');
      if (t && childElements(si).length === 1 && !index.has(t.textContent ?? '')) index.set(t.textContent ?? '', i);
    });
    return (this.sst = { dom, index });
  }

  private stringIndex(sst: { dom: Document; index: Map<string, number> }, text: string): number {
    const root = sst.dom.documentElement!;
    let i = sst.index.get(text);
    if (i === undefined) {
      i = childElements(root, NS.x, 'si').length;
      const si = sst.dom.createElementNS(NS.x, root.prefix ? `${root.prefix}:si` : 'si');
      const t = sst.dom.createElementNS(NS.x, root.prefix ? `${root.prefix}:t` : 't');
      if (/^\s|\s$/.test(text)) t.setAttributeNS('http://www.w3.org/XML/1998/namespace', 'xml:space', 'preserve');
      t.appendChild(sst.dom.createTextNode(text));
      si.appendChild(t);
      root.appendChild(si);
      sst.index.set(text, i);
      root.setAttribute('uniqueCount', String(i + 1));
    }
    if (root.hasAttribute('count')) root.setAttribute('count', String(Number(root.getAttribute('count')) + 1));
    this.book.markChanged('xl/sharedStrings.xml');
    return i;
  }

  /**
   * Makes the sheet's table (if one starts at A1) and dimension cover A1 to (lastCol, lastRow), with one table
   * column per header (header cells must match the table's column names; duplicates get a number).
   */
  setDataArea(sheet: string, lastCol: number, lastRow: number, headers: string[]): void {
    const part = this.sheetPart(sheet);
    if (!part) return;
    const root = this.book.xml(part).documentElement!;
    const ref = `A1:${cellName(lastCol, lastRow)}`;
    const dim = firstChild(root, NS.x, 'dimension');
    if (dim) dim.setAttribute('ref', ref);
    this.book.markChanged(part);
    const tableParts = firstChild(root, NS.x, 'tableParts');
    for (const tp of tableParts ? childElements(tableParts, NS.x, 'tablePart') : []) {
      const tablePart = relTarget(this.book, part, tp.getAttributeNS(NS.r, 'id') ?? '');
      if (!tablePart || !this.book.has(tablePart)) continue;
      const table = this.book.xml(tablePart).documentElement!;
      if (!/^\$?A\$?1:/.test(table.getAttribute('ref') ?? '')) continue;
      table.setAttribute('ref', ref);
      const af = firstChild(table, NS.x, 'autoFilter');
      if (af) af.setAttribute('ref', ref);
      const cols = firstChild(table, NS.x, 'tableColumns');
      if (cols) {
        const old = childElements(cols, NS.x, 'tableColumn');
        const first = old[0]?.getAttribute('name') || ' ';
        for (const o of old) cols.removeChild(o);
        const seen = new Set<string>();
        [first, ...headers].forEach((h, i) => {
          let name = h === '' ? `Column${i + 1}` : h;
          for (let k = 2; seen.has(name); k++) name = `${h}${k}`;
          seen.add(name);
          const tc = table.ownerDocument!.createElementNS(NS.x, table.prefix ? `${table.prefix}:tableColumn` : 'tableColumn');
          tc.setAttribute('id', String(i + 1));
          tc.setAttribute('name', name);
          cols.appendChild(tc);
        });
        cols.setAttribute('count', String(headers.length + 1));
      }
      this.book.markChanged(tablePart);
    }
  }

  /** Serialises the workbook's changed parts into its package bytes. */
  async bytes(): Promise<Uint8Array> {
    return this.book.save();
  }

  /** The part name of the xlsx inside the outer package. */
  get partName(): string {
    return this.part;
  }
}

const booksByDoc = new WeakMap<StructureDocument, Map<string, EmbeddedWorkbook>>();

/**
 * The workbooks opened for a document. The first time, the document's `save` is wrapped so the changed
 * workbooks are written into the package before it is saved: the engine's `save()` is asynchronous (zip
 * writing) while commands run synchronously, and the engine has no pre-save hook (noted for the lead).
 */
function openBooks(doc: StructureDocument): Map<string, EmbeddedWorkbook> {
  let map = booksByDoc.get(doc);
  if (!map) {
    const books = new Map<string, EmbeddedWorkbook>();
    map = books;
    booksByDoc.set(doc, books);
    const save = doc.save.bind(doc);
    doc.save = async (): Promise<Uint8Array> => {
      for (const wb of books.values()) doc.pkg.setPart(wb.partName, await wb.bytes());
      return save();
    };
  }
  return map;
}
