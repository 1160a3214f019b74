import type { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import type { RecipeStep, Selector } from '../transform/recipe.ts';

/** A chart item of the extraction result (spec: "Chart item"). */
export interface ChartItem {
  name: string;
  title: string;
  subtitle: string;
  RowDescriptions: string[];
  ColumnDescriptions: string[];
  DataValues: string[][];
}

/** Charts of a document, keyed `Charts.ByEmbedIndex.<n>`. */
export function extractCharts(_doc: StructureDocument): Record<string, ChartItem> {
  throw new StructureError('not_implemented', 'charts are not built yet');
}

/** Applies one `Charts.<Method>.<Index>` step (its value: an array of chart commands). */
export function transformCharts(_doc: StructureDocument, _selector: Selector, step: RecipeStep): void {
  throw new StructureError('not_implemented', 'chart transforms are not built yet', step.path);
}
