import { describe, expect, it } from 'vitest';
import { StructureDocument } from '../document.ts';
import { StructureError } from '../errors.ts';
import { NS } from '../xml/dom.ts';
import type { ContentControlItem } from './content-control.ts';
import { transformContentControls } from './index.ts';
import { anyFile, extract, fixtureFile, formatOf, transform } from './test-support.ts';

// Goldens: test/structure/fixtures/content-controls/<file>.json, written by hand from each document's XML
// (unzip -p <file> word/document.xml, footnotes, endnotes, header1, footer1; content.xml and styles.xml of the
// odt files LibreOffice 7.4 made), as docs/structure/content-controls.md explains.
const FILES = [
  '52449.docx',
  'Bug54849.docx',
  'ContentControls.docx',
  'ContentControlsNested.docx',
  'Data-Bound-Content-Controls.docx',
  'HW010-Symbols02.docx',
  'sdt_elements.docx',
  'run-level-controls.docx',
  '52449.odt',
  'Bug54849.odt',
  'ContentControls.odt',
  'run-level-controls.odt',
];

const golden = (file: string): Record<string, ContentControlItem> => JSON.parse(new TextDecoder().decode(fixtureFile(`${file}.json`)));

describe('content controls: extraction goldens', () => {
  for (const file of FILES) {
    it(file, () => {
      expect(extract(anyFile(file), formatOf(file))).toEqual(golden(file));
    });
  }
});

/** Transforms `file` and checks that the re-extraction differs from the golden exactly by `changes`. */
async function expectChange(file: string, transforms: unknown, changes: Record<number, Partial<ContentControlItem>>): Promise<Uint8Array> {
  const before = golden(file);
  const out = await transform(anyFile(file), formatOf(file), transforms);
  const expected: Record<string, ContentControlItem> = {};
  for (const [key, item] of Object.entries(before)) expected[key] = { ...item, ...(changes[Number(key.split('.')[2])] ?? {}) };
  expect(extract(out, formatOf(file))).toEqual(expected);
  return out;
}

const partText = (bytes: Uint8Array, part: string) => StructureDocument.open(bytes, 'docx').pkg.textOf(part) ?? '';

