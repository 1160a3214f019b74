import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

describe('round trips and filter options', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ kits: { prespawn: 2, convert_concurrency: 2 } }, 2);
  });
  afterAll(async () => daemon?.stop());

  it('docx -> odt -> docx keeps the text', async () => {
    const odt = await postConvert(daemon.url, '/ode/convert-to/odt', join(CORPUS, 'content-controls/ContentControls.docx'));
    expect(odt.status).toBe(200);
    expect(odt.headers.get('content-type')).toBe('application/vnd.oasis.opendocument.text');
    expect(odt.body.subarray(30, 38).toString('latin1')).toBe('mimetype');
    const docx = await postConvert(daemon.url, '/ode/convert-to/docx', { bytes: odt.body, filename: 'ContentControls.odt' });
    expect(docx.status).toBe(200);
    expect(docx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const txt = await postConvert(daemon.url, '/ode/convert-to/txt', { bytes: docx.body, filename: 'back.docx' });
    expect(txt.status).toBe(200);
    // The first paragraph of word/document.xml in the corpus file.
    expect(txt.body.toString('utf8')).toContain('Video provides a powerful way to help you prove your point.');
  });

  it('xlsx -> csv with options 59,34,76 writes semicolons', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to', join(CORPUS, 'spreadsheets/SampleSS.xlsx'), { format: 'csv', options: '59,34,76' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = r.body.toString('utf8').split(/\r?\n/);
    // CSV export writes the active sheet: SampleSS.xlsx's workbook.xml has activeTab="1", "Sheet Number 2",
    // whose A1 is "Start of 2nd sheet", row 6 the strings cb=1..cb=sum and row 7 the numbers 1, 10, 2, SUM = 13.
    expect(lines[0]).toBe('Start of 2nd sheet;;;');
    expect(lines[5]).toBe('cb=1;cb=10;cb=2;cb=sum');
    expect(lines[6]).toBe('1;10;2;13');
  });

  it('CSV import follows infilterOptions (semicolon-separated input)', async () => {
    const csv = { bytes: Buffer.from('name;qty;price\napple;3;1.5\n'), filename: 'fruit.csv' };
    const withOptions = await postConvert(daemon.url, '/ode/convert-to/csv', csv, { infilterOptions: '59,34,76,1', options: '44,34,76' });
    expect(withOptions.status).toBe(200);
    expect(withOptions.body.toString('utf8').split(/\r?\n/).slice(0, 2)).toEqual(['name,qty,price', 'apple,3,1.5']);
    // Without them the import splits on commas only, so each line stays one cell.
    const without = await postConvert(daemon.url, '/ode/convert-to/csv', csv, { options: '44,34,76' });
    expect(without.body.toString('utf8').split(/\r?\n/)[0]).toBe('name;qty;price');
  });

  it('lang formats numbers for the locale, and the next conversion without lang is English (USA) again', async () => {
    const csv = { bytes: Buffer.from('when,amount\n2024-03-05,1234.5\n'), filename: 'amounts.csv' };
    // The CSV is read in the conversion's language unless its import options name one (token 6, 1033 = en-US):
    // in German "1234.5" would be text (LibreOffice 25.2 imports CSV in the kit, as Collabora does).
    const german = await postConvert(daemon.url, '/ode/convert-to/csv', csv, { lang: 'de-DE', options: '59,34,76', infilterOptions: '44,34,76,1,,1033' });
    expect(german.body.toString('utf8').split(/\r?\n/)[1]).toBe('2024-03-05;1234,5');
    const readInGerman = await postConvert(daemon.url, '/ode/convert-to/csv', csv, { lang: 'de-DE', options: '59,34,76' });
    expect(readInGerman.body.toString('utf8').split(/\r?\n/)[1]).toBe('2024-03-05;1234.5');
    const plain = await postConvert(daemon.url, '/ode/convert-to/csv', csv, { options: '59,34,76' });
    expect(plain.body.toString('utf8').split(/\r?\n/)[1]).toBe('2024-03-05;1234.5');
    const bad = await postConvert(daemon.url, '/ode/convert-to/csv', csv, { lang: 'de_DE; rm' });
    expect(bad.status).toBe(400);
  });

  it('pptx -> png renders the first slide', async () => {
    const r = await postConvert(daemon.url, '/ode/convert-to/png', join(CORPUS, 'presentations/layouts.pptx'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    const png = PNG.sync.read(r.body);
    expect(png.width).toBeGreaterThan(100);
    expect(png.height).toBeGreaterThan(50);
    const first = png.data.readUInt32BE(0);
    let differing = 0;
    for (let i = 0; i < png.data.length; i += 4) if (png.data.readUInt32BE(i) !== first) differing++;
    expect(differing).toBeGreaterThan(100);
  });

  it('the aliases /cool/ and /lool/ convert too', async () => {
    for (const prefix of ['/cool', '/lool']) {
      const r = await postConvert(daemon.url, `${prefix}/convert-to/pdf`, join(CORPUS, 'broken/empty.docx'));
      expect(r.status, prefix).toBe(200);
    }
  });
});
