/**
 * The document-structure engine (spec: conversion and structure API, Extraction and Transformation): pure
 * TypeScript over a document's bytes, no file system, no network. Layers (STYLE.md, python-docx): package/
 * (zip parts, OPC relationships, content types, ODF manifest), xml/ (DOM helpers), document.ts (one open
 * document with its parsed parts), transform/ (the recipe), and one folder per domain object: docprops/,
 * content-controls/, charts/, track-changes/, slides/.
 *
 * What needs LibreOffice's layout (PageCount, the page of each tracked change) is passed in as `layout`, measured
 * by a kit; the engine never estimates it.
 */
import { extractCharts, transformCharts } from './charts/index.ts';
import { extractContentControls, transformContentControls } from './content-controls/index.ts';
import { StructureDocument, type StructureFormat } from './document.ts';
import { readOdfDocumentProperties } from './docprops/odf-docprops.ts';
import { readOoxmlDocumentProperties } from './docprops/ooxml-docprops.ts';
import type { DocumentProperties } from './docprops/document-properties.ts';
import { stampSave, transformDocumentProperties } from './docprops/transform-docprops.ts';
import { StructureError } from './errors.ts';
import { alignRedlinePages, type LayoutRedline } from './layout/redline-alignment.ts';
import { extractSlides, transformSlides } from './slides/index.ts';
import { extractTrackChanges } from './track-changes/index.ts';
import { parseRecipe, parseSelector } from './transform/recipe.ts';

export { StructureError } from './errors.ts';
export { StructureDocument, type StructureFormat } from './document.ts';
export type { DocumentProperties, DocumentStatistics, UserDefinedProperty } from './docprops/document-properties.ts';

export { FILTERS_BY_KIND, STRUCTURE_FILTERS, type StructureFilterName } from './filters.ts';
import { FILTERS_BY_KIND, type StructureFilterName } from './filters.ts';

/** Layout facts only LibreOffice knows, measured by a kit. */
export interface DocumentLayout {
  /** Pages of a text document after layout. */
  pageCount?: number;
  /**
   * LibreOffice's redline table in its own order (document order, except that notes, frames, headers and footers
   * come first, as track-changes/ produces its items too), with the 1-based page on which each change starts.
   */
  redlines?: readonly LayoutRedline[];
}

/** What to extract: the filter (undefined: everything that applies) and the trackchanges arguments. */
export interface ExtractOptions {
  filter?: StructureFilterName;
  /** trackchanges `contextLen:<n>`: longest textBefore/textAfter, in characters. */
  contextLen?: number;
  /** trackchanges `startPageNumber:true`: add the page of each change (needs `layout.redlines`). */
  startPageNumber?: boolean;
  layout?: DocumentLayout;
}

/** The kind of document a native format is. */
export function kindOfFormat(format: StructureFormat): 'text' | 'presentation' {
  return format === 'docx' || format === 'odt' ? 'text' : 'presentation';
}

/**
 * Extracts the `DocStructure` object (spec: "Extraction result") of a docx, odt, pptx or odp. Items are keyed as
 * the spec's selectors (`ContentControls.ByIndex.0`, `Charts.ByEmbedIndex.0`, `TrackChanges.ByIndex.0`,
 * `DocumentProperties`); the slides filter adds `SlideCount`, `MasterSlideCount`, `MasterSlides`, `Slides`.
 * A filter that does not apply to the document's kind gives an empty object.
 * @throws StructureError bad_package for unreadable packages and parts.
 */
