import type { App, ClipboardAdapter } from '../core/app.ts';
import { a1ToR1C1, columnName, parseCell, parseRange, r1c1ToA1 } from './r1c1.ts';
import { enterString, goToCell, str } from './uno.ts';

/** Copies up to this many cells get their formulas (read cell by cell); larger ones carry values only. */
export const MAX_FORMULA_CELLS = 100;

/** `data-sheets-value` of one cell (spec: key 1 the type; 2 text in key 2, 3 number in key 3, 4 boolean in key 4). */
export type SheetsValue = { 1: 2; 2: string } | { 1: 3; 3: number } | { 1: 4; 4: 0 | 1 };

/**
 * What LibreOffice 7.4's HTML says about one cell: `sdval` (the number) and `sdnum` (`lang;lang2;format`, the
 * format `BOOLEAN` for booleans), else the cell's text. Returns the spec's value and number format (or none).
 */
export function cellValue(sdval: string | null, sdnum: string | null, text: string): { value?: SheetsValue; format?: string } {
  const format = sdnum?.split(';').slice(2).join(';') || undefined;
  if (sdval !== null && sdval !== '' && Number.isFinite(Number(sdval))) {
    if (format === 'BOOLEAN') return { value: { 1: 4, 4: Number(sdval) ? 1 : 0 } };
    return { value: { 1: 3, 3: Number(sdval) }, format: format && format !== 'General' ? format : undefined };
  }
  return text === '' ? {} : { value: { 1: 2, 2: text } };
}

/** What to type into a cell for a `data-sheets-value` (undefined: leave the cell alone). */
export function valueText(json: string | null): string | undefined {
  if (!json) return undefined;
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  switch (Number(v[1])) {
    case 2:
      return v[2] === undefined ? undefined : String(v[2]);
    case 3:
      return v[3] === undefined ? undefined : String(v[3]);
    case 4:
      return Number(v[4]) ? 'TRUE' : 'FALSE';
    default:
      return undefined;
  }
}

/**
 * The spreadsheet clipboard (spec: HTML clipboard extensions; issue 5): set as `app.clipboard`.
 * - decorateHtml: LibreOffice's HTML of the copied range gets, on each `td`, `data-sheets-value` and
 *   `data-sheets-numberformat` (from `sdval`/`sdnum`) and `data-sheets-formula` in R1C1 style, plus the
 *   `<google-sheets-html-origin>` marker after the own `meta-origin` div. LibreOffice's HTML has no formulas (and
 *   7.4's other clipboard flavours turn formulas into values), so for copies of up to MAX_FORMULA_CELLS cells the
 *   cursor visits each cell (`.uno:GoToCell` with a `unoResult`), reading the formula bar's `cellFormula`
 *   (sent only when it changes, always before the command's result), then the selection is put back.
 * - pasteHtml: HTML carrying `data-sheets-*` (a table, or the one-cell `span` form) is entered cell by cell from
 *   the current cell (`.uno:EnterString`; formulas turned back from R1C1 to A1 at their new place). Other HTML goes
 *   to LibreOffice's own paste.
 */
export class CalcClipboard implements ClipboardAdapter {
  /** The current cell or range (CELL_ADDRESS) and the formula bar's content (CELL_FORMULA). */
  private address = '';
  private formula = '';
  /** Counts LibreOffice's repaints (`invalidate`): a change of the document drops the formulas read before. */
  private generation = 0;
  /** The formulas read last, by sheet, range and generation: the view asks for the HTML again after each selection
   * change, and the visit itself changes the selection, so the same copy must not visit the cells again. */
  private read: { key: string; formulas: Promise<string[][]> } | undefined;

  constructor(private readonly app: App) {
    app.session.on('cellAddress', (m) => (this.address = m.address));
    app.session.on('cellFormula', (m) => (this.formula = m.formula));
    app.session.on('invalidate', () => this.generation++);
  }

