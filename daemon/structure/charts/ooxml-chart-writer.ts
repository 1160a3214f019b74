import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import { formatRange, parseRange } from './cell-ref.ts';
import type { ChartTable } from './chart-table.ts';
import { EmbeddedWorkbook } from './embedded-workbook.ts';
import { xmlNumber } from './number-format.ts';
import type { OoxmlChartModel } from './ooxml-chart.ts';
import { dataOf } from './ooxml-chart-refs.ts';

/**
 * Writes a transformed table back into a DrawingML chart part (ECMA-376 Part 1, 21.2) and its embedded
 * workbook, keeping the three in agreement:
 *
 * - Category charts take Word's layout: categories in column A from row 2, series n in column B+n with its name
 *   in row 1. Each column's c:ser gets c:order, c:tx, c:cat and c:val rewritten (formulas `c:f`, caches
 *   `c:strCache`/`c:numCache` with `c:ptCount` and `c:pt`; literals stay literals). A deleted column's c:ser is
 *   removed; an inserted column gets a copy of its neighbour's c:ser (new c:idx, no data-point overrides, no
 *   extension list). The workbook's old chart cells are emptied, the new ones written, and its table resized.
 * - Scatter and bubble charts keep their columns: each value range keeps its sheet column and first row and
 *   gets the new length.
 */
export function writeOoxmlChart(doc: StructureDocument, part: string, model: OoxmlChartModel, table: ChartTable): void {
  const space = doc.xml(part).documentElement!;
  const wb = EmbeddedWorkbook.forChart(doc, part);
  const formulas = model.sources.flatMap((s) => [...s.ser.getElementsByTagNameNS(NS.c, 'f')].map((f) => f.textContent ?? ''));
  const refs = formulas.map(parseRange).filter((r) => r !== undefined);
  const sheet = refs[0]?.sheet ?? 'Sheet1';
  if (wb) for (const r of refs) if (r.sheet === sheet) wb.clear(r);
  const w = new SeriesWriter(space.prefix ?? 'c', wb);
  // LibreOffice's own docx export has no workbook and names its internal ranges instead ("label 0",
  // "categories", "0"): such charts keep that scheme.
  const libreOffice = refs.length === 0 && formulas.some((f) => /^(label \d+|categories|\d+)$/.test(f));
  if (model.xy) writeXy(w, model, table);
  else writeCategories(w, model, table, libreOffice ? LIBREOFFICE_RANGES : wordRanges(sheet));
}

/** Formulas of a category chart's column i: its name, the categories, its values (n rows). */
interface RangeScheme {
  name(i: number): string;
  categories(n: number): string;
  values(i: number, n: number): string;
  sheet?: string;
}

/** Word's layout: categories in column A from row 2, series i in column B+i, its name in row 1. */
function wordRanges(sheet: string): RangeScheme {
  return {
    sheet,
    name: (i) => formatRange(sheet, i + 1, 0),
    categories: (n) => formatRange(sheet, 0, 1, 0, n),
    values: (i, n) => formatRange(sheet, i + 1, 1, i + 1, n),
  };
}

const LIBREOFFICE_RANGES: RangeScheme = { name: (i) => `label ${i}`, categories: () => 'categories', values: (i) => String(i) };