describe('content controls: content', () => {
  it('docx plain text, ByIndex (run level, inside a paragraph)', async () => {
    const out = await expectChange('ContentControls.docx', [{ 'ContentControls.ByIndex.1': { content: 'look  great\tnow' } }], {
      1: { content: 'look  great\tnow' },
    });
    expect(partText(out, 'word/document.xml')).toContain('<w:t xml:space="preserve">look  great</w:t><w:tab/><w:t>now</w:t>');
  });

  it('docx rich text, ByAlias: unformatted text, first run formatting kept, lines become paragraphs', async () => {
    await expectChange('run-level-controls.docx', [{ 'ContentControls.ByAlias.RichAlias': { content: 'New text' } }], { 0: { content: 'New text' } });
    const out = await expectChange('ContentControls.docx', [{ 'ContentControls.ByAlias.RichTextContentControl': { content: 'One\nTwo' } }], {
      0: { content: 'One\nTwo' },
    });
    expect(partText(out, 'word/document.xml')).toMatch(
      /<w:sdtContent><w:p [^>]*><w:r><w:t>One<\/w:t><\/w:r><\/w:p><w:p [^>]*><w:r><w:t>Two<\/w:t><\/w:r><\/w:p><\/w:sdtContent>/,
    );
    const bold = await transform(fixtureFile('run-level-controls.docx'), 'docx', [{ 'ContentControls.ByIndex.0': { content: 'x' } }]);
    expect(partText(bold, 'word/document.xml')).toContain('<w:sdtContent><w:r><w:rPr><w:b/></w:rPr><w:t>x</w:t></w:r></w:sdtContent>');
  });

  it('docx ByTag matches several controls and sets them in document order', async () => {
    await expectChange('run-level-controls.docx', [{ 'ContentControls.ByTag.box': { checked: false } }], { 1: { Checked: 'false', content: '☐' } });
    await expectChange('ContentControlsNested.docx', [{ 'ContentControls.ByTag.Data22': { content: '5000' } }], {
      8: { content: '400\n5000\n600' },
      10: { content: '5000' },
      0: { content: 'Lorem ipsum dolor sit amet\nConsectetuer adipiscing elit\nMaecenas porttitor congue massa.\n100\n200\n300\n400\n5000\n600' },
    });
  });

  it('docx ById, a cell-level control (CT_SdtCell) keeps its cell', async () => {
    const out = await expectChange('Bug54849.docx', [{ 'ContentControls.ById.288325205': { content: 'cell text' } }], { 11: { content: 'cell text' } });
    expect(partText(out, 'word/document.xml')).toMatch(
      /<w:sdtContent><w:tc><w:tcPr>.*?<\/w:tcPr><w:p [^>]*><w:pPr>.*?<\/w:pPr><w:r><w:t>cell text<\/w:t><\/w:r><\/w:p><\/w:tc><\/w:sdtContent>/,
    );
  });

  it('docx row-level control: the first cell gets the text, the other cells stay, emptied', async () => {
    const out = await transform(anyFile('ContentControlsNested.docx'), 'docx', [{ 'ContentControls.ByAlias.Row1': { content: 'all' } }]);
    const items = extract(out, 'docx');
    expect(items['ContentControls.ByIndex.4']).toMatchObject({ alias: 'Row1', content: 'all\n\n' });
    // The nested cell controls went with the replaced content: Row2 is now index 5.
    expect(items['ContentControls.ByIndex.5']).toMatchObject({ alias: 'Row2', content: '400\n500\n600' });
  });

  it('docx header, footnote and endnote controls', async () => {
    await expectChange(
      'Bug54849.docx',
      [
        { 'ContentControls.ByIndex.1': { content: 'F' } },
        { 'ContentControls.ByIndex.7': { content: 'E' } },
        { 'ContentControls.ByIndex.11': { content: 'H' } },
      ],
      { 1: { content: 'F' }, 7: { content: 'E' }, 11: { content: 'H' } },
    );
  });

  it('docx content removes w:showingPlcHdr; empty content restores the placeholder from the glossary', async () => {
    const out = await expectChange('run-level-controls.docx', [{ 'ContentControls.ByAlias.Empty': { content: 'Filled' } }], { 6: { content: 'Filled' } });
    expect(partText(out, 'word/document.xml')).not.toContain('showingPlcHdr');
    // The placeholder's grey character style goes with the placeholder.
    expect(partText(out, 'word/document.xml')).toContain('<w:sdtContent><w:r><w:t>Filled</w:t></w:r></w:sdtContent>');
    const back = await transform(anyFile('ContentControls.docx'), 'docx', [{ 'ContentControls.ByIndex.1': { content: '' } }]);
    const xml = partText(back, 'word/document.xml');
    // The placeholder DefaultPlaceholder_1081868574 of word/glossary/document.xml reads "Click here to enter text.".
    expect(extract(back, 'docx')['ContentControls.ByIndex.1'].content).toBe('Click here to enter text.');
    expect(xml).toMatch(/<w:placeholder><w:docPart w:val="DefaultPlaceholder_1081868574"\/><\/w:placeholder><w:showingPlcHdr\/><w:text\/>/);
  });

  it('docx: a bookmark whose end lies outside the control keeps its start; a pair wholly inside goes', async () => {
    // ContentControls.docx has the pair _GoBack (w:id 0) inside the rich-text control; move its end after the control.
    const doc = StructureDocument.open(anyFile('ContentControls.docx'), 'docx');
    const xml = doc.xml('word/document.xml');
    const end = xml.getElementsByTagNameNS(NS.w, 'bookmarkEnd')[0];
    const sdt = xml.getElementsByTagNameNS(NS.w, 'sdt')[0];
    end.parentNode!.removeChild(end);
    sdt.parentNode!.insertBefore(end, sdt.nextSibling);
    doc.markChanged('word/document.xml');
    const moved = await doc.save();
    const out = partText(await transform(moved, 'docx', [{ 'ContentControls.ByIndex.0': { content: 'A\nB' } }]), 'word/document.xml');
    expect(out).toMatch(
      /<w:sdtContent><w:p [^>]*><w:bookmarkStart w:id="0" w:name="_GoBack"\/><w:r><w:t>A<\/w:t><\/w:r><\/w:p><w:p [^>]*><w:r><w:t>B<\/w:t><\/w:r><\/w:p><\/w:sdtContent><\/w:sdt><w:bookmarkEnd w:id="0"\/>/,
    );
    const untouched = partText(
      await transform(anyFile('ContentControls.docx'), 'docx', [{ 'ContentControls.ByIndex.0': { content: 'A' } }]),
      'word/document.xml',
    );
    expect(untouched).not.toContain('_GoBack');
  });

  it('odt: a bookmark whose end lies outside the control keeps its start', async () => {
    const doc = StructureDocument.open(anyFile('run-level-controls.odt'), 'odt');
    const xml = doc.xml('content.xml');
    const cc = xml.getElementsByTagNameNS(NS.loext, 'content-control')[0];
    const start = xml.createElementNS(NS.text, 'text:bookmark-start');
    start.setAttributeNS(NS.text, 'text:name', 'Across');
    const end = xml.createElementNS(NS.text, 'text:bookmark-end');
    end.setAttributeNS(NS.text, 'text:name', 'Across');
    cc.insertBefore(start, cc.firstChild);
    cc.parentNode!.appendChild(end);
    doc.markChanged('content.xml');
    const out = await transform(await doc.save(), 'odt', [{ 'ContentControls.ByIndex.0': { content: 'New' } }]);
    const text = StructureDocument.open(out, 'odt').pkg.textOf('content.xml')!;
    expect(text).toContain(
      '<loext:content-control><text:bookmark-start text:name="Across"/><text:span text:style-name="T1">New</text:span></loext:content-control><text:bookmark-end text:name="Across"/>',
    );
  });

  it('docx date: content changes the text only', async () => {
    await expectChange('52449.docx', [{ 'ContentControls.ByAlias.Publish Date': { content: '12-01-2012' } }], { 0: { content: '12-01-2012' } });
  });

  it('odt content (rich text in a span, drop-down list, placeholder, header in styles.xml)', async () => {
    const out = await expectChange(
      'run-level-controls.odt',
      [
        { 'ContentControls.ByIndex.0': { content: ' two  spaces\tand\nbreak' } },
        { 'ContentControls.ByIndex.3': { content: 'Blue' } },
        { 'ContentControls.ByIndex.6': { content: 'Set' } },
      ],
      {
        0: { content: ' two  spaces\tand\nbreak' },
        3: { content: 'Blue' },
        6: { content: 'Set' },
      },
    );
    const xml = StructureDocument.open(out, 'odt').pkg.textOf('content.xml')!;
    expect(xml).toContain(
      '<loext:content-control><text:span text:style-name="T1"><text:s/>two <text:s/>spaces<text:tab/>and<text:line-break/>break</text:span></loext:content-control>',
    );
    expect(xml).toContain('<loext:list-item loext:display-text="Blue" loext:value="blue"/>Blue</loext:content-control>');
    expect(xml).not.toContain('showing-place-holder');
    expect(xml).toContain('Placeholder: <loext:content-control>Set</loext:content-control>');
    await expectChange('Bug54849.odt', [{ 'ContentControls.ByIndex.3': { content: 'New header' } }], { 3: { content: 'New header' } });
  });
});

