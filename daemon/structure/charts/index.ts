import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import type { RecipeStep, Selector } from '../transform/recipe.ts';
import { currentParts, domParts, streamedParts, type PartReader } from '../xml/read-tree.ts';
import { applyChartCommands } from './chart-commands.ts';
import type { EmbeddedObject } from './embedded-object.ts';
import { formatChartNumber } from './number-format.ts';
import { odfEmbeddedObjects } from './odf-chart.ts';
import { ooxmlEmbeddedObjects } from './ooxml-chart.ts';

/**
 * A chart item of the extraction result (spec: "Chart item"), as LibreOffice's chart model reports it: `name`
 * (the embedded object's name), `title` and `subtitle` (absent when the chart has none, as LibreOffice omits
 * them), `RowDescriptions`
 * (categories), `ColumnDescriptions` (series), `DataValues` (rows of formatted doubles, `NaN` when unset).
 */
export interface ChartItem {
  name: string;
  title?: string;
  subtitle?: string;
  RowDescriptions: string[];
  ColumnDescriptions: string[];
  DataValues: string[][];
}

/**
 * The embedded objects of a document in LibreOffice's order (see embedded-object.ts), found in the parts read
 * through `parts` (default: their DOM, which transformations change; extraction reads stream-built trees).
 */
export function embeddedObjects(doc: StructureDocument, parts: PartReader = domParts): EmbeddedObject[] {
  return doc.format === 'docx' || doc.format === 'pptx' ? ooxmlEmbeddedObjects(doc, parts) : odfEmbeddedObjects(doc, parts);
}

/**
 * Charts of a document (spec: Extraction result, "Chart item"), keyed `Charts.ByEmbedIndex.<n>` where n counts
 * every embedded object (formulas and other OLE objects too), so the keys may have gaps. The objects are found in
 * the parts as stored in the package, through trees built from the stream (`parts`; `domParts` reads their DOM,
 * which the equivalence tests compare against); so are a DrawingML chart's own part and app.xml (an ODF chart
 * object is read as DOM).
 * @throws StructureError bad_package when a chart part is missing or not well-formed.
 */
export function extractCharts(doc: StructureDocument, parts: PartReader = streamedParts): Record<string, ChartItem> {
  const out: Record<string, ChartItem> = {};
  for (const obj of embeddedObjects(doc, parts)) {
    if (!obj.chart) continue;
    const table = obj.chart.read();
    out[`Charts.ByEmbedIndex.${obj.index}`] = {
      name: obj.name,
      ...(obj.chart.title ? { title: obj.chart.title } : {}),
      ...(obj.chart.subtitle ? { subtitle: obj.chart.subtitle } : {}),
      RowDescriptions: [...table.rowDescriptions],
      ColumnDescriptions: table.columns.map((c) => c.desc),
      DataValues: table.rows().map((r) => r.map(formatChartNumber)),
    };
  }
  return out;
}

/**
 * Applies one `Charts.<Method>.<Index>` step (spec: Transformation, chart selectors and commands): the
 * selector picks charts (ByEmbedIndex: one object, out_of_range when there is no such object, wrong_kind when
 * it is not a chart; ByEmbedName, ByTitle, BySubTitle: every match in document order, no_match when none), then
 * the step's commands (`step.value`) run on each chart's data table, which is written back to the document.
 * @throws StructureError unknown_selector, out_of_range, wrong_kind, no_match, and the command errors of
 *   chart-commands.ts, each with a path into the recipe.
 */
export function transformCharts(doc: StructureDocument, selector: Selector, step: RecipeStep): void {
  // the story parts are only read here: as they are now, without parsing a DOM of those no command changed
  const objects = embeddedObjects(doc, currentParts);
  let targets: EmbeddedObject[];
  switch (selector.method) {
    case 'ByEmbedIndex': {
      if (!/^\d+$/.test(selector.index))
        throw new StructureError('bad_value', `${step.path}: ByEmbedIndex needs a whole number from 0, got "${selector.index}"`, step.path);
      const i = Number(selector.index);
      if (i >= objects.length)
        throw new StructureError(
          'out_of_range',
          `${step.path}: the document has ${objects.length} embedded object${objects.length === 1 ? '' : 's'}, so there is no index ${i}`,
          step.path,
        );
      if (!objects[i].chart) throw new StructureError('wrong_kind', `${step.path}: embedded object ${i} ("${objects[i].name}") is not a chart`, step.path);
      targets = [objects[i]];
      break;
    }
    case 'ByEmbedName':
      targets = objects.filter((o) => o.chart && (o.name === selector.index || o.aliases.includes(selector.index)));
      break;
    case 'ByTitle':
      targets = objects.filter((o) => o.chart && o.chart.title === selector.index);
      break;
    case 'BySubTitle':
      targets = objects.filter((o) => o.chart && o.chart.subtitle === selector.index);
      break;
    default:
      throw new StructureError(
        'unknown_selector',
        `${step.path}: "${selector.method}" is not a chart selector method (ByEmbedIndex, ByEmbedName, ByTitle, BySubTitle)`,
        step.path,
      );
  }
  if (targets.length === 0)
    throw new StructureError('no_match', `${step.path}: no chart has the ${selector.method.slice(2).toLowerCase()} "${selector.index}"`, step.path);
  for (const obj of targets) {
    const chart = obj.chart!;
    const table = chart.read();
    applyChartCommands(table, step, chart.limits);
    chart.write(table);
  }
}