function writeCategories(w: SeriesWriter, model: OoxmlChartModel, table: ChartTable, ranges: RangeScheme): void {
  const sheet = ranges.sheet;
  const n = table.rowCount;
  const kept = new Set<Element>();
  const all = model.sources.map((s) => s.ser);
  const hasCat = all.some((s) => firstChild(s, NS.c, 'cat')) || table.rowDescriptions.some((d) => d !== '');
  let maxIdx = Math.max(-1, ...all.map((s) => Number(firstChild(s, NS.c, 'idx')?.getAttribute('val') ?? '-1')));
  const template = all[all.length - 1];
  let prev: Element | undefined;
  table.columns.forEach((col, i) => {
    let ser = col.origin >= 0 ? model.sources[col.origin]?.ser : undefined;
    if (!ser) {
      if (!template) return;
      ser = template.cloneNode(true) as Element;
      // a copy keeps its neighbour's settings but not its colours (c:spPr, c:marker: without them Word and
      // LibreOffice colour the series by its new c:idx), its per-point overrides or its unique id (c16:uniqueId)
      for (const k of childElements(ser, NS.c)) if (['dPt', 'extLst', 'spPr', 'marker'].includes(k.localName ?? '')) ser.removeChild(k);
      for (const lbls of childElements(ser, NS.c, 'dLbls')) for (const one of childElements(lbls, NS.c, 'dLbl')) lbls.removeChild(one);
      w.setVal(ser, 'idx', String(++maxIdx));
      const parent = (prev ?? template).parentNode!;
      if (prev) parent.insertBefore(ser, prev.nextSibling);
      else parent.insertBefore(ser, firstChild(parent as Element, NS.c, 'ser') ?? null);
    }
    kept.add(ser);
    prev = ser;
    const c = i + 1;
    w.setVal(ser, 'order', String(i));
    w.text(ser, 'tx', ranges.name(i), [col.desc], sheet, c, 0);
    if (hasCat) w.text(ser, 'cat', ranges.categories(n), table.rowDescriptions, sheet, 0, 1);
    w.numbers(ser, 'val', ranges.values(i, n), col.values, sheet, c, 1);
    for (const dpt of childElements(ser, NS.c, 'dPt')) if (Number(firstChild(dpt, NS.c, 'idx')?.getAttribute('val')) >= n) ser.removeChild(dpt);
  });
  for (const s of all) if (!kept.has(s) && s.parentNode) s.parentNode.removeChild(s);
  if (sheet !== undefined)
    w.wb?.setDataArea(
      sheet,
      table.columnCount,
      n,
      table.columns.map((c) => c.desc),
    );
}

function writeXy(w: SeriesWriter, model: OoxmlChartModel, table: ChartTable): void {
  const n = table.rowCount;
  table.columns.forEach((col) => {
    const src = model.sources[col.origin];
    if (!src) return;
    const holder = firstChild(src.ser, NS.c, src.role);
    const ref = parseRange(holder?.getElementsByTagNameNS(NS.c, 'f')[0]?.textContent ?? '');
    const formula = ref ? formatRange(ref.sheet, ref.col1, ref.row1, ref.col1, ref.row1 + n - 1) : undefined;
    w.numbers(src.ser, src.role, formula, col.values, ref?.sheet, ref?.col1, ref?.row1);
    if (src.named) {
      const tx = firstChild(src.ser, NS.c, 'tx');
      const tref = parseRange(tx?.getElementsByTagNameNS(NS.c, 'f')[0]?.textContent ?? '');
      if (tx || col.desc !== '')
        w.text(src.ser, 'tx', tref ? formatRange(tref.sheet, tref.col1, tref.row1) : undefined, [col.desc], tref?.sheet, tref?.col1, tref?.row1);
    }
  });
}

/** Element order inside c:ser (CT_BarSer and friends): where a missing child goes. */
const SER_ORDER = [
  'idx',
  'order',
  'tx',
  'spPr',
  'invertIfNegative',
  'explosion',
  'pictureOptions',
  'marker',
  'dPt',
  'dLbls',
  'trendline',
  'errBars',
  'cat',
  'val',
  'xVal',
  'yVal',
  'bubbleSize',
  'bubble3D',
  'smooth',
  'shape',
  'extLst',
];

class SeriesWriter {
  readonly wb: EmbeddedWorkbook | undefined;
  private readonly prefix: string;

  constructor(prefix: string, wb: EmbeddedWorkbook | undefined) {
    this.prefix = prefix;
    this.wb = wb;
  }

  private el(parent: Element, name: string): Element {
    return parent.ownerDocument!.createElementNS(NS.c, `${this.prefix}:${name}`);
  }

