import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transformStructure } from '../../daemon/structure/index.ts';
import { anyFile, extract, fixtureFile } from '../../daemon/structure/content-controls/test-support.ts';
import { postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

// LibreOffice (a kit behind a real daemon) opens what the engine's content-control transforms wrote, docx and
// odt, without error, and shows the new content and checkbox glyphs in its own text export.
describe('content-control transforms, as LibreOffice reads them', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon();
  });
  afterAll(async () => daemon?.stop());

  const asText = async (bytes: Uint8Array, filename: string): Promise<string> => {
    const r = await postConvert(daemon.url, '/ode/convert-to/txt', { bytes: Buffer.from(bytes), filename });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    return r.body.toString('utf8');
  };
  const recipe = (transforms: unknown) => JSON.stringify({ Transforms: transforms });

  it('docx: plain text, rich text and checkbox (ContentControls.docx)', async () => {
    const before = await asText(anyFile('ContentControls.docx'), 'ContentControls.docx');
    expect(before).toContain('To make your document look professionally produced');
    expect(before).toContain('\u2610');
    const out = await transformStructure(
      anyFile('ContentControls.docx'),
      'docx',
      recipe([
        { 'ContentControls.ByIndex.1': { content: 'Ode  was here' } },
        { 'ContentControls.ByAlias.CheckBoxContentControl': { checked: true } },
        { 'ContentControls.ByTag.RichTextContentControl': { content: 'First line\nSecond line' } },
      ]),
    );
    const text = await asText(out, 'out.docx');
    expect(text).toContain('To Ode  was here produced');
    expect(text).toContain('\u2612');
    expect(text).not.toContain('\u2610');
    expect(text).toMatch(/First line\r?\nSecond line/);
  });

  // LibreOffice 7.4, like Word, shows a bound text control's value from the custom XML part, not from w:sdtContent
  // (a copy of this file with only customXML/item.xml edited shows the edited value): the engine writes both.
  it('docx: a data-bound control keeps its new value (LibreOffice, like Word, reads the bound custom XML)', async () => {
    const out = await transformStructure(
      anyFile('Data-Bound-Content-Controls.docx'),
      'docx',
      recipe([{ 'ContentControls.ByTag.City': { content: 'Seattle' } }, { 'ContentControls.ByAlias.Company': { content: 'Ode Ltd' } }]),
    );
    const text = await asText(out, 'bound.docx');
    expect(text).toContain('Seattle');
    expect(text).toContain('Ode Ltd');
    expect(text).not.toContain('Redmond');
  });

  it('docx: a date control with a new date and text (52449.docx)', async () => {
    const out = await transformStructure(
      anyFile('52449.docx'),
      'docx',
      recipe([{ 'ContentControls.ByIndex.0': { date: '2024-05-01', content: '01-05-2024' } }]),
    );
    expect(extract(out, 'docx')['ContentControls.ByIndex.0']).toMatchObject({ CurrentDate: '2024-05-01T00:00:00', content: '01-05-2024' });
    const text = await asText(out, 'date.docx');
    expect(text).toContain('Allerød, 01-05-2024');
  });

  it('docx read back through LibreOffice: its own odt of the result has the new content, Checked and CurrentDate', async () => {
    const out = await transformStructure(
      anyFile('run-level-controls.docx'),
      'docx',
      recipe([
        { 'ContentControls.ByAlias.RichAlias': { content: 'Rich by Ode' } },
        { 'ContentControls.ByTag.box': { checked: false } },
        { 'ContentControls.ByAlias.Newsletter': { content: '\u2612' } },
        { 'ContentControls.ByIndex.3': { content: 'Red' } },
        { 'ContentControls.ByAlias.Due': { date: '2025-07-14', content: '14/07/2025' } },
        { 'ContentControls.ByAlias.Empty': { content: 'Filled' } },
      ]),
    );
    const odt = await postConvert(daemon.url, '/ode/convert-to/odt', { bytes: Buffer.from(out), filename: 'out.docx' });
    expect(odt.status, JSON.stringify(odt.error)).toBe(200);
    const seen = Object.values(extract(new Uint8Array(odt.body), 'odt')).map(({ content, type, Checked, CurrentDate }) => ({
      content,
      type,
      Checked,
      CurrentDate,
    }));
    expect(seen).toEqual([
      { content: 'Rich by Ode', type: 'rich-text', Checked: undefined, CurrentDate: undefined },
      { content: '\u2610', type: 'checkbox', Checked: 'false', CurrentDate: undefined },
      { content: '\u2612', type: 'checkbox', Checked: 'true', CurrentDate: undefined },
      { content: 'Red', type: 'drop-down-list', Checked: undefined, CurrentDate: undefined },
      { content: '14/07/2025', type: 'date', Checked: undefined, CurrentDate: '2025-07-14T00:00:00Z' },
      { content: '', type: 'picture', Checked: undefined, CurrentDate: undefined },
      { content: 'Filled', type: 'rich-text', Checked: undefined, CurrentDate: undefined },
      // LibreOffice 25.2 keeps a run-level plain-text control as a content control (7.4 made it a text field)
      { content: 'Ada  Lovelace', type: 'plain-text', Checked: undefined, CurrentDate: undefined },
    ]);
  });

  it('odt: rich text, drop-down, checkboxes and placeholder (LibreOffice-made run-level-controls.odt)', async () => {
    const out = await transformStructure(
      anyFile('run-level-controls.odt'),
      'odt',
      recipe([
        { 'ContentControls.ByIndex.0': { content: 'Filled  by Ode' } },
        { 'ContentControls.ByIndex.1': { checked: false } },
        { 'ContentControls.ByIndex.2': { content: '\u2612' } },
        { 'ContentControls.ByIndex.3': { content: 'Blue' } },
        { 'ContentControls.ByIndex.6': { content: 'Now set' } },
      ]),
    );
    const text = await asText(out, 'out.odt');
    expect(text).toContain('Rich: Filled  by Ode');
    expect(text).toContain('Checked: \u2610');
    expect(text).toContain('Unchecked: \u2612');
    expect(text).toContain('List: Blue');
    expect(text).toContain('Placeholder: Now set');
    // LibreOffice can write it back as docx; the controls survive the round trip through LibreOffice itself.
    const docx = await postConvert(daemon.url, '/ode/convert-to/docx', { bytes: Buffer.from(out), filename: 'out.odt' });
    expect(docx.status).toBe(200);
    const again = extract(new Uint8Array(docx.body), 'docx');
    expect(Object.values(again).map((i) => i.content)).toEqual(expect.arrayContaining(['Filled  by Ode', '\u2610', '\u2612', 'Blue', 'Now set']));
  });

  it('through the endpoints: extract-document-structure with filter=contentcontrol, then transform-document-structure', async () => {
    const file = { bytes: Buffer.from(anyFile('Bug54849.docx')), filename: 'Bug54849.docx' };
    const r = await postConvert(daemon.url, '/ode/extract-document-structure', file, { filter: 'contentcontrol' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(JSON.parse(r.body.toString('utf8')).DocStructure).toEqual(JSON.parse(new TextDecoder().decode(fixtureFile('Bug54849.docx.json'))));
    const t = await postConvert(daemon.url, '/ode/transform-document-structure', file, {
      transform: recipe([{ 'ContentControls.ByAlias.MyTitle': { content: 'Title set' } }, { 'ContentControls.ByIndex.2': { content: 'Header set' } }]),
    });
    expect(t.status, JSON.stringify(t.error)).toBe(200);
    const items = extract(new Uint8Array(t.body), 'docx');
    // LibreOffice's order: footnote, endnote, header, footer, then the body (MyTitle is the body's first)
    expect([items['ContentControls.ByIndex.4'].content, items['ContentControls.ByIndex.2'].content]).toEqual(['Title set', 'Header set']);
    const text = await asText(new Uint8Array(t.body), 'out.docx');
    expect(text).toContain('Title set');
    const bad = await postConvert(daemon.url, '/ode/transform-document-structure', file, {
      transform: recipe([{ 'ContentControls.ByIndex.13': { content: 'x' } }]),
    });
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ code: 'out_of_range', path: 'Transforms[0]["ContentControls.ByIndex.13"]' });
  });
});