export function extractStructure(bytes: Uint8Array, format: StructureFormat, opts: ExtractOptions = {}): Record<string, unknown> {
  const doc = StructureDocument.open(bytes, format);
  const applies = FILTERS_BY_KIND[kindOfFormat(format)];
  const wanted = opts.filter ? applies.filter((f) => f === opts.filter) : applies;
  const out: Record<string, unknown> = {};
  for (const filter of wanted) {
    switch (filter) {
      case 'contentcontrol':
        Object.assign(out, extractContentControls(doc));
        break;
      case 'charts':
        Object.assign(out, extractCharts(doc));
        break;
      case 'docprops':
        out.DocumentProperties = readDocumentProperties(doc, opts.layout);
        break;
      case 'trackchanges': {
        let items = extractTrackChanges(doc, { contextLen: opts.contextLen });
        if (opts.startPageNumber)
          items = extractTrackChanges(doc, {
            contextLen: opts.contextLen,
            startPageNumbers: alignRedlinePages(Object.values(items), opts.layout?.redlines ?? []),
          });
        Object.assign(out, items);
        break;
      }
      case 'slides':
        Object.assign(out, extractSlides(doc));
        break;
    }
  }
  return out;
}

/**
 * The DocumentProperties item of a document (spec: "DocumentProperties item"). When `layout.pageCount` is given
 * (from a kit) for a text document, it replaces the stored page count.
 * @throws StructureError bad_package for unreadable packages.
 */
export function extractDocumentProperties(bytes: Uint8Array, format: StructureFormat, layout: DocumentLayout = {}): DocumentProperties {
  return readDocumentProperties(StructureDocument.open(bytes, format), layout);
}

function readDocumentProperties(doc: StructureDocument, layout: DocumentLayout = {}): DocumentProperties {
  const props = doc.format === 'docx' || doc.format === 'pptx' ? readOoxmlDocumentProperties(doc.pkg) : readOdfDocumentProperties(doc.pkg);
  if (layout.pageCount !== undefined && kindOfFormat(doc.format) === 'text') props.DocumentStatistics.PageCount = layout.pageCount;
  return props;
}

/**
 * Checks a recipe's JSON and top-level shape without a document, so a server can refuse it before any work.
 * @throws StructureError bad_recipe with the path of the offending member.
 */
export function checkRecipe(recipe: string): void {
  parseRecipe(recipe);
}

/** Options of a transformation: `now` is the save time written to ModificationDate (default: the clock). */
export interface TransformOptions {
  now?: Date;
}

/**
 * Applies a recipe (spec: "Transformation") to a docx, odt, pptx or odp and returns the new document's bytes.
 * Commands run in order; a selector matching several items transforms them in item order. Every command is
 * checked as it runs, and the document is written only when all succeeded, so a bad recipe changes nothing.
 * Like any save, it overwrites ModifiedBy and ModificationDate (spec: DocumentProperties rules).
 * @throws StructureError with a stable code and the `path` of the offending recipe member: bad_recipe,
 *   unknown_selector, unknown_command, bad_value, out_of_range, no_match, unsupported_command, wrong_kind;
 *   bad_package for unreadable documents.
 */
export async function transformStructure(bytes: Uint8Array, format: StructureFormat, recipe: string, opts: TransformOptions = {}): Promise<Uint8Array> {
  const steps = parseRecipe(recipe);
  const doc = StructureDocument.open(bytes, format);
  const kind = kindOfFormat(format);
  for (const step of steps) {
    if (step.key === 'DocumentProperties') {
      transformDocumentProperties(doc, step);
      continue;
    }
    if (step.key === 'SlideCommands') {
      if (kind !== 'presentation')
        throw new StructureError('wrong_kind', `${step.path}: SlideCommands apply to presentations, and this is a text document`, step.path);
      transformSlides(doc, step);
      continue;
    }
    const selector = parseSelector(step.key, step.path);
    if (selector.type === 'ContentControls') {
      if (kind !== 'text')
        throw new StructureError('wrong_kind', `${step.path}: content controls are in text documents, and this is a presentation`, step.path);
      transformContentControls(doc, selector, step);
    } else if (selector.type === 'Charts') {
      transformCharts(doc, selector, step);
    } else {
      throw new StructureError(
        'unknown_selector',
        `${step.path}: "${selector.type}" is not ContentControls, Charts, DocumentProperties or SlideCommands`,
        step.path,
      );
    }
  }
  stampSave(doc, opts.now ?? new Date());
  return doc.save();
}
