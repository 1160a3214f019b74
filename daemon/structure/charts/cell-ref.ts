/**
 * A1-style references of chart formulas (`c:f`, ECMA-376 Part 1, 21.2.2.65): `Sheet1!$B$2:$B$5`,
 * `'My sheet'!$A$1`. Columns and rows are 0-based here.
 */
export interface RangeRef {
  sheet: string;
  col1: number;
  row1: number;
  col2: number;
  row2: number;
}

/** Parses a one-area formula; undefined for anything else (several areas, names, external books). */
export function parseRange(formula: string): RangeRef | undefined {
  const m = /^(?:'((?:[^']|'')+)'|([^!'[\]]+))!\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/.exec(formula.trim());
  if (!m) return undefined;
  const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2];
  const col1 = columnIndex(m[3]);
  const row1 = Number(m[4]) - 1;
  return { sheet, col1, row1, col2: m[5] ? columnIndex(m[5]) : col1, row2: m[6] ? Number(m[6]) - 1 : row1 };
}

/** Spreadsheet column letters of a 0-based column index (0 = A, 26 = AA). */
export function columnLetters(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** 0-based index of column letters (A = 0). */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** `A1` of a 0-based cell. */
export function cellName(col: number, row: number): string {
  return `${columnLetters(col)}${row + 1}`;
}

/** The formula text of a range on `sheet` (quoted when the name needs it), absolute like Office writes it. */
export function formatRange(sheet: string, col1: number, row1: number, col2 = col1, row2 = row1): string {
  const s = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`;
  const a = `$${columnLetters(col1)}$${row1 + 1}`;
  return col1 === col2 && row1 === row2 ? `${s}!${a}` : `${s}!${a}:$${columnLetters(col2)}$${row2 + 1}`;
}
