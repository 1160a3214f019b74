import { describe, expect, it } from 'vitest';
import { StructureDocument } from '../document.ts';
import { NS } from '../xml/dom.ts';
import { parsePrefixMappings, parseSimpleXPath } from './ooxml-data-binding.ts';
import { corpusFile, extract, transform } from './test-support.ts';

const COVER = 'http://schemas.microsoft.com/office/2006/coverPageProps';

describe('w:dataBinding XPaths', () => {
  it('reads the prefix mappings Word writes (52449.docx) and its location path', () => {
    const prefixes = parsePrefixMappings("xmlns:ns0='http://schemas.microsoft.com/office/2006/coverPageProps' ");
    expect([...prefixes]).toEqual([['ns0', COVER]]);
    expect(parseSimpleXPath('/ns0:CoverPageProperties[1]/ns0:PublishDate[1]', prefixes)).toEqual([
      { attribute: false, ns: COVER, local: 'CoverPageProperties', position: 1 },
      { attribute: false, ns: COVER, local: 'PublishDate', position: 1 },
    ]);
    expect(parseSimpleXPath('/Root/City', new Map())).toEqual([
      { attribute: false, ns: null, local: 'Root', position: 1 },
      { attribute: false, ns: null, local: 'City', position: 1 },
    ]);
    expect(parseSimpleXPath('/Root/item[2]/@code', new Map())?.[2]).toEqual({ attribute: true, ns: null, local: 'code', position: 1 });
  });

  it('leaves out what it cannot follow: descendant steps, functions, unknown prefixes', () => {
    expect(parseSimpleXPath('//Root', new Map())).toBeUndefined();
    expect(parseSimpleXPath("/Root/*[local-name()='City']", new Map())).toBeUndefined();
    expect(parseSimpleXPath('/ns9:Root', new Map())).toBeUndefined();
  });

  it('an XPath it cannot follow drops the binding, so Word keeps the new value', async () => {
    const doc = StructureDocument.open(corpusFile('52449.docx'), 'docx');
    const binding = doc.xml('word/document.xml').getElementsByTagNameNS(NS.w, 'dataBinding')[0];
    binding.setAttributeNS(NS.w, 'w:xpath', '//ns0:PublishDate');
    doc.markChanged('word/document.xml');
    const out = await transform(await doc.save(), 'docx', [{ 'ContentControls.ByIndex.0': { date: '2020-06-30' } }]);
    const after = StructureDocument.open(out, 'docx');
    expect(after.pkg.textOf('word/document.xml')).not.toContain('w:dataBinding');
    expect(after.pkg.textOf('customXml/item1.xml')).toContain('<PublishDate>2012-01-11T00:00:00</PublishDate>');
    expect(extract(out, 'docx')['ContentControls.ByIndex.0'].CurrentDate).toBe('2020-06-30T00:00:00');
  });
});
