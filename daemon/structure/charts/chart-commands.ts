import { StructureError } from '../errors.ts';
import { commandIndex, commandList, describe, expectNumber, expectString, splitCommand, type RecipeStep } from '../transform/recipe.ts';
import type { ChartTable } from './chart-table.ts';

/**
 * The chart commands of the spec (Transformation, chart command table), applied to a `ChartTable`:
 * deletecolumn.n, deleterow.n, modifyrow.n, modifycolumn.n (named by Collabora's manual, "not shown" in the
 * spec), insertcolumn.n, insertrow.n, setcolumndesc(.n), setrowdesc(.n), resize, datayx.row.col, data.
 *
 * Rules (docs/structure/charts.md): indexes count from 0; insert positions go from 0 to the count (append);
 * an array shorter than its target changes only the given elements, values beyond the target are ignored
 * (Collabora's own example inserts a 6-value column into a 4-row table) except for `data`, which grows the table; a value is a number (or a numeric string), `null` clears a cell (NaN);
 * NONE is `""`, `null` or an empty array; the last row or column of a chart cannot be deleted (out_of_range).
 */

/** What a chart allows: XY charts (scatter, bubble) have a fixed column layout per series. */
export interface ChartCommandLimits {
  /** When set, commands that add or remove columns fail with unsupported_command and this reason. */
  fixedColumns?: string;
}

/**
 * Runs the commands of one chart step (`step.value`, an array of one-property objects or the object form) on
 * `table`, in order.
 * @throws StructureError bad_recipe, unknown_command, bad_value, out_of_range, unsupported_command, each with the
 *   path of the offending command.
 */
export function applyChartCommands(table: ChartTable, step: RecipeStep, limits: ChartCommandLimits = {}): void {
  for (const cmd of commandList(step.value, step.path)) applyOne(table, cmd, limits);
}

function applyOne(table: ChartTable, cmd: RecipeStep, limits: ChartCommandLimits): void {
  const { name, args } = splitCommand(cmd.key);
  const p = cmd.path;
  const arity = (n: number): void => {
    if (args.length !== n)
      throw new StructureError('unknown_command', `${p}: "${cmd.key}" is not a chart command (${name} takes ${n} index${n === 1 ? '' : 'es'})`, p);
  };
  const noColumns = (): void => {
    if (limits.fixedColumns)
      throw new StructureError('unsupported_command', `${p}: ${name} cannot change the columns of this chart: ${limits.fixedColumns}`, p);
  };
  switch (name) {
    case 'deletecolumn': {
      arity(1);
      noColumns();
      const c = commandIndex(args[0], p, 0, table.columnCount - 1);
      expectNone(cmd.value, p);
      if (table.columnCount === 1) throw new StructureError('out_of_range', `${p}: a chart keeps at least one column; this is its last`, p);
      table.deleteColumn(c);
      return;
    }
    case 'deleterow': {
      arity(1);
      const r = commandIndex(args[0], p, 0, table.rowCount - 1);
      expectNone(cmd.value, p);
      if (table.rowCount === 1) throw new StructureError('out_of_range', `${p}: a chart keeps at least one row; this is its last`, p);
      table.deleteRow(r);
      return;
    }
    case 'modifyrow': {
      arity(1);
      const r = commandIndex(args[0], p, 0, table.rowCount - 1);
      const values = numberArray(cmd.value, p, table.columnCount);
      values.forEach((v, c) => table.set(r, c, v));
      return;
    }
    case 'modifycolumn': {
      arity(1);
      const c = commandIndex(args[0], p, 0, table.columnCount - 1);
      const values = numberArray(cmd.value, p, table.rowCount);
      values.forEach((v, r) => table.set(r, c, v));
      return;
    }
    case 'insertcolumn': {
      arity(1);
      noColumns();
      const c = commandIndex(args[0], p, 0, table.columnCount);
      const values = isNone(cmd.value) ? [] : numberArray(cmd.value, p, table.rowCount);
      checkSize(table.rowCount, table.columnCount + 1, p);
      table.insertColumn(c);
      values.forEach((v, r) => table.set(r, c, v));
      return;
    }
    case 'insertrow': {
      arity(1);
      const r = commandIndex(args[0], p, 0, table.rowCount);
      const values = isNone(cmd.value) ? [] : numberArray(cmd.value, p, table.columnCount);
      checkSize(table.rowCount + 1, table.columnCount, p);
      table.insertRow(r);
      values.forEach((v, c) => table.set(r, c, v));
      return;
    }
    case 'setcolumndesc':
    case 'setrowdesc': {
      const list = name === 'setrowdesc' ? table.rowDescriptions : null;
      const count = list ? list.length : table.columnCount;
      const put = (i: number, text: string): void => {
        if (list) list[i] = text;
        else table.columns[i].desc = text;
      };
      if (args.length === 1) {
        const i = commandIndex(args[0], p, 0, count - 1);
        put(i, text(cmd.value, p));
        return;
      }
      arity(0);
      if (!Array.isArray(cmd.value)) throw new StructureError('bad_value', `${p} must be an array of texts, got ${describe(cmd.value)}`, p);
      const texts = cmd.value.map((v, i) => text(v, `${p}[${i}]`));
      texts.slice(0, count).forEach((t, i) => put(i, t));
      return;
    }
    case 'resize': {
      arity(0);
      if (!Array.isArray(cmd.value) || cmd.value.length !== 2)
        throw new StructureError('bad_value', `${p} must be [rows, columns], got ${describe(cmd.value)}`, p);
      const rows = wholeNumber(cmd.value[0], `${p}[0]`);
      const cols = wholeNumber(cmd.value[1], `${p}[1]`);
      if (rows < 2 || cols < 2)
        throw new StructureError('out_of_range', `${p} is [${rows}, ${cols}], but both the rows and the columns must be greater than 1`, p);
      checkSize(rows, cols, p);
      if (cols !== table.columnCount) noColumns();
      table.resize(rows, cols);
      return;
    }
    case 'datayx': {
      arity(2);
      const r = commandIndex(args[0], p, 0, table.rowCount - 1);
      const c = commandIndex(args[1], p, 0, table.columnCount - 1);
      table.set(r, c, cellValue(cmd.value, p));
      return;
    }
    case 'data': {
      arity(0);
      if (!Array.isArray(cmd.value)) throw new StructureError('bad_value', `${p} must be an array of rows (arrays of numbers), got ${describe(cmd.value)}`, p);
      const rows = cmd.value.map((row, r) => {
        if (!Array.isArray(row)) throw new StructureError('bad_value', `${p}[${r}] must be an array of numbers, got ${describe(row)}`, `${p}[${r}]`);
        return row.map((v, c) => cellValue(v, `${p}[${r}][${c}]`));
      });
      const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
      if (width > table.columnCount) noColumns();
      checkSize(Math.max(table.rowCount, rows.length), Math.max(table.columnCount, width), p);
      table.resize(Math.max(table.rowCount, rows.length), Math.max(table.columnCount, width));
      rows.forEach((row, r) => row.forEach((v, c) => table.set(r, c, v)));
      return;
    }
    default:
      throw new StructureError(
        'unknown_command',
        `${p}: "${cmd.key}" is not a chart command (deletecolumn.n, deleterow.n, modifyrow.n, modifycolumn.n, insertcolumn.n, insertrow.n, setcolumndesc[.n], setrowdesc[.n], resize, datayx.r.c, data)`,
        p,
      );
  }
}