describe('content controls: data binding (Word re-reads the bound custom XML)', () => {
  it('plain text bound to /Root/City writes customXML/item.xml too', async () => {
    const out = await expectChange('Data-Bound-Content-Controls.docx', [{ 'ContentControls.ByTag.City': { content: 'Seattle' } }], {
      3: { content: 'Seattle' },
    });
    expect(partText(out, 'customXML/item.xml')).toContain('<City>Seattle</City>');
    expect(partText(out, 'customXML/item.xml')).toContain('<State>WA</State>');
  });

  it('a date bound with prefix mappings gets its new value in the store, as dateTime', async () => {
    const out = await expectChange('52449.docx', [{ 'ContentControls.ByIndex.0': { date: '2024-05-01' } }], { 0: { CurrentDate: '2024-05-01T00:00:00' } });
    expect(partText(out, 'customXml/item1.xml')).toContain('<PublishDate>2024-05-01T00:00:00</PublishDate>');
    // Content of a date changes only the text: the store keeps the date.
    const text = await transform(anyFile('52449.docx'), 'docx', [{ 'ContentControls.ByIndex.0': { content: 'soon' } }]);
    expect(partText(text, 'customXml/item1.xml')).toContain('<PublishDate>2012-01-11T00:00:00</PublishDate>');
  });
});

