/**
 * Helpers for the chart tests (not used by the engine): corpus files, extraction and transformation through
 * the chart module, and readers that check a transformed docx's chart caches against its embedded workbook.
 */
import { readFileSync } from 'node:fs';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { StructureDocument, type StructureFormat } from '../document.ts';
import { ZipPackage } from '../package/zip-package.ts';
import { parseRecipe, parseSelector } from '../transform/recipe.ts';
import { NS } from '../xml/dom.ts';
import { parseRange, cellName } from './cell-ref.ts';
import { extractCharts, transformCharts, type ChartItem } from './index.ts';

export const CHART_CORPUS = new URL('../../../../shared/corpus/charts/', import.meta.url).pathname;
export const CHART_FIXTURES = new URL('../../../test/structure/fixtures/charts/', import.meta.url).pathname;

export function corpusFile(name: string): Uint8Array {
  return new Uint8Array(readFileSync(CHART_CORPUS + name));
}

export function fixtureFile(name: string): Uint8Array {
  return new Uint8Array(readFileSync(CHART_FIXTURES + name));
}

export function golden(name: string): Record<string, ChartItem> {
  return JSON.parse(readFileSync(`${CHART_FIXTURES}${name}.json`, 'utf8')) as Record<string, ChartItem>;
}

export function formatOf(name: string): StructureFormat {
  return name.slice(name.lastIndexOf('.') + 1) as StructureFormat;
}

export function extract(bytes: Uint8Array, format: StructureFormat): Record<string, ChartItem> {
  return extractCharts(StructureDocument.open(bytes, format));
}

/** Runs a recipe's chart steps through the chart module and saves (the engine's transform, minus other domains). */
export async function transform(bytes: Uint8Array, format: StructureFormat, transforms: unknown): Promise<Uint8Array> {
  const doc = StructureDocument.open(bytes, format);
  for (const step of parseRecipe(JSON.stringify({ Transforms: transforms }))) transformCharts(doc, parseSelector(step.key, step.path), step);
  return doc.save();
}

const parse = (text: string): Element => new DOMParser().parseFromString(text, 'text/xml').documentElement!;

/** The cells of a worksheet of an xlsx (by sheet name), as text: numbers as written, shared strings resolved. */
export function workbookCells(xlsx: Uint8Array, sheet = 'Sheet1'): Map<string, string> {
  const pkg = ZipPackage.open(xlsx);
  const wb = parse(pkg.textOf('xl/workbook.xml')!);
  const rid = [...wb.getElementsByTagNameNS(NS.x, 'sheet')].find((s) => s.getAttribute('name') === sheet)!.getAttributeNS(NS.r, 'id');
  const rels = parse(pkg.textOf('xl/_rels/workbook.xml.rels')!);
  const target = [...rels.getElementsByTagNameNS(NS.rel, 'Relationship')].find((r) => r.getAttribute('Id') === rid)!.getAttribute('Target')!;
  const ws = parse(pkg.textOf(`xl/${target.replace(/^\/?xl\//, '')}`)!);
  const sst = pkg.has('xl/sharedStrings.xml')
    ? [...parse(pkg.textOf('xl/sharedStrings.xml')!).getElementsByTagNameNS(NS.x, 'si')].map((si) => si.textContent ?? '')
    : [];
  const out = new Map<string, string>();
  for (const c of ws.getElementsByTagNameNS(NS.x, 'c')) {
    const v = c.getElementsByTagNameNS(NS.x, 'v')[0]?.textContent;
    const t = c.getAttribute('t');
    const text = t === 's' ? sst[Number(v)] : t === 'inlineStr' ? (c.getElementsByTagNameNS(NS.x, 'is')[0]?.textContent ?? '') : v;
    if (text !== undefined && text !== null) out.set(c.getAttribute('r')!, text);
  }
  return out;
}

/** The bytes of a part of a package. */
export function partBytes(pkgBytes: Uint8Array, part: string): Uint8Array {
  return ZipPackage.open(pkgBytes).bytesOf(part)!;
}

export function partText(pkgBytes: Uint8Array, part: string): string {
  return ZipPackage.open(pkgBytes).textOf(part)!;
}

/**
 * Checks that every formula of a chart part (c:tx, c:cat, c:val) reads, in the embedded workbook, exactly its
 * cache (c:ptCount = the range's length, each c:pt = its cell; cells without a c:pt are empty) and returns the
 * list of disagreements (empty when consistent).
 */
export function cacheWorkbookDisagreements(docx: Uint8Array, chartPart: string, xlsxPart: string): string[] {
  const cells = workbookCells(partBytes(docx, xlsxPart));
  const space = parse(partText(docx, chartPart));
  const problems: string[] = [];
  for (const f of space.getElementsByTagNameNS(NS.c, 'f')) {
    const ref = parseRange(f.textContent ?? '')!;
    const cache = [...(f.parentNode as Element).childNodes].find((n) => n.nodeType === 1 && /Cache$/.test((n as Element).localName ?? '')) as Element;
    const count = Number(cache.getElementsByTagNameNS(NS.c, 'ptCount')[0].getAttribute('val'));
    const len = (ref.row2 - ref.row1 + 1) * (ref.col2 - ref.col1 + 1);
    if (count !== len) problems.push(`${f.textContent}: ptCount ${count}, range of ${len}`);
    const pts = new Map(
      [...cache.getElementsByTagNameNS(NS.c, 'pt')].map((pt) => [Number(pt.getAttribute('idx')), pt.getElementsByTagNameNS(NS.c, 'v')[0]?.textContent ?? '']),
    );
    for (let i = 0; i < len; i++) {
      const cell = ref.col1 === ref.col2 ? cellName(ref.col1, ref.row1 + i) : cellName(ref.col1 + i, ref.row1);
      const inBook = cells.get(cell) ?? '';
      const inCache = pts.get(i) ?? '';
      const same = inBook === inCache || (inBook !== '' && inCache !== '' && Number(inBook) === Number(inCache));
      if (!same) problems.push(`${cell}: workbook "${inBook}", cache "${inCache}"`);
    }
  }
  return problems;
}
