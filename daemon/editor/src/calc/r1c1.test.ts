import { describe, expect, it } from 'vitest';
import { a1ToR1C1, columnIndex, columnName, parseRange, r1c1ToA1 } from './r1c1.ts';

describe('A1 <-> R1C1 (spec: HTML clipboard extensions, data-sheets-formula)', () => {
  it('names columns both ways', () => {
    expect([columnIndex('A'), columnIndex('Z'), columnIndex('AA'), columnIndex('az'), columnIndex('XFD')]).toEqual([0, 25, 26, 51, 16383]);
    expect([columnName(0), columnName(25), columnName(26), columnName(51), columnName(16383)]).toEqual(['A', 'Z', 'AA', 'AZ', 'XFD']);
  });

  it('reads ranges and single cells', () => {
    expect(parseRange('C4:F5')).toEqual({ row: 3, col: 2, endRow: 4, endCol: 5 });
    expect(parseRange('$B$2')).toEqual({ row: 1, col: 1, endRow: 1, endCol: 1 });
    expect(parseRange('Sheet1')).toBeUndefined();
  });

  it('writes relative references as offsets from the formula cell', () => {
    // The spec's own example: in C1, =A1+B1.
    expect(a1ToR1C1('=A1+B1', 0, 2)).toBe('=R[0]C[-2]+R[0]C[-1]');
    expect(a1ToR1C1('=SUM(C4:E4)*2', 4, 4)).toBe('=SUM(R[-1]C[-2]:R[-1]C[0])*2');
  });

  it('writes absolute and mixed references with row and column numbers', () => {
    expect(a1ToR1C1('=$B$2+B$2+$B2', 9, 9)).toBe('=R2C2+R2C[-8]+R[-8]C2');
  });

  it('keeps strings, function names and numbers', () => {
    expect(a1ToR1C1('=IF(A1="B2";LOG10(A2);1E5)', 1, 1)).toBe('=IF(R[-1]C[-1]="B2";LOG10(R[0]C[-1]);1E5)');
  });

  it('writes sheet references the R1C1 way', () => {
    expect(a1ToR1C1("=$'Sheet Number 2'.A1+Sheet3.B2", 0, 0)).toBe("='Sheet Number 2'!R[0]C[0]+Sheet3!R[1]C[1]");
  });

  it('writes whole columns and rows', () => {
    expect(a1ToR1C1('=SUM(A:B)+SUM(2:3)', 0, 2)).toBe('=SUM(C[-2]:C[-1])+SUM(R[1]:R[2])');
  });

  it('reads R1C1 back to A1 at another cell', () => {
    expect(r1c1ToA1('=R[0]C[-2]+R[0]C[-1]', 0, 2)).toBe('=A1+B1');
    expect(r1c1ToA1('=R[0]C[-2]+R[0]C[-1]', 6, 5)).toBe('=D7+E7');
    expect(r1c1ToA1('=SUM(R[-1]C[-2]:R[-1]C[0])', 4, 4)).toBe('=SUM(C4:E4)');
    expect(r1c1ToA1('=R2C2+R2C[-8]+R[-8]C2', 9, 9)).toBe('=$B$2+B$2+$B2');
  });

  it('reads the short forms R, C and RC (same row or column)', () => {
    expect(r1c1ToA1('=RC[-1]*R[1]C', 2, 3)).toBe('=C3*D4');
    expect(r1c1ToA1('=SUM(C[-2]:C[-1])+SUM(R[1]:R[2])', 0, 2)).toBe('=SUM(A:B)+SUM(2:3)');
  });

  it('reads sheets, keeps strings and function names like ROUND', () => {
    expect(r1c1ToA1('=\'Sheet Number 2\'!R1C1+ROUND(R[0]C[1];0)&"R1C1"', 0, 0)).toBe('=$\'Sheet Number 2\'.$A$1+ROUND(B1;0)&"R1C1"');
  });

  it('leaves references that fall before A1 alone', () => {
    expect(r1c1ToA1('=R[-1]C[0]', 0, 0)).toBe('=R[-1]C[0]');
  });

  it('round-trips', () => {
    for (const f of ['=A1*$C$3', '=SUM(B2:D9)/COUNT(B2:D9)', "=$'a b'.C5", '=AVERAGE(A:A)']) expect(r1c1ToA1(a1ToR1C1(f, 7, 3), 7, 3)).toBe(f);
  });
});
