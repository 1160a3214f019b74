/**
 * The data table of a chart as LibreOffice's chart model sees it (`css::chart::XChartDataArray` of the chart's
 * internal data provider): rows are categories (RowDescriptions), columns are data sequences, one per series for
 * category charts (ColumnDescriptions), and every cell a double, NaN when unset. Both formats read into it and
 * write back from it (ooxml-chart.ts, odf-chart.ts); the chart commands (chart-commands.ts) edit it.
 */

/** One column of the table: its description, one value per row, and where it came from. */
export interface ChartColumn {
  desc: string;
  values: number[];
  /** Index of the column in the table as read from the document; -1 for a column a command inserted. */
  origin: number;
}

/** A chart's data table (rows x columns), with row and column descriptions. */
export class ChartTable {
  rowDescriptions: string[];
  columns: ChartColumn[];

  constructor(rowDescriptions: string[], columns: ChartColumn[]) {
    this.rowDescriptions = rowDescriptions;
    this.columns = columns;
  }

  /** Builds a table from descriptions and row-major values (missing cells are NaN); origins 0..n-1. */
  static fromRows(rowDescriptions: string[], columnDescriptions: string[], rows: number[][]): ChartTable {
    const columns = columnDescriptions.map((desc, c) => ({ desc, origin: c, values: rowDescriptions.map((_, r) => rows[r]?.[c] ?? NaN) }));
    return new ChartTable([...rowDescriptions], columns);
  }

  get rowCount(): number {
    return this.rowDescriptions.length;
  }

  get columnCount(): number {
    return this.columns.length;
  }

  /** Values row by row (the spec's DataValues before formatting). */
  rows(): number[][] {
    return this.rowDescriptions.map((_, r) => this.columns.map((c) => c.values[r]));
  }

  /** Inserts a row of NaN before `at` (0..rowCount). */
  insertRow(at: number): void {
    this.rowDescriptions.splice(at, 0, '');
    for (const c of this.columns) c.values.splice(at, 0, NaN);
  }

  deleteRow(at: number): void {
    this.rowDescriptions.splice(at, 1);
    for (const c of this.columns) c.values.splice(at, 1);
  }

  /** Inserts a column of NaN before `at` (0..columnCount). */
  insertColumn(at: number): void {
    this.columns.splice(at, 0, { desc: '', origin: -1, values: this.rowDescriptions.map(() => NaN) });
  }

  deleteColumn(at: number): void {
    this.columns.splice(at, 1);
  }

  /** Grows or shrinks to rows x columns; new cells are NaN, new descriptions empty. */
  resize(rows: number, columns: number): void {
    while (this.rowCount > rows) this.deleteRow(this.rowCount - 1);
    while (this.rowCount < rows) this.insertRow(this.rowCount);
    while (this.columnCount > columns) this.deleteColumn(this.columnCount - 1);
    while (this.columnCount < columns) this.insertColumn(this.columnCount);
  }

  set(row: number, column: number, value: number): void {
    this.columns[column].values[row] = value;
  }
}
