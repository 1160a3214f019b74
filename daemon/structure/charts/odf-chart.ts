import type { Document, Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { NS, childElements, firstChild } from '../xml/dom.ts';
import { domParts, readChild, readChildren, type PartReader, type ReadElement } from '../xml/read-tree.ts';
import { columnIndex, columnLetters } from './cell-ref.ts';
import { ChartTable } from './chart-table.ts';
import { formatChartNumber, xmlNumber } from './number-format.ts';
import type { ChartHandle, EmbeddedObject } from './embedded-object.ts';

/**
 * Charts of ODF text documents and presentations (ODF 1.3 Part 3, 11 Charts): a `draw:frame` holds a
 * `draw:object xlink:href="./Object 1"`; the sub-document `Object 1/content.xml` has `office:chart/chart:chart`
 * with its title (`chart:title`), subtitle (`chart:subtitle`), series (`chart:series` with
 * `chart:values-cell-range-address` and `chart:label-cell-address` into the internal table) and the internal
 * table itself (`table:table`, header row = series names, first column = categories), which is what
 * LibreOffice loads as the chart's internal data.
 */

const CHART_MEDIA = 'application/vnd.oasis.opendocument.chart';

/**
 * The embedded objects (`draw:object`, `draw:object-ole`) of the document body in document order, as
 * LibreOffice's `getEmbeddedObjects()` counts them; each chart gets a handle. The name is the frame's
 * `draw:name` (LibreOffice's object name), `Object<n>` when the frame has none. content.xml and the manifest are
 * read through `parts` (default: their DOM, as transformations need; extraction passes stream-built trees); chart
 * sub-documents always as DOM.
 * @throws StructureError bad_package when content.xml or a chart sub-document is not well-formed.
 */
export function odfEmbeddedObjects(doc: StructureDocument, parts: PartReader = domParts): EmbeddedObject[] {
  const body = readChild(parts(doc, 'content.xml'), NS.office, 'body');
  if (!body) return [];
  const media = manifestMediaTypes(doc, parts);
  const out: EmbeddedObject[] = [];
  const objects = body.getElementsByTagNameNS(NS.draw, '*');
  for (let i = 0; i < objects.length; i++) {
    const el = objects[i]!;
    if (el.localName !== 'object' && el.localName !== 'object-ole') continue;
    const index = out.length;
    const frame = el.parentNode as ReadElement | null;
    const name = (frame && frame.localName === 'frame' ? frame.getAttributeNS(NS.draw, 'name') : '') || `Object${index + 1}`;
    const folder = (el.getAttributeNS(NS.xlink, 'href') ?? '').replace(/^\.\//, '').replace(/\/$/, '');
    const part = `${folder}/content.xml`;
    const isChart =
      el.localName === 'object' &&
      folder !== '' &&
      doc.has(part) &&
      (media.get(`${folder}/`) === CHART_MEDIA || (!media.has(`${folder}/`) && chartElement(doc.xml(part)) !== undefined));
    out.push({ index, name, aliases: [], chart: isChart ? odfChart(doc, part) : undefined });
  }
  return out;
}

function manifestMediaTypes(doc: StructureDocument, parts: PartReader): Map<string, string> {
  const map = new Map<string, string>();
  if (!doc.has('META-INF/manifest.xml')) return map;
  for (const e of readChildren(parts(doc, 'META-INF/manifest.xml'), NS.manifest, 'file-entry')) {
    map.set(e.getAttributeNS(NS.manifest, 'full-path') ?? '', e.getAttributeNS(NS.manifest, 'media-type') ?? '');
  }
  return map;
}

function chartElement(dom: Document): Element | undefined {
  const body = firstChild(dom.documentElement!, NS.office, 'body');
  const officeChart = body && firstChild(body, NS.office, 'chart');
  return officeChart ? firstChild(officeChart, NS.chart, 'chart') : undefined;
}

/** The text of a chart:title / chart:subtitle: its paragraphs joined by line breaks. */
function titleText(el: Element | undefined): string {
  if (!el) return '';
  return childElements(el, NS.text, 'p')
    .map((p) => p.textContent ?? '')
    .join('\n');
}

function odfChart(doc: StructureDocument, part: string): ChartHandle {
  const chart = (): Element => chartElement(doc.xml(part))!;
  return {
    get title() {
      return titleText(firstChild(chart(), NS.chart, 'title'));
    },
    get subtitle() {
      return titleText(firstChild(chart(), NS.chart, 'subtitle'));
    },
    get limits() {
      const cls = chart().getAttributeNS(NS.chart, 'class') ?? '';
      return cls === 'chart:scatter' || cls === 'chart:bubble'
        ? { fixedColumns: `a ${cls.slice(6)} chart's columns are the x, y (and size) values of its series` }
        : {};
    },
    read: () => readTable(chart()),
    write: (table) => {
      writeTable(chart(), table);
      doc.markChanged(part);
    },
  };
}

/** Rows of a table section, `table:number-rows-repeated` expanded. */
function sectionRows(section: Element | undefined): Element[] {
  if (!section) return [];
  const out: Element[] = [];
  for (const row of childElements(section, NS.table, 'table-row')) {
    const n = Number(row.getAttributeNS(NS.table, 'number-rows-repeated') || '1');
    for (let i = 0; i < n; i++) out.push(row);
  }
  return out;
}

interface Cell {
  text: string;
  value: number;
}

function rowCells(row: Element): Cell[] {
  const out: Cell[] = [];
  for (const c of childElements(row, NS.table)) {
    if (c.localName !== 'table-cell' && c.localName !== 'covered-table-cell') continue;
    const text = childElements(c, NS.text, 'p')
      .map((p) => p.textContent ?? '')
      .join('\n');
    const type = c.getAttributeNS(NS.office, 'value-type');
    const raw = c.getAttributeNS(NS.office, 'value');
    const value = type === 'float' || type === 'percentage' || type === 'currency' ? Number(raw ?? 'NaN') : NaN;
    const n = Number(c.getAttributeNS(NS.table, 'number-columns-repeated') || '1');
    for (let i = 0; i < n; i++) out.push({ text, value });
  }
  return out;
}

function localTable(chart: Element): Element | undefined {
  return firstChild(chart, NS.table, 'table');
}

function readTable(chart: Element): ChartTable {
  const table = localTable(chart);
  if (!table) return new ChartTable([], []);
  const header = sectionRows(firstChild(table, NS.table, 'table-header-rows'));
  const body = [...sectionRows(firstChild(table, NS.table, 'table-rows')), ...sectionRows(table)];
  const head = header.length > 0 ? rowCells(header[0]).slice(1) : [];
  const rows = body.map(rowCells);
  const width = Math.max(head.length, ...rows.map((r) => r.length - 1));
  const colDesc = Array.from({ length: Math.max(0, width) }, (_, i) => head[i]?.text ?? '');
  return ChartTable.fromRows(
    rows.map((r) => r[0]?.text ?? ''),
    colDesc,
    rows.map((r) => r.slice(1).map((c) => c.value)),
  );
}

/** The 0-based column of the first cell of a range address such as `local-table.$C$2:.$C$5`. */
function rangeColumn(address: string): number | undefined {
  const m = /\.\$?([A-Z]+)\$?\d+/.exec(address);
  return m ? columnIndex(m[1]) : undefined;
}

function writeTable(chart: Element, t: ChartTable): void {
  const dom = chart.ownerDocument!;
  const old = localTable(chart);
  const name = old?.getAttributeNS(NS.table, 'name') || 'local-table';
  // series before rewriting: which table column (1-based sheet column: B = 1) each one shows
  const plot = firstChild(chart, NS.chart, 'plot-area');
  const series = plot ? childElements(plot, NS.chart, 'series') : [];
  const seriesByOldColumn = new Map<number, Element>();
  for (const s of series) {
    const col = rangeColumn(s.getAttributeNS(NS.chart, 'values-cell-range-address') ?? '');
    if (col !== undefined && col >= 1) seriesByOldColumn.set(col - 1, s);
  }

  const el = (ns: string, qname: string): Element => dom.createElementNS(ns, qname);
  const p = (text: string): Element => {
    const para = el(NS.text, 'text:p');
    if (text !== '') para.appendChild(dom.createTextNode(text));
    return para;
  };
  // a description with line breaks is one paragraph per line, as it is read back (rowCells joins them)
  const stringCell = (text: string, typed: boolean): Element => {
    const c = el(NS.table, 'table:table-cell');
    if (typed) c.setAttributeNS(NS.office, 'office:value-type', 'string');
    for (const line of text.split('\n')) c.appendChild(p(line));
    return c;
  };
  const numberCell = (v: number): Element => {
    const c = el(NS.table, 'table:table-cell');
    c.setAttributeNS(NS.office, 'office:value-type', 'float');
    c.setAttributeNS(NS.office, 'office:value', xmlNumber(v));
    c.appendChild(p(formatChartNumber(v)));
    return c;
  };
  const table = el(NS.table, 'table:table');
  table.setAttributeNS(NS.table, 'table:name', name);
  const hc = el(NS.table, 'table:table-header-columns');
  hc.appendChild(el(NS.table, 'table:table-column'));
  table.appendChild(hc);
  const cols = el(NS.table, 'table:table-columns');
  const col = el(NS.table, 'table:table-column');
  if (t.columnCount > 1) col.setAttributeNS(NS.table, 'table:number-columns-repeated', String(t.columnCount));
  if (t.columnCount > 0) cols.appendChild(col);
  table.appendChild(cols);
  const hr = el(NS.table, 'table:table-header-rows');
  const headRow = el(NS.table, 'table:table-row');
  headRow.appendChild(stringCell('', false));
  for (const c of t.columns) headRow.appendChild(stringCell(c.desc, true));
  hr.appendChild(headRow);
  table.appendChild(hr);
  const rows = el(NS.table, 'table:table-rows');
  t.rowDescriptions.forEach((desc, r) => {
    const row = el(NS.table, 'table:table-row');
    row.appendChild(stringCell(desc, true));
    for (const c of t.columns) row.appendChild(numberCell(c.values[r]));
    rows.appendChild(row);
  });
  table.appendChild(rows);
  if (old) chart.replaceChild(table, old);
  else chart.appendChild(table);

  if (!plot) return;
  const last = t.rowCount + 1;
  const range = (c: number): string => `${name}.$${columnLetters(c)}$2:.$${columnLetters(c)}$${last}`;
  // the series, in table column order: kept ones re-pointed, new columns get a copy of a neighbour
  const template = series[series.length - 1];
  const insertBefore =
    series.length > 0 ? nextNonSeries(series[series.length - 1]) : (firstChild(plot, NS.chart, 'wall') ?? firstChild(plot, NS.chart, 'floor') ?? null);
  const ordered: Element[] = [];
  t.columns.forEach((c, i) => {
    let s = c.origin >= 0 ? seriesByOldColumn.get(c.origin) : undefined;
    if (!s && c.origin < 0 && template) {
      s = template.cloneNode(true) as Element;
      for (const dp of childElements(s, NS.chart, 'data-point')) s.removeChild(dp);
      recolor(s, i);
    }
    if (!s) return;
    s.setAttributeNS(NS.chart, 'chart:values-cell-range-address', range(i + 1));
    s.setAttributeNS(NS.chart, 'chart:label-cell-address', `${name}.$${columnLetters(i + 1)}$1`);
    for (const d of childElements(s, NS.chart, 'domain')) {
      const dc = rangeColumn(d.getAttributeNS(NS.table, 'cell-range-address') ?? '');
      if (dc !== undefined) d.setAttributeNS(NS.table, 'table:cell-range-address', range(dc));
    }
    ordered.push(s);
  });
  for (const s of series) plot.removeChild(s);
  for (const s of ordered) plot.insertBefore(s, insertBefore);
  for (const axis of childElements(plot, NS.chart, 'axis')) {
    for (const cat of childElements(axis, NS.chart, 'categories')) cat.setAttributeNS(NS.table, 'table:cell-range-address', range(0));
  }
  if (plot.hasAttributeNS(NS.table, 'cell-range-address')) {
    plot.setAttributeNS(NS.table, 'table:cell-range-address', `${name}.$A$1:.$${columnLetters(t.columnCount)}$${last}`);
  }
}

function nextNonSeries(el: Element): Element | null {
  for (let n = el.nextSibling; n; n = n.nextSibling) {
    if (n.nodeType === 1 && !((n as Element).namespaceURI === NS.chart && (n as Element).localName === 'series')) return n as Element;
  }
  return null;
}

/** LibreOffice's default chart palette (the colors of series 1 to 12). */
const PALETTE = ['#004586', '#ff420e', '#ffd320', '#579d1c', '#7e0021', '#83caff', '#314004', '#aecf00', '#4b1f6f', '#ff950e', '#c5000b', '#0084d1'];

/**
 * Gives a copied series its own automatic style: a copy of its neighbour's (ODF 1.3 Part 3, 16.2 style:style,
 * family chart) whose fill is the palette color of its position, so the new series is not drawn in its
 * neighbour's color.
 */
function recolor(series: Element, position: number): void {
  const dom = series.ownerDocument!;
  const name = series.getAttributeNS(NS.chart, 'style-name');
  const styles = firstChild(dom.documentElement!, NS.office, 'automatic-styles');
  const original = name && styles ? childElements(styles, NS.style, 'style').find((st) => st.getAttributeNS(NS.style, 'name') === name) : undefined;
  if (!styles || !original) {
    series.removeAttributeNS(NS.chart, 'style-name');
    return;
  }
  const taken = new Set(childElements(styles, NS.style, 'style').map((st) => st.getAttributeNS(NS.style, 'name')));
  let fresh = `${name}s${position}`;
  for (let k = 2; taken.has(fresh); k++) fresh = `${name}s${position}-${k}`;
  const style = original.cloneNode(true) as Element;
  style.setAttributeNS(NS.style, 'style:name', fresh);
  let graphic = firstChild(style, NS.style, 'graphic-properties');
  if (!graphic) {
    graphic = dom.createElementNS(NS.style, 'style:graphic-properties');
    style.insertBefore(graphic, style.firstChild);
  }
  const color = PALETTE[position % PALETTE.length];
  graphic.setAttributeNS(NS.draw, 'draw:fill', 'solid');
  graphic.setAttributeNS(NS.draw, 'draw:fill-color', color);
  if (graphic.hasAttributeNS(NS.svg, 'stroke-color')) graphic.setAttributeNS(NS.svg, 'svg:stroke-color', color);
  styles.insertBefore(style, original.nextSibling);
  series.setAttributeNS(NS.chart, 'chart:style-name', fresh);
}