  /** The child `name` of a c:ser, created at its schema position when missing. */
  private child(ser: Element, name: string): Element {
    const hit = firstChild(ser, NS.c, name);
    if (hit) return hit;
    const made = this.el(ser, name);
    const rank = SER_ORDER.indexOf(name);
    const before = childElements(ser, NS.c).find((k) => SER_ORDER.indexOf(k.localName ?? '') > rank) ?? null;
    ser.insertBefore(made, before);
    return made;
  }

  setVal(ser: Element, name: string, val: string): void {
    this.child(ser, name).setAttribute('val', val);
  }

  private leaf(parent: Element, name: string, text?: string, val?: string): Element {
    const e = this.el(parent, name);
    if (text !== undefined) e.appendChild(parent.ownerDocument!.createTextNode(text));
    if (val !== undefined) e.setAttribute('val', val);
    parent.appendChild(e);
    return e;
  }

  /** Fills a cache or literal: ptCount and one c:pt per value; an empty value (a blank cell) gets no c:pt, as Word writes it. */
  private fill(cache: Element, values: string[], formatCode?: string): void {
    if (formatCode !== undefined) this.leaf(cache, 'formatCode', formatCode);
    this.leaf(cache, 'ptCount', undefined, String(values.length));
    values.forEach((v, i) => {
      if (v === '') return;
      const pt = this.leaf(cache, 'pt', undefined, undefined);
      pt.setAttribute('idx', String(i));
      this.leaf(pt, 'v', v);
    });
  }

  /** Rewrites a text holder (c:tx or c:cat) as a string reference with its cache (or keeps a literal). */
  text(ser: Element, holderName: string, formula: string | undefined, values: string[], sheet?: string, col?: number, row?: number): void {
    const holder = this.child(ser, holderName);
    const old = dataOf(holder);
    const plainV = holderName === 'tx' ? firstChild(holder, NS.c, 'v') : undefined;
    if (plainV) {
      plainV.textContent = values[0] ?? '';
      return;
    }
    for (const k of childElements(holder)) holder.removeChild(k);
    // a reference needs its formula (c:f is required): without one, the values are a literal (a series name
    // is then c:v, CT_SerTx has no c:strLit)
    if (!formula && holderName === 'tx') {
      this.leaf(holder, 'v', values[0] ?? '');
      return;
    }
    if (!formula || (old && (old.localName === 'strLit' || old.localName === 'numLit'))) {
      this.fill(this.leaf(holder, 'strLit'), values);
      return;
    }
    const ref = this.leaf(holder, 'strRef');
    this.leaf(ref, 'f', formula);
    this.fill(this.leaf(ref, 'strCache'), values);
    if (this.wb && sheet !== undefined && col !== undefined && row !== undefined) values.forEach((v, i) => this.wb!.set(sheet, col, row + i, v));
  }

  /** Rewrites a number holder (c:val, c:xVal, c:yVal, c:bubbleSize) as a number reference with its cache. */
  numbers(ser: Element, holderName: string, formula: string | undefined, values: number[], sheet?: string, col?: number, row?: number): void {
    const holder = this.child(ser, holderName);
    const old = dataOf(holder);
    const oldCache = old?.localName === 'numRef' ? firstChild(old, NS.c, 'numCache') : old;
    const formatCode = (oldCache && firstChild(oldCache, NS.c, 'formatCode')?.textContent) ?? 'General';
    const texts = values.map((v) => (Number.isNaN(v) ? '' : xmlNumber(v)));
    for (const k of childElements(holder)) holder.removeChild(k);
    if (!formula || (old && (old.localName === 'numLit' || old.localName === 'strLit'))) {
      this.fill(this.leaf(holder, 'numLit'), texts, formatCode);
      return;
    }
    const ref = this.leaf(holder, 'numRef');
    this.leaf(ref, 'f', formula);
    this.fill(this.leaf(ref, 'numCache'), texts, formatCode);
    if (this.wb && sheet !== undefined && col !== undefined && row !== undefined) values.forEach((v, i) => this.wb!.set(sheet, col, row + i, v));
  }
}