  async decorateHtml(html: string): Promise<string> {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const marker = doc.createElement('google-sheets-html-origin');
    const origin = doc.getElementById('meta-origin');
    if (origin) origin.after(marker);
    else doc.body.prepend(marker);
    const table = doc.querySelector('table');
    if (!table) return serialize(doc);
    const range = parseRange(this.address);
    const grid = cellsOf(table);
    const rows = grid.length;
    const cols = Math.max(0, ...grid.map((r) => r.length));
    const formulas = range && range.endRow - range.row + 1 === rows && range.endCol - range.col + 1 === cols && rows * cols <= MAX_FORMULA_CELLS ? await this.formulasOf(range) : undefined;
    grid.forEach((cells, r) =>
      cells.forEach((td, c) => {
        const { value, format } = cellValue(td.getAttribute('sdval'), td.getAttribute('sdnum'), td.textContent?.trim() ?? '');
        if (value) td.setAttribute('data-sheets-value', JSON.stringify(value));
        if (format) td.setAttribute('data-sheets-numberformat', JSON.stringify({ 1: 2, 2: format, 3: 1 }));
        const f = formulas?.[r]?.[c];
        if (f?.startsWith('=') && range) td.setAttribute('data-sheets-formula', a1ToR1C1(f, range.row + r, range.col + c));
      }),
    );
    return serialize(doc);
  }

  async pasteHtml(html: string): Promise<boolean> {
    if (!/data-sheets-(value|formula)/.test(html)) return false;
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const table = doc.querySelector('table');
    const grid: Element[][] = table ? cellsOf(table) : [[...doc.querySelectorAll('[data-sheets-value], [data-sheets-formula]')].slice(0, 1)];
    const at = parseCell(this.address.split(':')[0]);
    if (!at || grid.every((r) => r.length === 0)) return false;
    const start = this.address.split(':')[0];
    const single = grid.length === 1 && grid[0].length === 1;
    for (const [r, cells] of grid.entries()) {
      for (const [c, cell] of cells.entries()) {
        const f = cell.getAttribute('data-sheets-formula');
        const text = f ? r1c1ToA1(f, at.row + r, at.col + c) : (valueText(cell.getAttribute('data-sheets-value')) ?? cell.textContent?.trim() ?? '');
        if (!single) goToCell(this.app, `${columnName(at.col + c)}${at.row + r + 1}`);
        enterString(this.app, text);
      }
    }
    if (!single) goToCell(this.app, start);
    return true;
  }

  private formulasOf(range: { row: number; col: number; endRow: number; endCol: number }): Promise<string[][]> {
    // One cell: the formula bar already shows it.
    if (range.row === range.endRow && range.col === range.endCol) return Promise.resolve([[this.formula]]);
    const key = `${this.app.session.state.part}|${this.address}|${this.generation}`;
    if (this.read?.key !== key) this.read = { key, formulas: this.readFormulas(range).catch(() => []) };
    return this.read.formulas;
  }

  /** The formula bar's content of each cell of `range`; the selection is restored afterwards. */
  private async readFormulas(range: { row: number; col: number; endRow: number; endCol: number }): Promise<string[][]> {
    const selection = this.address;
    const out: string[][] = [];
    try {
      for (let r = range.row; r <= range.endRow; r++) {
        const row: string[] = [];
        for (let c = range.col; c <= range.endCol; c++) {
          const cell = `${columnName(c)}${r + 1}`;
          await this.app.session.request({ type: 'uno', command: '.uno:GoToCell', args: JSON.stringify({ ToPoint: str(cell) }), notify: true }, 'unoResult', (m) => m.command === '.uno:GoToCell', 5_000);
          row.push(this.formula);
        }
        out.push(row);
      }
    } finally {
      goToCell(this.app, selection);
    }
    return out;
  }
}

/** The table's cells as rows of `td`/`th` (colspans take their width). */
function cellsOf(table: Element): Element[][] {
  return [...table.querySelectorAll('tr')].map((tr) => {
    const cells: Element[] = [];
    for (const td of tr.querySelectorAll('td, th')) {
      cells.push(td);
      for (let i = 1; i < Number(td.getAttribute('colspan') ?? 1); i++) cells.push(td.ownerDocument.createElement('td'));
    }
    return cells;
  });
}

function serialize(doc: Document): string {
  return `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
}
