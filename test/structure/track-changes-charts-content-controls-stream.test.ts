/**
 * Equivalence of the streaming extraction paths: tracked changes, content controls and charts read through
 * stream-built trees (`streamedParts`, the default) give exactly what the same readers give over the DOM
 * (`domParts`), on every corpus document of those areas, their fixtures, the two large decks, and on the
 * documents transformations write from them (title, first text content control, first chart cell).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractCharts } from '../../daemon/structure/charts/index.ts';
import { extractContentControls } from '../../daemon/structure/content-controls/index.ts';
import { StructureDocument, type StructureFormat } from '../../daemon/structure/document.ts';
import { transformStructure } from '../../daemon/structure/index.ts';
import { extractTrackChanges } from '../../daemon/structure/track-changes/index.ts';
import { domParts, streamedParts, type PartReader } from '../../daemon/structure/xml/read-tree.ts';

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

const documents = [
  ...['tracked-changes', 'content-controls', 'charts'].flatMap((f) => readdirSync(join(CORPUS, f)).map((n) => join(CORPUS, f, n))),
  ...['track-changes', 'content-controls', 'charts'].flatMap((f) => readdirSync(join(FIXTURES, f)).map((n) => join(FIXTURES, f, n))),
  ...['Presentation1.odp', 'aascu.org_hbcu_leadershipsummit_cooper_.pptx'].map((n) => join(CORPUS, 'presentations', n)),
].filter((p) => ['.docx', '.odt', '.pptx', '.odp'].includes(extname(p)));

const formatOf = (path: string) => extname(path).slice(1) as StructureFormat;
const isText = (format: StructureFormat) => format === 'docx' || format === 'odt';

/** Everything the three readers extract from `bytes`, read through `parts` (each reader on a fresh document). */
function extractAll(bytes: Uint8Array, format: StructureFormat, parts: PartReader): Record<string, unknown> {
  const open = () => StructureDocument.open(bytes, format);
  const out: Record<string, unknown> = { charts: extractCharts(open(), parts) };
  if (isText(format)) {
    out.controls = extractContentControls(open(), parts);
    out.changes = extractTrackChanges(open(), {}, parts);
    out.changesShort = extractTrackChanges(open(), { contextLen: 7 }, parts);
  }
  // one document for all filters, as extractStructure does: the cached trees are shared
  const shared = open();
  out.sharedCharts = extractCharts(shared, parts);
  if (isText(format)) {
    out.sharedControls = extractContentControls(shared, parts);
    out.sharedChanges = extractTrackChanges(shared, {}, parts);
  }
  return out;
}

/** A recipe touching what the document has: title, first text content control, first chart cell. */
function recipeFor(found: Record<string, unknown>): string {
  const transforms: unknown[] = [{ DocumentProperties: { Title: 'Stream equivalence' } }];
  const controls = (found.controls ?? {}) as Record<string, { type: string }>;
  const text = Object.entries(controls).find(([, v]) => v.type === 'plain-text' || v.type === 'rich-text');
  if (text) transforms.push({ [text[0]]: { content: 'New value\twith a tab' } });
  const chart = Object.keys(found.charts as object)[0];
  if (chart) transforms.push({ [chart]: [{ 'datayx.0.0': 42 }] });
  return JSON.stringify({ Transforms: transforms });
}

let transformed = 0;

describe('streaming extraction equals DOM extraction', () => {
  it.each(documents.map((p) => [p.slice(p.lastIndexOf('/', p.lastIndexOf('/') - 1) + 1), p]))(
    '%s, and what a transformation writes from it',
    async (_name, path) => {
      const format = formatOf(path);
      const bytes = new Uint8Array(readFileSync(path));
      const dom = extractAll(bytes, format, domParts);
      expect(extractAll(bytes, format, streamedParts)).toEqual(dom);
      let written: Uint8Array;
      try {
        written = await transformStructure(bytes, format, recipeFor(dom));
      } catch {
        // a document the recipe cannot change (e.g. a chart index that is not a chart): nothing written to compare
        return;
      }
      expect(extractAll(written, format, streamedParts)).toEqual(extractAll(written, format, domParts));
      transformed++;
    },
  );

  it('covers documents with tracked changes, content controls and charts', () => {
    const counts = { changes: 0, controls: 0, charts: 0 };
    for (const path of documents) {
      const found = extractAll(new Uint8Array(readFileSync(path)), formatOf(path), streamedParts);
      for (const k of Object.keys(counts) as Array<keyof typeof counts>) counts[k] += Object.keys((found[k] ?? {}) as object).length;
    }
    expect(counts.changes).toBeGreaterThan(200);
    expect(counts.controls).toBeGreaterThan(50);
    expect(counts.charts).toBeGreaterThan(10);
    expect(transformed).toBeGreaterThan(documents.length - 5);
  });
});
