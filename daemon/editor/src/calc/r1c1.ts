/**
 * A1 <-> R1C1 formula references for the spreadsheet clipboard (spec: HTML clipboard extensions,
 * `data-sheets-formula` "holds a formula in R1C1 reference style"). Pure string work, no DOM.
 *
 * A1 side: LibreOffice's own formula syntax as the formula bar shows it (`=SUM(A1:C1)+$B$2`,
 * `=$'Sheet 2'.A1`, `=Sheet2.A1:B3`, whole columns `A:C`, whole rows `2:5`).
 * R1C1 side: the Google Sheets form: `R[-1]C[2]` relative, `R3C4` absolute, `R[0]C` mixed forms allowed on read,
 * sheets as `'Sheet 2'!R1C1`. Rows and columns are 0-based in the API (`row`, `col` of the formula's cell).
 * Text in double quotes is never touched.
 */

/** `A` -> 0, `Z` -> 25, `AA` -> 26. */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** 0 -> `A`, 26 -> `AA`. */
export function columnName(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** A cell address `B3` (or `$B$3`) as 0-based row and column; undefined when it is not one. */
export function parseCell(address: string): { row: number; col: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(address.trim());
  return m ? { row: Number(m[2]) - 1, col: columnIndex(m[1]) } : undefined;
}

/** The range `A1:C4` (or one cell `B2`) as 0-based corners. */
export function parseRange(address: string): { row: number; col: number; endRow: number; endCol: number } | undefined {
  const [a, b = a] = address.split(':');
  const start = parseCell(a);
  const end = parseCell(b);
  if (!start || !end) return undefined;
  return { row: Math.min(start.row, end.row), col: Math.min(start.col, end.col), endRow: Math.max(start.row, end.row), endCol: Math.max(start.col, end.col) };
}

const IDENT = /[A-Za-z0-9_.$\u00c0-\uffff]/;

/** Splits a formula into quoted strings (kept) and the rest (converted). */
function mapOutsideStrings(formula: string, fn: (code: string) => string): string {
  return formula
    .split(/("(?:[^"]|"")*"?)/)
    .map((part, i) => (i % 2 === 1 ? part : fn(part)))
    .join('');
}

/** A sheet prefix as R1C1 writes it: `'My sheet'!`, `Sheet2!`. */
function r1c1Sheet(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `${name}!` : `'${name.replace(/'/g, "''")}'!`;
}

/** A sheet prefix as LibreOffice's A1 syntax writes it: `$'My sheet'.`, `$Sheet2.`. */
function a1Sheet(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `$${name}.` : `$'${name.replace(/'/g, "''")}'.`;
}

function unquoteSheet(raw: string): string {
  const s = raw.replace(/^\$/, '');
  return s.startsWith("'") ? s.slice(1, -1).replace(/''/g, "'") : s;
}

const rel = (delta: number) => `[${delta}]`;

/**
 * LibreOffice A1 formula -> R1C1, relative to the formula's cell at 0-based `row`, `col`.
 * `=C1+D1` in E1 -> `=R[0]C[-2]+R[0]C[-1]`; `$B$2` -> `R2C2`; `'Sheet 2'.A1` -> `'Sheet 2'!R[..]C[..]`.
 */
export function a1ToR1C1(formula: string, row: number, col: number): string {
  const sheet = String.raw`(\$?(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_]*)\.)?`;
  const cell = String.raw`(\$?)([A-Za-z]{1,3})(\$?)(\d+)`;
  const colOnly = String.raw`(\$?)([A-Za-z]{1,3}):(\$?)([A-Za-z]{1,3})`;
  const rowOnly = String.raw`(\$?)(\d+):(\$?)(\d+)`;
  const re = new RegExp(`${sheet}(?:${cell}|${colOnly}|${rowOnly})`, 'g');
  const r = (abs: string, n: number) => (abs ? `R${n + 1}` : `R${rel(n - row)}`);
  const c = (abs: string, n: number) => (abs ? `C${n + 1}` : `C${rel(n - col)}`);
  return mapOutsideStrings(formula, (code) =>
    code.replace(re, (m, sh: string | undefined, ca, cl, ra, rn, c1a, c1, c2a, c2, r1a, r1, r2a, r2, offset: number, whole: string) => {
      const before = whole[offset - 1];
      const after = whole[offset + m.length];
      if ((before && IDENT.test(before)) || (after && (IDENT.test(after) || after === '('))) return m;
      const prefix = sh ? r1c1Sheet(unquoteSheet(sh.slice(0, -1))) : '';
      if (cl !== undefined) return prefix + r(ra, Number(rn) - 1) + c(ca, columnIndex(cl));
      if (c1 !== undefined) {
        // A row range like `1:2` cannot be a column range; `A:C` has letters only.
        return `${prefix}${c(c1a, columnIndex(c1))}:${c(c2a, columnIndex(c2))}`;
      }
      return `${prefix}${r(r1a, Number(r1) - 1)}:${r(r2a, Number(r2) - 1)}`;
    }),
  );
}

/**
 * R1C1 formula -> LibreOffice A1, relative to the cell at 0-based `row`, `col` where it is entered.
 * `=R[0]C[-2]+R[0]C[-1]` in E1 -> `=C1+D1`; `R2C2` -> `$B$2`; `RC[1]` -> same row; `'S 2'!R1C1` -> `$'S 2'.$A$1`.
 * References that would fall before A1 are left as they are (the formula then shows an error in the cell).
 */
export function r1c1ToA1(formula: string, row: number, col: number): string {
  const sheet = String.raw`((?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_]*)!)?`;
  const part = String.raw`(\[-?\d+\]|\d+)?`;
  const re = new RegExp(`${sheet}(?:R${part}C${part}|R${part}:R${part}|C${part}:C${part})`, 'gi');
  const axis = (spec: string | undefined, base: number): { n: number; abs: boolean } =>
    spec === undefined
      ? { n: base, abs: false }
      : spec.startsWith('[')
        ? { n: base + Number(spec.slice(1, -1)), abs: false }
        : { n: Number(spec) - 1, abs: true };
  return mapOutsideStrings(formula, (code) =>
    code.replace(re, (m, sh: string | undefined, rr, rc, ra, rb, ca, cb, offset: number, whole: string) => {
      const before = whole[offset - 1];
      const after = whole[offset + m.length];
      if ((before && IDENT.test(before)) || (after && (IDENT.test(after) || after === '('))) return m;
      const prefix = sh ? a1Sheet(unquoteSheet(sh.slice(0, -1))) : '';
      const ref = sh ? m.slice(sh.length) : m;
      if (/^R[^C]*:R/i.test(ref)) {
        const a = axis(ra, row);
        const b = axis(rb, row);
        if (a.n < 0 || b.n < 0) return m;
        return `${prefix}${a.abs ? '$' : ''}${a.n + 1}:${b.abs ? '$' : ''}${b.n + 1}`;
      }
      if (/^C/i.test(ref)) {
        const a = axis(ca, col);
        const b = axis(cb, col);
        if (a.n < 0 || b.n < 0) return m;
        return `${prefix}${a.abs ? '$' : ''}${columnName(a.n)}:${b.abs ? '$' : ''}${columnName(b.n)}`;
      }
      const r = axis(rr, row);
      const c = axis(rc, col);
      if (r.n < 0 || c.n < 0) return m;
      return `${prefix}${c.abs ? '$' : ''}${columnName(c.n)}${r.abs ? '$' : ''}${r.n + 1}`;
    }),
  );
}
