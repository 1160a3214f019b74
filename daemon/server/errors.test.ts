import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS } from './errors.ts';

describe('error catalogue', () => {
  it('docs/errors.md lists exactly the catalogue, with the same statuses', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| ([a-z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])] as const);
    const documented = Object.fromEntries(rows);
    const catalogued = Object.fromEntries(Object.entries(ERRORS).map(([code, e]) => [code, e.status]));
    expect(documented).toEqual(catalogued);
  });
});
