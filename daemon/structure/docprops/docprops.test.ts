import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractDocumentProperties, StructureError } from '../index.ts';
import { EMPTY_DATE, durationSeconds, isoDateTime } from './document-properties.ts';

const corpus = (f: string) => new Uint8Array(readFileSync(new URL(`../../../../shared/corpus/${f}`, import.meta.url)));

// Expected values written by hand from the parts (unzip -p ... docProps/core.xml, app.xml, custom.xml;
// meta.xml), with LibreOffice's mapping as its own flat-ODF export of the same files shows it
// (docs/structure/document-properties.md).
describe('DocumentProperties extraction', () => {
  it('docx: core, app and typed custom properties (properties/testWORD_custom_props.docx)', () => {
    const p = extractDocumentProperties(corpus('properties/testWORD_custom_props.docx'), 'docx');
    expect(p).toMatchObject({
      Title: 'My Title',
      Subject: 'My subject',
      Author: 'EJ04325S',
      Description: 'My Comments',
      ModifiedBy: 'Etienne Jouvin',
      Keywords: ['My', 'Keyword'],
      EditingCycles: 5,
      CreationDate: '2011-07-29T16:52:00',
      ModificationDate: '2012-01-03T22:14:00',
      PrintDate: EMPTY_DATE,
      TemplateName: 'Normal.dotm',
      TemplateURL: '',
      Generator: 'Microsoft Office Word',
      EditingDuration: 120,
      DocumentStatistics: {
        PageCount: 1,
        WordCount: 2,
        CharacterCount: 16,
        NonWhitespaceCharacterCount: 15,
        ParagraphCount: 1,
        TableCount: 0,
        ImageCount: 0,
        ObjectCount: 0,
      },
    });
    expect(p.UserDefinedProperties).toEqual({
      AppVersion: { type: 'string', value: '14.0000' },
      Company: { type: 'string', value: 'EDF-DIT' },
      MyCustomDate: { type: 'com.sun.star.util.DateTime' },
      MyCustomString: { type: 'string', value: 'MyStringValue' },
      myCustomSecondDate: { type: 'com.sun.star.util.DateTime' },
      myCustomNumber: { type: 'long', value: 3 },
      myCustomBoolean: { type: 'boolean', value: true },
    });
  });

  it('docx: cp:category becomes a user-defined property; empty Manager is left out (properties/documentProperties.docx)', () => {
    const p = extractDocumentProperties(corpus('properties/documentProperties.docx'), 'docx');
    expect(p.Title).toBe('Hello World');
    expect(p.Keywords).toEqual([]);
    expect(p.Generator).toBe('Microsoft Macintosh Word');
    expect(p.EditingDuration).toBe(300);
    expect(p.UserDefinedProperties).toEqual({
      AppVersion: { type: 'string', value: '12.0000' },
      Company: { type: 'string', value: 'The Apache Software Foundation' },
      OOXMLCorePropertyCategory: { type: 'string', value: 'test' },
    });
  });

  it('pptx: lastPrinted and string custom properties (properties/prProps.pptx)', () => {
    const p = extractDocumentProperties(corpus('properties/prProps.pptx'), 'pptx');
    expect(p.Title).toBe("Cisco's Risk Universe");
    expect(p.Author).toBe('Cisco Systems, Inc.');
    expect(p.ModifiedBy).toBe('Yegor Kozlov');
    expect(p.EditingCycles).toBe(67);
    expect(p.PrintDate).toBe('1999-01-27T00:54:54');
    expect(p.UserDefinedProperties['Asset Type']).toEqual({ type: 'string', value: 'Research' });
    expect(p.UserDefinedProperties['Document ID']).toEqual({ type: 'string', value: '27963' });
    expect(Object.keys(p.UserDefinedProperties).length).toBeGreaterThanOrEqual(26);
  });

  it('odt: meta.xml with accented user-defined names of each type (properties/meta.odt)', () => {
    const p = extractDocumentProperties(corpus('properties/meta.odt'), 'odt');
    expect(p).toMatchObject({
      Title: 'Intitulé',
      Subject: 'Sujet de sa majesté',
      Description: 'Comments\nCommentaires\n评论',
      Keywords: ['Mots-clés'],
      Author: '',
      ModifiedBy: '',
      CreationDate: '2009-07-31T15:57:37',
      ModificationDate: '2009-07-31T15:59:13',
      EditingCycles: 2,
      EditingDuration: 330,
      Generator: 'LibreOffice/6.0.3.2$MacOSX_X86_64 LibreOffice_project/8f48d515416608e3a835360314dac7e47fd0b821',
      DocumentStatistics: {
        PageCount: 1,
        TableCount: 0,
        ImageCount: 0,
        ObjectCount: 0,
        ParagraphCount: 1,
        WordCount: 4,
        CharacterCount: 27,
        NonWhitespaceCharacterCount: 24,
      },
    });
    expect(p.UserDefinedProperties).toEqual({
      'Achevé à la date': { type: 'com.sun.star.util.DateTime' },
      'Numéro du document': { type: 'double', value: 3 },
      Référence: { type: 'boolean', value: true },
      'Vérifié par': { type: 'string', value: 'Moi-même' },
    });
  });

  it('odt: initial-creator, printed-by and every statistic (properties/metaTest.odt)', () => {
    const p = extractDocumentProperties(corpus('properties/metaTest.odt'), 'odt');
    expect(p).toMatchObject({
      Author: 'creator',
      ModifiedBy: 'hanbiao',
      PrintedBy: 'persia p',
      Title: 'dctitle',
      EditingCycles: 6,
      EditingDuration: 0,
      Generator: 'odfdom-0.8 build',
    });
    expect(p.DocumentStatistics).toEqual({
      PageCount: 9,
      TableCount: 14,
      ImageCount: 5,
      ObjectCount: 7,
      ParagraphCount: 10,
      WordCount: 15,
      CharacterCount: 2,
      NonWhitespaceCharacterCount: 6,
    });
  });

  it('a page count from the kit replaces the stored one', () => {
    expect(extractDocumentProperties(corpus('properties/meta.odt'), 'odt', { pageCount: 3 }).DocumentStatistics.PageCount).toBe(3);
  });

  it('bad packages give StructureError bad_package', () => {
    for (const f of ['broken/testODTnotaZipFile.odt', 'broken/invalid.xlsx']) {
      let err: unknown;
      try {
        extractDocumentProperties(corpus(f), 'odt');
      } catch (e) {
        err = e;
      }
      expect(err, f).toBeInstanceOf(StructureError);
      expect((err as StructureError).code).toBe('bad_package');
    }
  });

  it('dates and durations normalise as LibreOffice keeps them', () => {
    expect(isoDateTime('2011-07-29T16:52:00Z')).toBe('2011-07-29T16:52:00');
    expect(isoDateTime('2011-07-29T16:52:00.123+02:00')).toBe('2011-07-29T16:52:00');
    expect(isoDateTime('2011-07-29')).toBe('2011-07-29T00:00:00');
    expect(isoDateTime('yesterday')).toBe(EMPTY_DATE);
    expect(durationSeconds('PT00H05M30S')).toBe(330);
    expect(durationSeconds('P1DT2H')).toBe(93600);
    expect(durationSeconds('PT0.015S')).toBe(0);
  });
});
