import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { pdfInfo } from '../helpers/pdf.ts';

interface Props {
  DocStructure: {
    DocumentProperties: { Title: string; Subject: string; Keywords: string[]; UserDefinedProperties: Record<string, { type: string; value?: unknown }> };
  };
}

const titleRecipe = (title: string) => JSON.stringify({ Transforms: [{ DocumentProperties: { Title: title, Keywords: ['ode', 'test'] } }] });

describe('POST /ode/transform-document-structure', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon();
  });
  afterAll(async () => daemon?.stop());

  const transform = (file: string | { bytes: Buffer; filename: string }, fields: Record<string, string>, path = '/ode/transform-document-structure') =>
    postConvert(daemon.url, path, typeof file === 'string' ? join(CORPUS, file) : file, fields);
  const docprops = async (file: { bytes: Buffer; filename: string }) => {
    const r = await postConvert(daemon.url, '/ode/extract-document-structure', file, { filter: 'docprops' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    return (JSON.parse(r.body.toString('utf8')) as Props).DocStructure.DocumentProperties;
  };

  it('a docx comes back as a docx with the new properties, which LibreOffice reads (its PDF export carries the title)', async () => {
    const r = await transform('properties/testWORD_custom_props.docx', { transform: titleRecipe('Neuer Titel') });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(r.headers.get('content-disposition')).toContain('testWORD_custom_props.docx');
    const out = { bytes: r.body, filename: 'out.docx' };
    const props = await docprops(out);
    expect(props.Title).toBe('Neuer Titel');
    expect(props.Keywords).toEqual(['ode', 'test']);
    const pdf = await postConvert(daemon.url, '/ode/convert-to/pdf', out);
    expect(pdf.status).toBe(200);
    expect(pdfInfo(pdf.body).Title).toBe('Neuer Titel');
  });

  it('format and lang in the path: /odt&lang=de-DE writes an odt (a kit converts the result)', async () => {
    const r = await transform(
      'properties/testWORD_custom_props.docx',
      { transform: titleRecipe('Als ODT') },
      '/ode/transform-document-structure/odt&lang=de-DE',
    );
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/vnd.oasis.opendocument.text');
    expect(r.body.subarray(30, 38).toString('latin1')).toBe('mimetype');
    expect((await docprops({ bytes: r.body, filename: 'out.odt' })).Title).toBe('Als ODT');
  });

  it('the format field, and pdf output', async () => {
    const r = await transform('properties/meta.odt', { transform: titleRecipe('To PDF'), format: 'pdf' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(pdfInfo(r.body).Title).toBe('To PDF');
  });

  it('a legacy .doc goes through a kit to docx and back to .doc', async () => {
    const r = await transform('legacy/testWORD_various.doc', { transform: titleRecipe('Legacy title') });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/msword');
    expect(r.body.subarray(0, 4).toString('hex')).toBe('d0cf11e0');
    expect((await docprops({ bytes: r.body, filename: 'out.doc' })).Title).toBe('Legacy title');
  });

  it('a .ppt presentation goes through pptx and back, through the /cool/ alias', async () => {
    const r = await transform('legacy/testPPT.ppt', { transform: titleRecipe('Deck title') }, '/cool/transform-document-structure');
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/vnd.ms-powerpoint');
    expect((await docprops({ bytes: r.body, filename: 'out.ppt' })).Title).toBe('Deck title');
  });

  it('bad recipes get 400 with a code and the path into the recipe, and leave no upload behind', async () => {
    const file = 'properties/meta.odt';
    const notJson = await transform(file, { transform: '{"Transforms": [' });
    expect(notJson.status).toBe(400);
    expect(notJson.error).toMatchObject({ code: 'bad_recipe', path: '' });
    const missing = await transform(file, {});
    expect(missing.status).toBe(400);
    expect(missing.error?.code).toBe('bad_recipe');
    const wrongType = await transform(file, {
      transform: JSON.stringify({ Transforms: [{ DocumentProperties: { Title: 'ok' } }, { DocumentProperties: { Subject: 7 } }] }),
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.error).toMatchObject({ code: 'bad_value', path: 'Transforms[1].DocumentProperties.Subject' });
    const unknown = await transform(file, { transform: JSON.stringify({ Transforms: [{ 'Tables.ByIndex.0': {} }] }) });
    expect(unknown.error).toMatchObject({ code: 'unknown_selector', path: 'Transforms[0]["Tables.ByIndex.0"]' });
    const slidesOnText = await transform(file, { transform: JSON.stringify({ Transforms: [{ SlideCommands: [{ DeleteSlide: 0 }] }] }) });
    expect(slidesOnText.error).toMatchObject({ code: 'wrong_kind', path: 'Transforms[0].SlideCommands' });
    expect(readdirSync(daemon.server.context.uploadDir)).toEqual([]);
  });

  it('refuses spreadsheets, unknown output formats, path junk and denied callers', async () => {
    const sheet = await transform('spreadsheets/SampleSS.xlsx', { transform: titleRecipe('x') });
    expect(sheet.status).toBe(400);
    expect(sheet.error?.code).toBe('unsupported_format');
    const badFormat = await transform('properties/meta.odt', { transform: titleRecipe('x') }, '/ode/transform-document-structure/xlsx');
    expect(badFormat.status).toBe(400);
    expect(badFormat.error?.code).toBe('unsupported_format');
    expect(badFormat.error?.formats).toContain('docx');
    const junk = await transform('properties/meta.odt', { transform: titleRecipe('x') }, '/ode/transform-document-structure/odt&colour=red');
    expect(junk.status).toBe(400);
    expect(junk.error?.code).toBe('bad_request');
    const denied = await postConvert(
      daemon.url,
      '/ode/transform-document-structure',
      join(CORPUS, 'properties/meta.odt'),
      { transform: titleRecipe('x') },
      { 'X-Forwarded-For': '203.0.113.9' },
    );
    expect(denied.status).toBe(403);
    expect(denied.error?.message).toContain('203.0.113.9');
    const broken = await transform('broken/testODTnotaZipFile.odt', { transform: titleRecipe('x') });
    expect(broken.status).toBe(422);
    expect(broken.error?.code).toBe('load_failed');
  });
});
