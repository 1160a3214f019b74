import type { ChartCommandLimits } from './chart-commands.ts';
import type { ChartTable } from './chart-table.ts';

/**
 * One embedded object of a document, in the order LibreOffice's `getEmbeddedObjects()` lists them (the index of
 * `Charts.ByEmbedIndex.<n>`, which "may refer to non-charts"): charts, formulas, other OLE objects.
 */
export interface EmbeddedObject {
  /** Position among all embedded objects of the document, from 0. */
  index: number;
  /** The object's name as LibreOffice reports it (`Object1`, or the ODF frame's draw:name). */
  name: string;
  /** Other names `Charts.ByEmbedName` accepts (the docx drawing's wp:docPr/@name, e.g. `Chart 1`). */
  aliases: string[];
  /** Set when the object is a chart. */
  chart?: ChartHandle;
}

/** A chart inside a document, independent of the format: its titles, its data table, and how to write it back. */
export interface ChartHandle {
  readonly title: string;
  readonly subtitle: string;
  /** What the chart's commands may change (XY charts keep their column layout). */
  readonly limits: ChartCommandLimits;
  /** Reads the data table from the document (from the current, possibly already transformed, DOM). */
  read(): ChartTable;
  /** Writes a table back: chart part caches and series (and the embedded workbook), or the ODF local table. */
  write(table: ChartTable): void;
}
