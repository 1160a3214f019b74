/**
 * CSV and TSV inputs are loaded by the kit through LibreOfficeKit like any other document (LibreOffice 25.2; on
 * 7.4 the kit ran a headless soffice first, since LOK showed the Text Import dialog): the import options come
 * from `infilterOptions` or, without them, from the file's type (comma for .csv, tab for .tsv). Oracle: the
 * CSV LibreOffice writes back, and the flat ODS it writes read with xmldom (cell text and value type).
 */
import { DOMParser } from '@xmldom/xmldom';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

describe('CSV and TSV imported inside the kit', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ kits: { prespawn: 1, convert_concurrency: 1 } }, 1);
  });
  afterAll(async () => daemon?.stop());

  const TABLE = 'urn:oasis:names:tc:opendocument:xmlns:table:1.0';
  const OFFICE = 'urn:oasis:names:tc:opendocument:xmlns:office:1.0';
  const TEXT = 'urn:oasis:names:tc:opendocument:xmlns:text:1.0';
  /** The first sheet's non-empty rows of a flat ODS: numbers as numbers (office:value), the rest as text (text:p joined by \n). */
  function cells(body: Buffer): unknown[][] {
    const doc = new DOMParser().parseFromString(body.toString('utf8'), 'text/xml');
    const sheet = doc.getElementsByTagNameNS(TABLE, 'table')[0]!;
    const rows: unknown[][] = [];
    for (const row of Array.from(sheet.getElementsByTagNameNS(TABLE, 'table-row'))) {
      const values = Array.from(row.getElementsByTagNameNS(TABLE, 'table-cell'))
        .filter((c) => c.getElementsByTagNameNS(TEXT, 'p').length > 0)
        .map((c) =>
          c.getAttributeNS(OFFICE, 'value-type') === 'float'
            ? Number(c.getAttributeNS(OFFICE, 'value'))
            : Array.from(c.getElementsByTagNameNS(TEXT, 'p'), (p) => p.textContent).join('\n'),
        );
      if (values.length > 0) rows.push(values);
    }
    return rows;
  }

  it('a .tsv splits on tabs without options, and numbers are numbers', async () => {
    const tsv = { bytes: Buffer.from('name\tqty\tnote\napple\t3\tred, sweet\npear\t12\t"a ""b"""\n'), filename: 'fruit.tsv' };
    const r = await postConvert(daemon.url, '/ode/convert-to/fods', tsv);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(cells(r.body)).toEqual([
      ['name', 'qty', 'note'],
      ['apple', 3, 'red, sweet'],
      ['pear', 12, 'a "b"'],
    ]);
  });

  it('a .csv splits on commas without options and honours quotes', async () => {
    const csv = { bytes: Buffer.from('name,qty,note\napple,3,"red, sweet"\n'), filename: 'fruit.csv' };
    const r = await postConvert(daemon.url, '/ode/convert-to/fods', csv);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(cells(r.body)).toEqual([
      ['name', 'qty', 'note'],
      ['apple', 3, 'red, sweet'],
    ]);
  });

  it('the corpus CSV with a quoted line break keeps it inside one cell', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to/fods', join(CORPUS, 'spreadsheets/3533-rst-csv-tables.csv'));
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const rows = cells(r.body);
    expect(rows[0]).toEqual(['Albatross', 2.99, 'On a stick!']);
    expect(rows[1]![0]).toBe('Crunchy Frog');
    expect(rows[1]![2]).toContain("If we took the bones out, it wouldn't be");
    expect(rows[1]![2]).toContain('crunchy, now would it?');
  });

  it('infilterOptions win over the type: a .tsv read with semicolons, from line 2, Latin-1', async () => {
    // 59 = ';', 34 = '"', 12 = ISO-8859-1, 2 = start at line 2.
    const bytes = Buffer.from('skip me\nnom;prix\ncaf\xe9;2\n', 'latin1');
    const r = await postConvert(daemon.url, '/ode/convert-to/csv', { bytes, filename: 'odd.tsv' }, { infilterOptions: '59,34,12,2', options: '44,34,76' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(r.body.toString('utf8').split(/\r?\n/).slice(0, 2)).toEqual(['nom,prix', 'café,2']);
  });
});