/**
 * The largest table a command may make: Excel's sheet (the embedded workbook holds the table with a header row
 * and column) and a million cells, so a recipe cannot make the server build a huge document.
 */
export const MAX_ROWS = 1_048_575;
export const MAX_COLUMNS = 16_383;
export const MAX_CELLS = 1_000_000;

function checkSize(rows: number, cols: number, path: string): void {
  if (rows > MAX_ROWS || cols > MAX_COLUMNS || rows * cols > MAX_CELLS) {
    throw new StructureError(
      'out_of_range',
      `${path} would make a ${rows} x ${cols} table; a chart table has at most ${MAX_ROWS} rows, ${MAX_COLUMNS} columns and ${MAX_CELLS} cells`,
      path,
    );
  }
}

/** A description: a string XML can hold (no control characters but tab, line feed and carriage return). */
function text(v: unknown, path: string): string {
  const s = expectString(v, path);
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(s))
    throw new StructureError('bad_value', `${path} contains a control character, which a document cannot hold`, path);
  return s;
}

function isNone(v: unknown): boolean {
  return v === '' || v === null || (Array.isArray(v) && v.length === 0);
}

function expectNone(v: unknown, path: string): void {
  if (!isNone(v)) throw new StructureError('bad_value', `${path} takes no value (NONE, written ""), got ${describe(v)}`, path);
}

function wholeNumber(v: unknown, path: string): number {
  const n = expectNumber(v, path);
  if (!Number.isInteger(n)) throw new StructureError('bad_value', `${path} must be a whole number, got ${describe(v)}`, path);
  return n;
}

/** A cell value: a number or numeric string; null clears the cell (NaN). */
function cellValue(v: unknown, path: string): number {
  if (v === null) return NaN;
  return expectNumber(v, path);
}

/** The values of an array command: all are checked, those beyond the target's `max` cells are ignored. */
function numberArray(v: unknown, path: string, max: number): number[] {
  if (!Array.isArray(v)) throw new StructureError('bad_value', `${path} must be an array of numbers, got ${describe(v)}`, path);
  return v.map((x, i) => cellValue(x, `${path}[${i}]`)).slice(0, max);
}
