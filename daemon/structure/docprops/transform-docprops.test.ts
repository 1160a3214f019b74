import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractDocumentProperties, type StructureError, transformStructure, type StructureFormat } from '../index.ts';
import { ZipPackage } from '../package/zip-package.ts';

const corpus = (f: string) => new Uint8Array(readFileSync(new URL(`../../../../shared/corpus/${f}`, import.meta.url)));
const NOW = new Date('2026-02-03T04:05:06Z');
const recipe = (props: Record<string, unknown>) => JSON.stringify({ Transforms: [{ DocumentProperties: props }] });

async function roundTrip(file: string, format: StructureFormat, props: Record<string, unknown>) {
  const before = extractDocumentProperties(corpus(file), format);
  const out = await transformStructure(corpus(file), format, recipe(props), { now: NOW });
  return { before, after: extractDocumentProperties(out, format), out };
}

/** What any save changes (spec: ModifiedBy and ModificationDate are overwritten; a save counts in EditingCycles). */
const saved = (cycles: number) => ({ ModifiedBy: '', ModificationDate: '2026-02-03T04:05:06', EditingCycles: cycles + 1 });

describe('DocumentProperties transformation', () => {
  const cases: Array<[string, StructureFormat]> = [
    ['properties/testWORD_custom_props.docx', 'docx'],
    ['properties/prProps.pptx', 'pptx'],
    ['properties/meta.odt', 'odt'],
    ['presentations/LibreOfficeImpress_odp_1.3.odp', 'odp'],
  ];
  for (const [file, format] of cases) {
    it(`${format}: strings, dates, numbers, keywords and user-defined properties change, nothing else does (${file})`, async () => {
      const { before, after } = await roundTrip(file, format, {
        Title: 'Quarterly report',
        Subject: 'Sales',
        Author: 'Ada Lovelace',
        Description: 'Line one\nline two',
        Language: 'fr-FR',
        CreationDate: '2020-01-02T03:04:05Z',
        PrintDate: '2021-06-07T08:09:10+02:00',
        Keywords: ['alpha', 'beta'],
        EditingDuration: 3600,
        UserDefinedProperties: [
          { 'Add.Reviewed': { type: 'boolean', value: true } },
          { 'Add.Score': { type: 'long', value: 42 } },
          { 'Add.Owner': { type: 'string', value: 'Finance' } },
        ],
      });
      expect(after).toEqual({
        ...before,
        ...saved(before.EditingCycles),
        Title: 'Quarterly report',
        Subject: 'Sales',
        Author: 'Ada Lovelace',
        Description: 'Line one\nline two',
        Language: 'fr-FR',
        CreationDate: '2020-01-02T03:04:05',
        PrintDate: '2021-06-07T06:09:10',
        Keywords: ['alpha', 'beta'],
        EditingDuration: 3600,
        UserDefinedProperties: {
          ...before.UserDefinedProperties,
          Reviewed: { type: 'boolean', value: true },
          Score: { type: format === 'odt' || format === 'odp' ? 'double' : 'long', value: 42 },
          Owner: { type: 'string', value: 'Finance' },
        },
      });
    });
  }

  it('odt: the properties only ODF can store (Rights, Contributor, template, auto-reload, target)', async () => {
    // Each of them reads back as written: no date or type conversion applies to these.
    const odfOnly = {
      Rights: 'CC-BY',
      Contributor: ['Bob', 'Eve'],
      Publisher: ['ACME'],
      Relation: ['urn:x'],
      Coverage: 'EU',
      Source: 'paper',
      Type: 'report',
      Identifier: 'ID-7',
      PrintedBy: 'Printer',
      Generator: 'Ode',
      TemplateName: 'Letter',
      TemplateURL: 'file:///t/letter.ott',
      TemplateDate: '2019-09-09T09:09:09',
      AutoloadURL: 'https://example.org/next',
      AutoloadSecs: 30,
      DefaultTarget: '_blank',
    };
    const { before, after } = await roundTrip('properties/meta.odt', 'odt', odfOnly);
    expect(after).toEqual({ ...before, ...saved(before.EditingCycles), ...odfOnly });
  });

  it('Delete removes a user-defined property, in the array and the object form', async () => {
    const file = 'properties/testWORD_custom_props.docx';
    const arrayForm = await roundTrip(file, 'docx', { UserDefinedProperties: [{ Delete: 'MyCustomString' }] });
    expect(arrayForm.before.UserDefinedProperties.MyCustomString).toBeDefined();
    expect(arrayForm.after.UserDefinedProperties.MyCustomString).toBeUndefined();
    expect(Object.keys(arrayForm.after.UserDefinedProperties)).toHaveLength(Object.keys(arrayForm.before.UserDefinedProperties).length - 1);
    const objectForm = await roundTrip('properties/meta.odt', 'odt', { UserDefinedProperties: { 'Add.Kind': { type: 'string', value: 'memo' } } });
    expect(objectForm.after.UserDefinedProperties.Kind).toEqual({ type: 'string', value: 'memo' });
  });

  it('a docx without docProps/custom.xml gets one, with its relationship and content type', async () => {
    const file = 'tracked-changes/delins.docx';
    expect(ZipPackage.open(corpus(file)).has('docProps/custom.xml')).toBe(false);
    const { after, out } = await roundTrip(file, 'docx', { UserDefinedProperties: [{ 'Add.Status': { type: 'string', value: 'final' } }] });
    expect(after.UserDefinedProperties.Status).toEqual({ type: 'string', value: 'final' });
    const pkg = ZipPackage.open(out);
    expect(pkg.textOf('[Content_Types].xml')).toContain('/docProps/custom.xml');
    expect(pkg.textOf('_rels/.rels')).toContain('custom-properties');
  });

  it('untouched parts are copied byte for byte', async () => {
    const file = 'properties/testWORD_custom_props.docx';
    const out = await transformStructure(corpus(file), 'docx', recipe({ Title: 'x' }), { now: NOW });
    const a = ZipPackage.open(corpus(file));
    const b = ZipPackage.open(out);
    expect(b.names()).toEqual(a.names());
    for (const name of a.names()) {
      if (name === 'docProps/core.xml') continue;
      expect(Buffer.from(b.bytesOf(name)!).equals(Buffer.from(a.bytesOf(name)!)), name).toBe(true);
    }
  });

  it('bad input: a clear code and the path of the member, and nothing is written', async () => {
    const file = 'properties/meta.odt';
    const attempt = (props: Record<string, unknown>) =>
      transformStructure(corpus(file), 'odt', recipe(props)).then(
        () => undefined,
        (e: StructureError) => e,
      );
    expect(await attempt({ Title: 5 })).toMatchObject({ code: 'bad_value', path: 'Transforms[0].DocumentProperties.Title' });
    expect(await attempt({ Colour: 'red' })).toMatchObject({ code: 'unknown_command', path: 'Transforms[0].DocumentProperties.Colour' });
    expect(await attempt({ DocumentStatistics: { PageCount: 3 } })).toMatchObject({ code: 'unsupported_command' });
    expect(await attempt({ CreationDate: 'yesterday' })).toMatchObject({ code: 'bad_value', path: 'Transforms[0].DocumentProperties.CreationDate' });
    expect(await attempt({ UserDefinedProperties: [{ Delete: 'nope' }] })).toMatchObject({
      code: 'no_match',
      path: 'Transforms[0].DocumentProperties.UserDefinedProperties[0].Delete',
    });
    expect(await attempt({ UserDefinedProperties: [{ 'Add.X': { type: 'long', value: 'many' } }] })).toMatchObject({
      code: 'bad_value',
      path: 'Transforms[0].DocumentProperties.UserDefinedProperties[0]["Add.X"].value',
    });
    const docx = await transformStructure(corpus('properties/testWORD_custom_props.docx'), 'docx', recipe({ Rights: 'x' })).catch((e: StructureError) => e);
    expect(docx).toMatchObject({ code: 'unsupported_command', path: 'Transforms[0].DocumentProperties.Rights' });
    expect(await transformStructure(corpus(file), 'odt', '{"Transforms": [').catch((e: StructureError) => e)).toMatchObject({ code: 'bad_recipe' });
    expect(await transformStructure(corpus(file), 'odt', '{"Transforms": [{"A": 1, "B": 2}]}').catch((e: StructureError) => e)).toMatchObject({
      code: 'bad_recipe',
      path: 'Transforms[0]',
    });
  });
});
