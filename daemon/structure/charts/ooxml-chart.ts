import type { Element } from '@xmldom/xmldom';
import type { StructureDocument } from '../document.ts';
import { relsPartName } from '../package/opc-relationships.ts';
import { NS } from '../xml/dom.ts';
import { domParts, readChild, readChildren, type PartReader, type ReadElement } from '../xml/read-tree.ts';
import { ChartTable } from './chart-table.ts';
import type { ChartHandle, EmbeddedObject } from './embedded-object.ts';
import { formatChartNumber } from './number-format.ts';
import { dataOf, relTarget } from './ooxml-chart-refs.ts';
import { writeOoxmlChart } from './ooxml-chart-writer.ts';

/**
 * DrawingML charts in docx and pptx (ECMA-376 Part 1, 21.2): a `w:drawing` (docx) or `p:graphicFrame` (pptx)
 * whose `a:graphicData` has the chart uri holds `c:chart r:id`, the relationship to the chart part
 * (`c:chartSpace`). Its series (`c:ser`) carry their name (`c:tx`), categories (`c:cat`) and values (`c:val`;
 * `c:xVal`/`c:yVal`/`c:bubbleSize` for XY charts) as formulas into the embedded workbook (`c:f`) with cached
 * values (`c:strCache`, `c:numCache`), or literals (`c:strLit`, `c:numLit`).
 *
 * The table is built as LibreOffice's oox import builds the chart's internal data (checked against LibreOffice
 * 7.4, docs/structure/charts.md): one column per series, rows = the first series' categories; scatter series
 * give two columns [y, x] and bubble series three [y, x, size], the series name on the y (scatter) or size
 * (bubble) column, other columns named `Series<column+1>`, and no categories (empty row descriptions).
 */

const CHART_URI = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
/** The local names of the elements ooxmlEmbeddedObjects looks for (a:graphicData, w:object, m:oMath). */
const OBJECT_NAMES = /graphicData|object|oMath/;
const M_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/math';

/**
 * True when a part's text (or its UTF-8 bytes, as ZipPackage.sourceOf gives a large part: not decoded again for
 * this) spells one of the names of OBJECT_NAMES.
 */
function namesAnObject(source: string | Uint8Array): boolean {
  if (typeof source === 'string') return OBJECT_NAMES.test(source);
  const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  return bytes.includes('graphicData') || bytes.includes('object') || bytes.includes('oMath');
}
const P_NS = NS.p;

/** Chart-type group elements of c:plotArea (ECMA-376 Part 1, 21.2.2). */
export const CHART_GROUPS = new Set([
  'areaChart',
  'area3DChart',
  'lineChart',
  'line3DChart',
  'stockChart',
  'radarChart',
  'scatterChart',
  'pieChart',
  'pie3DChart',
  'doughnutChart',
  'barChart',
  'bar3DChart',
  'ofPieChart',
  'surfaceChart',
  'surface3DChart',
  'bubbleChart',
]);
const PIE_GROUPS = new Set(['pieChart', 'pie3DChart', 'doughnutChart', 'ofPieChart']);

/** Which series element (of a DOM, or of a stream-built tree: `E`) and data role each table column comes from. */
export interface ColumnSource<E extends ReadElement = Element> {
  ser: E;
  /** `val`, or for XY charts `yVal`, `xVal`, `bubbleSize`. */
  role: string;
  /** True for the column that carries the series name. */
  named: boolean;
}

/** The parsed view of one chart part: its table and where each column comes from (elements of type `E`). */
export interface OoxmlChartModel<E extends ReadElement = Element> {
  table: ChartTable;
  sources: ColumnSource<E>[];
  xy: boolean;
}

/**
 * The embedded objects of a docx body (charts, OLE objects `w:object`, and OMML formulas `m:oMath`, which
 * LibreOffice imports as formula objects) or of a pptx's slides (graphic frames with charts or OLE objects), in
 * document order; `mc:Fallback` content is skipped. Names, as LibreOffice 25.2 names the objects: a chart's is the
 * drawing's wp:docPr/@name (docx, with `Object<n>` kept as an alias) or p:cNvPr/@name (pptx), `Object<n>` when
 * it has none. The story parts, and the chart parts and app.xml that a chart's title and table are read from, are
 * read through `parts` (default: their DOM, as transformations need; extraction passes stream-built trees); a
 * chart's table is written through the DOM.
 * @throws StructureError bad_package when a part is not well-formed.
 */
