import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractDocumentProperties } from '../../daemon/structure/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { pdfInfo } from '../helpers/pdf.ts';

interface Extracted {
  DocStructure: {
    DocumentProperties: { Title: string; Author: string; DocumentStatistics: { PageCount: number }; UserDefinedProperties: Record<string, unknown> };
  };
}

describe('POST /ode/extract-document-structure', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon();
  });
  afterAll(async () => daemon?.stop());

  const extract = (file: string, fields: Record<string, string>, path = '/ode/extract-document-structure') =>
    postConvert(daemon.url, path, join(CORPUS, file), fields);
  const pdfPages = async (file: string) => Number(pdfInfo((await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, file))).body).Pages);

  it('docprops of an odt, with PageCount from a kit equal to the PDF page count', async () => {
    const r = await extract('properties/meta.odt', { filter: 'docprops' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    const p = (JSON.parse(r.body.toString('utf8')) as Extracted).DocStructure.DocumentProperties;
    expect(p.Title).toBe('Intitulé');
    expect(p.DocumentStatistics.PageCount).toBe(await pdfPages('properties/meta.odt'));
  });

  it('a two-page docx gets PageCount 2 from the layout, through the /cool/ alias too', async () => {
    const r = await extract('tracked-changes/Comment020.docx', { filter: 'docprops' }, '/cool/extract-document-structure');
    expect(r.status).toBe(200);
    const p = (JSON.parse(r.body.toString('utf8')) as Extracted).DocStructure.DocumentProperties;
    expect(p.DocumentStatistics.PageCount).toBe(await pdfPages('tracked-changes/Comment020.docx'));
    expect(p.DocumentStatistics.PageCount).toBe(2);
  });

  it('PageCount comes from the layout, not from the stored statistics (broken/empty.docx stores none)', async () => {
    const stored = extractDocumentProperties(new Uint8Array(readFileSync(join(CORPUS, 'broken/empty.docx'))), 'docx').DocumentStatistics.PageCount;
    expect(stored).toBe(0);
    const r = await extract('broken/empty.docx', { filter: 'docprops' });
    const p = (JSON.parse(r.body.toString('utf8')) as Extracted).DocStructure.DocumentProperties;
    expect(p.DocumentStatistics.PageCount).toBe(1);
    expect(p.DocumentStatistics.PageCount).toBe(await pdfPages('broken/empty.docx'));
  });

  it('a legacy .doc goes through a kit (to docx) and still answers DocumentProperties', async () => {
    const r = await extract('legacy/testWORD_various.doc', { filter: 'docprops' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const p = (JSON.parse(r.body.toString('utf8')) as Extracted).DocStructure.DocumentProperties;
    expect(typeof p.Title).toBe('string');
    expect(p.DocumentStatistics.PageCount).toBe(await pdfPages('legacy/testWORD_various.doc'));
  });

  it('refuses spreadsheets and unknown filters; a filter of the other kind gives an empty result', async () => {
    const sheet = await extract('spreadsheets/SampleSS.xlsx', { filter: 'docprops' });
    expect(sheet.status).toBe(400);
    expect(sheet.error?.code).toBe('unsupported_format');
    const bogus = await extract('properties/meta.odt', { filter: 'everything' });
    expect(bogus.status).toBe(400);
    expect(bogus.error?.code).toBe('bad_request');
    const badArg = await extract('properties/meta.odt', { filter: 'trackchanges,contextLen:-1' });
    expect(badArg.status).toBe(400);
    const slidesOfText = await extract('properties/meta.odt', { filter: 'slides' });
    expect(slidesOfText.status).toBe(200);
    expect(JSON.parse(slidesOfText.body.toString('utf8'))).toEqual({ DocStructure: {} });
    const trackOfDeck = await extract('presentations/layouts.pptx', { filter: 'trackchanges' });
    expect(JSON.parse(trackOfDeck.body.toString('utf8'))).toEqual({ DocStructure: {} });
  });

  it('a broken package gets load_failed; a denied caller 403', async () => {
    const broken = await extract('broken/testODTnotaZipFile.odt', { filter: 'docprops' });
    expect(broken.status).toBe(422);
    expect(broken.error?.code).toBe('load_failed');
    const denied = await postConvert(
      daemon.url,
      '/ode/extract-document-structure',
      join(CORPUS, 'properties/meta.odt'),
      { filter: 'docprops' },
      { 'X-Forwarded-For': '203.0.113.1' },
    );
    expect(denied.status).toBe(403);
  });

  it('an encrypted document: password_required without its password, extracted through a kit with it, never transformed', async () => {
    const file = 'broken/encrypted-with-pwd_hello.odt';
    const none = await extract(file, { filter: 'contentcontrol' });
    expect(none.status).toBe(422);
    expect(none.error?.code).toBe('password_required');
    const withPassword = await extract(file, { filter: 'docprops', password: 'hello' });
    expect(withPassword.status, JSON.stringify(withPassword.error)).toBe(200);
    const p = (JSON.parse(withPassword.body.toString('utf8')) as Extracted).DocStructure.DocumentProperties;
    expect(p.DocumentStatistics.PageCount).toBeGreaterThanOrEqual(1);
    const transformed = await postConvert(daemon.url, '/ode/transform-document-structure', join(CORPUS, file), {
      transform: '{"Transforms":[{"DocumentProperties":{"Title":"x"}}]}',
      password: 'hello',
    });
    expect(transformed.status).toBe(400);
    expect(transformed.error?.message).toMatch(/encrypted/);
  });
});
