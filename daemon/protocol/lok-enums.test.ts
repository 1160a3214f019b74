import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import * as enums from './lok-enums.ts';

const HEADER = '/usr/include/LibreOfficeKit/LibreOfficeKitEnums.h';

/** Every `typedef enum { ... } Name;` of the installed header, with C's implicit numbering. */
function headerEnums(): Map<string, Map<string, bigint>> {
  const code = readFileSync(HEADER, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '');
  const out = new Map<string, Map<string, bigint>>();
  for (const m of code.matchAll(/typedef enum\s*\{([\s\S]*?)\}\s*(\w+);/g)) {
    const members = new Map<string, bigint>();
    let next = 0n;
    for (const item of m[1]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [name, value] = item.split('=').map((s) => s.trim());
      if (value !== undefined) {
        const shift = /^\(1ULL << (\d+)\)$/.exec(value);
        next = shift ? 1n << BigInt(shift[1]) : BigInt(value);
      }
      members.set(name, next);
      next += 1n;
    }
    out.set(m[2], members);
  }
  return out;
}

describe('lok-enums.ts', () => {
  const header = headerEnums();

  it('has every enum of the installed LibreOfficeKitEnums.h, member for member', () => {
    expect(header.size).toBeGreaterThanOrEqual(12);
    const ours = enums as unknown as Record<string, Record<string, number | bigint>>;
    for (const [enumName, members] of header) {
      expect(ours[enumName], enumName).toBeDefined();
      const mine = Object.fromEntries(Object.entries(ours[enumName]).map(([k, v]) => [k, BigInt(v)]));
      expect(mine, enumName).toEqual(Object.fromEntries(members));
    }
  });

  it('exports each member as its own constant and names callback types', () => {
    expect(enums.LOK_CALLBACK_INVALIDATE_TILES).toBe(0);
    expect(enums.LOK_CALLBACK_DOCUMENT_PASSWORD).toBe(20);
    expect(enums.LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY).toBe(2n);
    expect(enums.LOK_DOCTYPE_SPREADSHEET).toBe(1);
    expect(enums.lokCallbackTypeName(46)).toBe('LOK_CALLBACK_JSDIALOG');
    expect(enums.lokCallbackTypeName(999)).toBe('LOK_CALLBACK_999');
  });
});