export function ooxmlEmbeddedObjects(doc: StructureDocument, parts: PartReader = domParts): EmbeddedObject[] {
  const out: EmbeddedObject[] = [];
  for (const source of storyParts(doc, parts)) {
    const root = parts(doc, source);
    // an object is found by its element's local name, which its start tag spells out: a part as stored whose text
    // has none of them holds none, and its tree is not walked (it is read all the same: an unreadable part fails)
    if (!doc.hasDom(source) && !namesAnObject(doc.pkg.sourceOf(source) ?? '')) continue;
    const stack: ReadElement[] = [root];
    while (stack.length > 0) {
      const el = stack.pop()!;
      const ln = el.localName;
      if (el.namespaceURI === NS.mc && ln === 'Fallback') continue;
      if (el.namespaceURI === NS.w && ln === 'object') {
        out.push({ index: out.length, name: `Object${out.length + 1}`, aliases: [] });
        continue;
      }
      if (el.namespaceURI === M_NS && ln === 'oMath') {
        out.push({ index: out.length, name: `Object${out.length + 1}`, aliases: [] });
        continue;
      }
      if (el.namespaceURI === NS.a && ln === 'graphicData') {
        const uri = el.getAttribute('uri');
        if (uri === CHART_URI) {
          const c = readChild(el, NS.c, 'chart');
          const rid = c?.getAttributeNS(NS.r, 'id') ?? '';
          const part = relTarget(doc, source, rid, parts);
          const index = out.length;
          const shapeName = drawingName(el, doc.format);
          // LibreOffice names the object after the drawing (wp:docPr/@name, p:cNvPr/@name); Object<n> stays an alias
          const name = shapeName || `Object${index + 1}`;
          out.push({
            index,
            name,
            aliases: doc.format === 'docx' && name !== `Object${index + 1}` ? [`Object${index + 1}`] : [],
            chart: part && doc.has(part) ? ooxmlChart(doc, part, parts) : undefined,
          });
          continue;
        }
        if (uri === 'http://schemas.openxmlformats.org/presentationml/2006/ole') {
          out.push({ index: out.length, name: drawingName(el, doc.format) || `Object${out.length + 1}`, aliases: [] });
          continue;
        }
        // other graphics (shapes, groups) are walked: a text box (wps:txbx/w:txbxContent) can hold a chart
      }
      const kids = readChildren(el);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return out;
}

/** The parts whose embedded objects count: the docx main document, or the pptx slides in presentation order. */
function storyParts(doc: StructureDocument, parts: PartReader): string[] {
  if (doc.format === 'docx') return doc.has('word/document.xml') ? ['word/document.xml'] : [];
  if (!doc.has('ppt/presentation.xml')) return [];
  // a deck without chart or embedding parts has no embedded objects: no slide relationships need reading
  if (!doc.pkg.names().some((n) => n.startsWith('ppt/charts/') || n.startsWith('ppt/embeddings/'))) return [];
  const pres = parts(doc, 'ppt/presentation.xml');
  const list = readChild(pres, P_NS, 'sldIdLst');
  if (!list) return [];
  // Only slides with a chart or OLE relationship can hold embedded objects: the others are not parsed.
  return readChildren(list, P_NS, 'sldId')
    .map((s) => relTarget(doc, 'ppt/presentation.xml', s.getAttributeNS(NS.r, 'id') ?? '', parts))
    .filter((p): p is string => p !== undefined && doc.has(p) && hasObjectRelationship(doc, p, parts));
}

const OBJECT_REL = /\/relationships\/(chart|oleObject)$/;

function hasObjectRelationship(doc: StructureDocument, part: string, parts: PartReader): boolean {
  const rels = relsPartName(part);
  if (!doc.has(rels)) return false;
  return readChildren(parts(doc, rels), NS.rel, 'Relationship').some((r) => OBJECT_REL.test(r.getAttribute('Type') ?? ''));
}

/** The drawing's name: wp:docPr/@name (docx) or p:nvGraphicFramePr/p:cNvPr/@name (pptx). */
function drawingName(graphicData: ReadElement, format: string): string {
  for (let n = graphicData.parentNode as ReadElement | null; n && n.nodeType === 1; n = n.parentNode as ReadElement | null) {
    if (format === 'docx' && n.namespaceURI === NS.wp && (n.localName === 'inline' || n.localName === 'anchor'))
      return readChild(n, NS.wp, 'docPr')?.getAttribute('name') ?? '';
    if (format === 'pptx' && n.namespaceURI === P_NS && n.localName === 'graphicFrame') {
      const nv = readChild(n, P_NS, 'nvGraphicFramePr');
      return (nv && readChild(nv, P_NS, 'cNvPr')?.getAttribute('name')) ?? '';
    }
  }
  return '';
}

/**
 * The handle of the chart in `part`: its title and table read from the part as `parts` gives it (a stream-built
 * tree for extraction: about a third of a DOM's cost), written through its DOM.
 */
function ooxmlChart(doc: StructureDocument, part: string, parts: PartReader): ChartHandle {
  const space = (): ReadElement => parts(doc, part);
  return {
    get title() {
      return chartTitle(doc, space(), parts);
    },
    subtitle: '',
    get limits() {
      return readOoxmlChart(space()).xy ? { fixedColumns: 'the columns of a scatter or bubble chart are the x, y (and size) values of its series' } : {};
    },
    read: () => readOoxmlChart(space()).table,
    write: (table) => {
      writeOoxmlChart(doc, part, readOoxmlChart(doc.xml(part).documentElement!), table);
      doc.markChanged(part);
    },
  };
}

/** The plot area's chart-type groups (c:barChart, c:pieChart, ...), in order (elements of `space`'s type). */
export function chartGroups<E extends ReadElement>(space: E): E[] {
  const chart = readChild(space, NS.c, 'chart');
  const plot = chart && readChild(chart, NS.c, 'plotArea');
  return plot ? readChildren(plot, NS.c).filter((e) => CHART_GROUPS.has(e.localName ?? '')) : [];
}

/** Points of a cache or literal (c:strCache, c:numCache, c:strLit, c:numLit) as idx -> text, and its ptCount. */
function points(data: ReadElement | undefined): { count: number; pts: Map<number, string>; numeric: boolean } {
  const pts = new Map<number, string>();
  if (!data) return { count: 0, pts, numeric: false };
  let cache: ReadElement | undefined = data;
  if (data.localName === 'strRef' || data.localName === 'numRef') cache = readChild(data, NS.c, data.localName === 'strRef' ? 'strCache' : 'numCache');
  else if (data.localName === 'multiLvlStrRef') {
    const ml = readChild(data, NS.c, 'multiLvlStrCache');
    const lvl = ml ? readChild(ml, NS.c, 'lvl') : undefined;
    const count = Number((ml && readChild(ml, NS.c, 'ptCount')?.getAttribute('val')) ?? '0');
    if (lvl) for (const pt of readChildren(lvl, NS.c, 'pt')) pts.set(Number(pt.getAttribute('idx')), readChild(pt, NS.c, 'v')?.textContent ?? '');
    return { count, pts, numeric: false };
  }
  if (!cache) return { count: 0, pts, numeric: false };
  for (const pt of readChildren(cache, NS.c, 'pt')) pts.set(Number(pt.getAttribute('idx')), readChild(pt, NS.c, 'v')?.textContent ?? '');
  const count = Number(readChild(cache, NS.c, 'ptCount')?.getAttribute('val') ?? String(pts.size));
  return { count, pts, numeric: cache.localName === 'numCache' || cache.localName === 'numLit' };
}

/** A series name: c:tx/c:strRef cache, or c:tx/c:v; undefined when it has none. */
export function seriesName(ser: ReadElement): string | undefined {
  const tx = readChild(ser, NS.c, 'tx');
  if (!tx) return undefined;
  const v = readChild(tx, NS.c, 'v');
  if (v) return v.textContent ?? '';
  const { pts } = points(dataOf(tx));
  return pts.get(0);
}

/**
 * Reads a chart part's table as LibreOffice builds it (see the module comment), from its c:chartSpace as a DOM or a
 * stream-built tree (the model's elements are of that type).
 */
export function readOoxmlChart<E extends ReadElement>(space: E): OoxmlChartModel<E> {
  const sources: ColumnSource<E>[] = [];
  let xy = false;
  const serieses: E[] = [];
  for (const g of chartGroups(space)) {
    const roles = g.localName === 'scatterChart' ? ['yVal', 'xVal'] : g.localName === 'bubbleChart' ? ['yVal', 'xVal', 'bubbleSize'] : ['val'];
    if (roles.length > 1) xy = true;
    const named = g.localName === 'bubbleChart' ? 'bubbleSize' : roles[0];
    for (const ser of readChildren(g, NS.c, 'ser')) {
      serieses.push(ser);
      for (const role of roles) if (role === roles[0] || readChild(ser, NS.c, role)) sources.push({ ser, role, named: role === named });
    }
  }
  const columns = sources.map((s, i) => {
    const { count, pts } = points(dataOf(readChild(s.ser, NS.c, s.role)));
    const values = Array.from({ length: count }, (_, k) => (pts.has(k) && pts.get(k) !== '' ? Number(pts.get(k)) : NaN));
    // LibreOffice labels a column without a (non-empty) name `Series<column+1>`
    const desc = (s.named ? seriesName(s.ser) : undefined) || `Series${i + 1}`;
    return { desc, values, origin: i };
  });
  let rowDescriptions: string[] = [];
  if (!xy) {
    const catSer = serieses.find((s) => readChild(s, NS.c, 'cat'));
    if (catSer) {
      const { count, pts, numeric } = points(dataOf(readChild(catSer, NS.c, 'cat')));
      rowDescriptions = Array.from({ length: count }, (_, k) => {
        const t = pts.get(k) ?? '';
        return numeric && t !== '' ? formatChartNumber(Number(t)) : t;
      });
    }
  }
  const rows = Math.max(rowDescriptions.length, ...columns.map((c) => c.values.length));
  while (rowDescriptions.length < rows) rowDescriptions.push('');
  for (const c of columns) while (c.values.length < rows) c.values.push(NaN);
  return { table: new ChartTable(rowDescriptions, columns), sources, xy };
}

/** True when a CT_Boolean element is on (`val` absent means true, ECMA-376 Part 1, 21.2.2). */
function booleanOn(el: ReadElement | undefined): boolean | undefined {
  if (!el) return undefined;
  const v = el.getAttribute('val');
  return v === null || v === '' || v === '1' || v === 'true';
}

/** Text of a c:title: its rich text paragraphs (joined by line breaks) or its c:strRef cache. */
function titleText(title: ReadElement): string | undefined {
  const tx = readChild(title, NS.c, 'tx');
  if (!tx) return undefined;
  const rich = readChild(tx, NS.c, 'rich');
  if (rich) {
    return readChildren(rich, NS.a, 'p')
      .map((p) =>
        readChildren(p, NS.a)
          .filter((r) => r.localName === 'r' || r.localName === 'fld')
          .map((r) => readChild(r, NS.a, 't')?.textContent ?? '')
          .join(''),
      )
      .join('\n');
  }
  return points(dataOf(tx)).pts.get(0);
}

/**
 * The chart title as LibreOffice's oox import makes it: none when the automatic title is deleted
 * (c:autoTitleDeleted on; when absent, on for all but Office 2007 files, whose AppVersion is 12.x); the
 * c:title text; or, for a c:title without text or a missing c:title, the automatic title: the series name
 * when the chart has one group with one series (or a pie), else "Chart Title" when a c:title exists. `space` is
 * the chart part's c:chartSpace, as a DOM or a stream-built tree; app.xml is read through `parts` (default: its DOM).
 */
export function chartTitle(doc: StructureDocument, space: ReadElement, parts: PartReader = domParts): string {
  const chart = readChild(space, NS.c, 'chart');
  if (!chart) return '';
  const deleted = booleanOn(readChild(chart, NS.c, 'autoTitleDeleted')) ?? !isOffice2007(doc, parts);
  if (deleted) return '';
  const title = readChild(chart, NS.c, 'title');
  const text = title ? titleText(title) : undefined;
  if (text !== undefined) return text;
  const groups = chartGroups(space);
  let auto = '';
  if (groups.length === 1) {
    const sers = readChildren(groups[0], NS.c, 'ser');
    if (sers.length === 1 || (sers.length > 0 && PIE_GROUPS.has(groups[0].localName ?? ''))) auto = seriesName(sers[0]) ?? '';
  }
  return title ? auto || 'Chart Title' : auto;
}

function isOffice2007(doc: StructureDocument, parts: PartReader): boolean {
  if (!doc.has('docProps/app.xml')) return false;
  const v = readChild(parts(doc, 'docProps/app.xml'), NS.ep, 'AppVersion')?.textContent ?? '';
  return v.startsWith('12.');
}
