import type { App, ClipboardAdapter } from '../core/app.ts';
import { a1ToR1C1, columnName, parseCell, parseRange, r1c1ToA1 } from './r1c1.ts';
import { enterString, goToCell } from './uno.ts';

/** `data-sheets-value` of one cell (spec: key 1 the type; 2 text in key 2, 3 number in key 3, 4 boolean in key 4). */
export type SheetsValue = { 1: 2; 2: string } | { 1: 3; 3: number } | { 1: 4; 4: 0 | 1 };

/**
 * What LibreOffice's HTML says about one cell (7.4 as 25.2): `sdval` (the number) and `sdnum` (`lang;lang2;format`,
 * the format `BOOLEAN` for booleans), else the cell's text. Returns the spec's value and number format (or none).
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
 * - decorateHtml: LibreOffice 25.2's HTML of the copied range already has the `<google-sheets-html-origin>` marker
 *   and each formula cell's `data-sheets-formula` (R1C1; test/kit-editing/calc-clipboard-formulas.test.ts), but no
 *   `data-sheets-value`: each `td` gets `data-sheets-value` and `data-sheets-numberformat` (from `sdval`/`sdnum`),
 *   the formula is written in Google Sheets' R1C1 form (`R[0]C[-1]` for LibreOffice's `RC[-1]`), and the marker
 *   stands once, after the own `meta-origin` div. (LibreOffice 7.4's HTML had no formulas: the editor visited each
 *   copied cell to read them from the formula bar; issue 15 removed that.)
 * - pasteHtml: HTML carrying `data-sheets-*` (a table, or the one-cell `span` form) is entered cell by cell from
 *   the current cell (`.uno:EnterString`; formulas turned back from R1C1 to A1 at their new place). Other HTML goes
 *   to LibreOffice's own paste.
 */
export class CalcClipboard implements ClipboardAdapter {
  /** The current cell or range (CELL_ADDRESS). */
  private address = '';

  constructor(private readonly app: App) {
    app.session.on('cellAddress', (m) => (this.address = m.address));
  }

  decorateHtml(html: string): string {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    // LibreOffice writes the marker unclosed, as Google Sheets does: the parser puts the table inside it. Its content
    // stays, the marker itself is written once, empty.
    for (const old of doc.querySelectorAll('google-sheets-html-origin')) old.replaceWith(...old.childNodes);
    const marker = doc.createElement('google-sheets-html-origin');
    const origin = doc.getElementById('meta-origin');
    if (origin) origin.after(marker);
    else doc.body.prepend(marker);
    const table = doc.querySelector('table');
    if (!table) return serialize(doc);
    const range = parseRange(this.address);
    cellsOf(table).forEach((cells, r) =>
      cells.forEach((td, c) => {
        const { value, format } = cellValue(td.getAttribute('sdval'), td.getAttribute('sdnum'), td.textContent?.trim() ?? '');
        if (value) td.setAttribute('data-sheets-value', JSON.stringify(value));
        if (format) td.setAttribute('data-sheets-numberformat', JSON.stringify({ 1: 2, 2: format, 3: 1 }));
        const f = td.getAttribute('data-sheets-formula');
        if (f?.startsWith('=') && range)
          td.setAttribute('data-sheets-formula', a1ToR1C1(r1c1ToA1(f, range.row + r, range.col + c), range.row + r, range.col + c));
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