describe('content controls: checked, alias, date', () => {
  it('docx checked true shows the checked glyph, and content ☐ unchecks (HW010, block level)', async () => {
    const out = await expectChange(
      'HW010-Symbols02.docx',
      [{ 'ContentControls.ByIndex.1': { checked: true } }, { 'ContentControls.ByIndex.0': { content: '☐' } }],
      {
        0: { Checked: 'false', content: '☐' },
        1: { Checked: 'true', content: '☒' },
      },
    );
    expect(partText(out, 'word/document.xml')).toContain('<w14:checked w14:val="1"/>');
  });

  it('docx checked by id, and "false" as a string', async () => {
    await expectChange('ContentControls.docx', [{ 'ContentControls.ById.-1047533240': { checked: 'true' } }], { 3: { Checked: 'true', content: '☒' } });
  });

  it('odt checked and checkbox content stay in sync', async () => {
    await expectChange('run-level-controls.odt', [{ 'ContentControls.ByIndex.1': { checked: false } }, { 'ContentControls.ByIndex.2': { content: '☒' } }], {
      1: { Checked: 'false', content: '☐' },
      2: { Checked: 'true', content: '☒' },
    });
  });

  it('docx alias: replaced, or inserted in CT_SdtPr order (after w:rPr, before w:tag and w:id)', async () => {
    await expectChange('ContentControls.docx', [{ 'ContentControls.ByTag.ComboBoxContentControl': { alias: 'Number' } }], { 4: { alias: 'Number' } });
    const out = await expectChange('HW010-Symbols02.docx', [{ 'ContentControls.ByIndex.0': { alias: 'Done' } }], { 0: { alias: 'Done' } });
    expect(partText(out, 'word/document.xml')).toMatch(/<w:sdtPr><w:rPr>.*?<\/w:rPr><w:alias w:val="Done"\/><w:id w:val="-814567918"\/>/);
  });

  it('odt alias and date', async () => {
    await expectChange('run-level-controls.odt', [{ 'ContentControls.ByIndex.4': { alias: 'Due', date: '2025-12-31' } }], {
      4: { alias: 'Due', CurrentDate: '2025-12-31T00:00:00Z' },
    });
    await expectChange('52449.odt', [{ 'ContentControls.ByIndex.0': { date: '2030-01-02T10:30:00Z' } }], { 0: { CurrentDate: '2030-01-02T10:30:00Z' } });
  });

  it('odt ById and ByAlias (LibreOffice 7.4 writes no id, alias or tag: every control has id 0)', async () => {
    const all = Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((i) => [i, { alias: 'Same' }]));
    await expectChange('run-level-controls.odt', [{ 'ContentControls.ById.0': { alias: 'Same' } }], all);
    await expectChange(
      'run-level-controls.odt',
      [
        { 'ContentControls.ByIndex.1': { alias: 'Box' } },
        { 'ContentControls.ByIndex.2': { alias: 'Box' } },
        { 'ContentControls.ByAlias.Box': { checked: true } },
      ],
      {
        1: { alias: 'Box' },
        2: { alias: 'Box', Checked: 'true', content: '☒' },
      },
    );
    await expectChange(
      'run-level-controls.odt',
      [{ 'ContentControls.ByIndex.4': { alias: 'When' } }, { 'ContentControls.ByAlias.When': { date: '2001-02-03', content: '03/02/2001' } }],
      {
        4: { alias: 'When', CurrentDate: '2001-02-03T00:00:00Z', content: '03/02/2001' },
      },
    );
    await expectChange('Bug54849.odt', [{ 'ContentControls.ByIndex.0': { alias: 'Note' } }, { 'ContentControls.ByAlias.Note': { content: 'note text' } }], {
      0: { alias: 'Note', content: 'note text' },
    });
  });

  it('parts the transform did not touch are copied byte for byte', async () => {
    const file = anyFile('Bug54849.docx');
    const out = await transform(file, 'docx', [{ 'ContentControls.ByIndex.4': { content: 'x' } }]);
    const a = StructureDocument.open(file, 'docx').pkg;
    const b = StructureDocument.open(out, 'docx').pkg;
    expect([...b.names()].sort()).toEqual([...a.names()].sort());
    for (const part of ['word/styles.xml', 'word/header1.xml', 'word/footnotes.xml', 'customXml/item1.xml', '[Content_Types].xml'])
      expect(b.bytesOf(part), part).toEqual(a.bytesOf(part));
    expect(b.bytesOf('word/document.xml')).not.toEqual(a.bytesOf('word/document.xml'));
  });

  it('docx date by tag, unbound: w:fullDate only, text unchanged', async () => {
    const out = await expectChange('run-level-controls.docx', [{ 'ContentControls.ByTag.DueTag': { date: '2024-03-01' } }], {
      4: { CurrentDate: '2024-03-01T00:00:00' },
    });
    expect(partText(out, 'word/document.xml')).toContain('<w:date w:fullDate="2024-03-01T00:00:00Z">');
  });

  it('the older object form of the recipe works too, commands in order', async () => {
    await expectChange(
      'run-level-controls.docx',
      { 'ContentControls.ByIndex.3': { content: 'Red' }, 'ContentControls.ByAlias.Colour': { alias: 'Color' } },
      { 3: { content: 'Red', alias: 'Color' } },
    );
  });
});

describe('content controls: bad input, with the path into the recipe', () => {
  const fails = async (file: string, transforms: unknown): Promise<StructureError> => {
    try {
      await transform(anyFile(file), formatOf(file), transforms);
    } catch (e) {
      expect(e).toBeInstanceOf(StructureError);
      return e as StructureError;
    }
    throw new Error('the transform did not fail');
  };

  it('unknown property', async () => {
    const e = await fails('ContentControls.docx', [{ 'ContentControls.ByIndex.0': { content: 'a' } }, { 'ContentControls.ByIndex.1': { text: 'x' } }]);
    expect([e.code, e.path]).toEqual(['unknown_command', 'Transforms[1]["ContentControls.ByIndex.1"].text']);
  });

  it('wrong types', async () => {
    let e = await fails('ContentControls.docx', [{ 'ContentControls.ByIndex.1': { content: 5 } }]);
    expect([e.code, e.path]).toEqual(['bad_value', 'Transforms[0]["ContentControls.ByIndex.1"].content']);
    e = await fails('ContentControls.docx', [{ 'ContentControls.ByIndex.3': { checked: 'yes' } }]);
    expect([e.code, e.path]).toEqual(['bad_value', 'Transforms[0]["ContentControls.ByIndex.3"].checked']);
    e = await fails('52449.docx', [{ 'ContentControls.ByIndex.0': { date: '2024-02-30' } }]);
    expect([e.code, e.path]).toEqual(['bad_value', 'Transforms[0]["ContentControls.ByIndex.0"].date']);
    e = await fails('52449.odt', [{ 'ContentControls.ByIndex.0': 'text' }]);
    expect([e.code, e.path]).toEqual(['bad_value', 'Transforms[0]["ContentControls.ByIndex.0"]']);
    e = await fails('HW010-Symbols02.docx', [{ 'ContentControls.ByIndex.0': { content: 'yes' } }]);
    expect([e.code, e.path]).toEqual(['bad_value', 'Transforms[0]["ContentControls.ByIndex.0"].content']);
  });

  it('ByIndex out of range', async () => {
    const e = await fails('HW010-Symbols02.docx', [{ 'ContentControls.ByIndex.2': { checked: true } }]);
    expect([e.code, e.path]).toEqual(['out_of_range', 'Transforms[0]["ContentControls.ByIndex.2"]']);
  });

  it('no match for ById, ByAlias, ByTag; unknown method', async () => {
    for (const sel of ['ById.42', 'ByAlias.Nobody', 'ByTag.none']) {
      const e = await fails('run-level-controls.odt', [{ [`ContentControls.${sel}`]: { content: 'x' } }]);
      expect([e.code, e.path]).toEqual(['no_match', `Transforms[0]["ContentControls.${sel}"]`]);
    }
    const e = await fails('52449.docx', [{ 'ContentControls.ByName.x': { content: 'x' } }]);
    expect(e.code).toBe('unknown_selector');
  });

  it('picture content is unsupported; checked and date need the right kind', async () => {
    let e = await fails('ContentControls.docx', [{ 'ContentControls.ByIndex.2': { content: 'x' } }]);
    expect([e.code, e.path]).toEqual(['unsupported_command', 'Transforms[0]["ContentControls.ByIndex.2"].content']);
    e = await fails('run-level-controls.odt', [{ 'ContentControls.ByIndex.5': { content: 'x' } }]);
    expect(e.code).toBe('unsupported_command');
    e = await fails('ContentControls.docx', [{ 'ContentControls.ByIndex.0': { checked: true } }]);
    expect([e.code, e.path]).toEqual(['wrong_kind', 'Transforms[0]["ContentControls.ByIndex.0"].checked']);
    e = await fails('ContentControls.docx', [{ 'ContentControls.ByIndex.0': { date: '2024-01-01' } }]);
    expect(e.code).toBe('wrong_kind');
  });

  it('a bad property after a good one changes nothing in the DOM (checked before applied)', () => {
    const doc = StructureDocument.open(anyFile('ContentControls.docx'), 'docx');
    const before = doc.xml('word/document.xml').getElementsByTagNameNS(NS.w, 't')[1].textContent;
    expect(() => transformContentControlsDirect(doc, { content: 'changed', bogus: 1 })).toThrow(StructureError);
    expect(doc.xml('word/document.xml').getElementsByTagNameNS(NS.w, 't')[1].textContent).toBe(before);
  });
});

function transformContentControlsDirect(doc: StructureDocument, value: unknown): void {
  transformContentControls(
    doc,
    { type: 'ContentControls', method: 'ByIndex', index: '1' },
    { key: 'ContentControls.ByIndex.1', value, path: 'Transforms[0]["ContentControls.ByIndex.1"]' },
  );
}
