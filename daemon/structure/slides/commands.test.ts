import { readFileSync } from 'node:fs';
import type { Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { StructureDocument } from '../document.ts';
import { StructureError, extractStructure, transformStructure } from '../index.ts';
import { NS } from '../xml/dom.ts';
import type { SlidesResult } from './index.ts';

const corpus = (f: string) => new Uint8Array(readFileSync(new URL(`../../../../shared/corpus/presentations/${f}`, import.meta.url)));
const slides = (bytes: Uint8Array) => extractStructure(bytes, 'pptx', { filter: 'slides' }) as unknown as SlidesResult;
const recipe = (cmds: unknown[]) => JSON.stringify({ Transforms: [{ SlideCommands: cmds }] });
async function run(file: string, cmds: unknown[]): Promise<{ before: SlidesResult; after: SlidesResult; bytes: Uint8Array }> {
  const input = corpus(file);
  const bytes = await transformStructure(input, 'pptx', recipe(cmds));
  return { before: slides(input), after: slides(bytes), bytes };
}
const names = (r: SlidesResult) => Object.values(r.Slides).map((s) => s.SlideName);
const paras = (r: SlidesResult, slide: number, obj: number) =>
  (r.Slides[`Slide ${slide}`].Objects[`Objects ${obj}`] as { Texts: Record<string, { Paragraphs: string[] }> }).Texts['Text 0'].Paragraphs;
/** The a:r runs (text and a:rPr) of object `obj`'s paragraph `p` on slide part `part`. */
function runs(bytes: Uint8Array, part: string, shapeName: string, p = 0): { text: string; rPr: Element | undefined }[] {
  const doc = StructureDocument.open(bytes, 'pptx');
  const cNvPr = Array.from(doc.xml(part).getElementsByTagNameNS(NS.p, 'cNvPr')).find((e) => e.getAttribute('name') === shapeName)!;
  const sp = cNvPr.parentNode!.parentNode as Element;
  const para = Array.from(sp.getElementsByTagNameNS(NS.a, 'p'))[p];
  return Array.from(para.getElementsByTagNameNS(NS.a, 'r')).map((r) => ({
    text: r.getElementsByTagNameNS(NS.a, 't')[0]?.textContent ?? '',
    rPr: r.getElementsByTagNameNS(NS.a, 'rPr')[0],
  }));
}
async function failure(file: string, cmds: unknown[]): Promise<StructureError> {
  try {
    await transformStructure(corpus(file), 'pptx', recipe(cmds));
  } catch (e) {
    if (e instanceof StructureError) return e;
    throw e;
  }
  throw new Error('the recipe was accepted');
}

// layouts.pptx (by hand from the XML and LibreOffice's view): 10 slides; names Centered Title, Title,
// Section Title, Title (2), Title (3), Title Only, Blank with Default Title, Caption, Picture with Caption,
// Headers & Footers; 9 masters (one per used layout).
const LAYOUT_NAMES = [
  'Centered Title',
  'Title',
  'Section Title',
  'Title (2)',
  'Title (3)',
  'Title Only',
  'Blank with Default Title',
  'Caption',
  'Picture with Caption',
  'Headers & Footers',
];

describe('slide commands on pptx: each changes exactly what it says', () => {
  it('RenameSlide renames the current slide (0 by default)', async () => {
    const { after } = await run('layouts.pptx', [{ RenameSlide: 'Opening' }]);
    expect(names(after)).toEqual(['Opening', ...LAYOUT_NAMES.slice(1)]);
  });

  it('JumpToSlide <n> / "last" and JumpToSlideByName make a slide current', async () => {
    const { after } = await run('layouts.pptx', [
      { JumpToSlide: 2 },
      { RenameSlide: 'Two' },
      { JumpToSlide: 'last' },
      { RenameSlide: 'End' },
      { JumpToSlideByName: 'Title (3)' },
      { RenameSlide: 'Three' },
    ]);
    expect(names(after)).toEqual([
      'Centered Title',
      'Title',
      'Two',
      'Title (2)',
      'Three',
      'Title Only',
      'Blank with Default Title',
      'Caption',
      'Picture with Caption',
      'End',
    ]);
  });

  it('InsertMasterSlide inserts after the current slide from that master, and the new slide becomes current', async () => {
    const { before, after } = await run('layouts.pptx', [{ JumpToSlide: 1 }, { InsertMasterSlide: 5 }, { RenameSlide: 'New' }]);
    expect(after.SlideCount).toBe(11);
    expect(names(after)).toEqual([...LAYOUT_NAMES.slice(0, 2), 'New', ...LAYOUT_NAMES.slice(2)]);
    const s = after.Slides['Slide 2'];
    // Master 5 is "Title Only" (slideLayout6, type titleOnly): one empty title placeholder (no text: {}).
    expect(s).toEqual({
      SlideName: 'New',
      MasterSlideName: 'Title Only',
      LayoutId: 19,
      LayoutName: 'AUTOLAYOUT_TITLE_ONLY',
      ObjectCount: 1,
      Objects: { 'Objects 0': {} },
    });
    expect(after.Slides['Slide 3']).toEqual(before.Slides['Slide 2']);
    // Masters are LibreOffice's per-used-layout master pages in order of first use: "Title Only" now comes third.
    expect(Object.values(after.MasterSlides).map((m) => m.Name)).toEqual([
      'Title Slide',
      'Title and Content',
      'Title Only',
      'Section Header',
      'Two Content',
      'Comparison',
      'Blank',
      'Content with Caption',
      'Picture with Caption',
    ]);
    expect(after.MasterSlideCount).toBe(before.MasterSlideCount);
  });

  it('InsertMasterSlideByName finds the master by name; the new slide has the layout placeholders', async () => {
    const { after } = await run('layouts.pptx', [{ JumpToSlide: 'last' }, { InsertMasterSlideByName: 'Two Content' }, { 'SetText.0': 'Added' }]);
    const s = after.Slides['Slide 10'];
    expect([s.SlideName, s.MasterSlideName, s.LayoutId, s.ObjectCount]).toEqual(['Added', 'Two Content', 3, 3]);
  });

  it('DeleteSlide "" deletes the current slide, <n> the slide n; the slide part, its notes and content types go', async () => {
    const { after, bytes } = await run('AllSlidesConverterSC.pptx', [
      { JumpToSlide: 1 },
      { DeleteSlide: '' },
      { RenameSlide: 'Now current' },
      { DeleteSlide: 3 },
    ]);
    // Slide 1 deleted: current becomes the previous slide (0); then slide 3 (the old slide 4) is deleted. Title
    // names are derived on load, so the old slides 3 and 4 are now the first and second "中文簡繁轉換".
    expect(names(after)).toEqual(['Now current', '中文簡繁轉換', '中文簡繁轉換 (2)']);
    const doc = StructureDocument.open(bytes, 'pptx');
    expect(doc.has('ppt/slides/slide2.xml')).toBe(false);
    expect(doc.has('ppt/notesSlides/notesSlide2.xml')).toBe(false);
    expect(doc.pkg.textOf('[Content_Types].xml')).not.toContain('/ppt/slides/slide2.xml');
    expect(doc.pkg.textOf('ppt/_rels/presentation.xml.rels')).not.toContain('slides/slide2.xml');
  });

  it('DeleteSlide of the first slide while it is current keeps the new first slide current', async () => {
    const { after } = await run('layouts.pptx', [{ DeleteSlide: '' }, { RenameSlide: 'First' }]);
    expect(names(after)).toEqual(['First', 'Section Title', 'Title', 'Title (2)', ...LAYOUT_NAMES.slice(5)]);
  });

  it('MoveSlide moves the current slide, which stays current', async () => {
    const { after } = await run('layouts.pptx', [{ MoveSlide: 3 }, { RenameSlide: 'Moved' }]);
    expect(names(after)).toEqual(['Title', 'Section Title', 'Title (2)', 'Moved', ...LAYOUT_NAMES.slice(4)]);
  });

  it('MoveSlide.<n> moves slide n; the current slide stays the same slide (its index adjusted)', async () => {
    const { after } = await run('layouts.pptx', [{ JumpToSlide: 5 }, { 'MoveSlide.9': 0 }, { RenameSlide: 'Still Title Only' }]);
    expect(names(after)).toEqual(
      [
        'Headers & Footers',
        'Centered Title',
        'Title',
        'Section Title',
        'Title',
        'Title (2)',
        'Still Title Only',
        'Blank with Default Title',
        'Caption',
        'Picture with Caption',
      ].map((n, i) => (i === 4 ? 'Title (2)' : i === 5 ? 'Title (3)' : n)),
    );
  });

  it('DuplicateSlide copies the slide after it and makes the copy current', async () => {
    const { before, after, bytes } = await run('AllSlidesConverterSC.pptx', [{ DuplicateSlide: '' }, { RenameSlide: 'Copy' }]);
    expect(after.SlideCount).toBe(6);
    expect(names(after)).toEqual(['中文簡繁轉換', 'Copy', '中文簡繁轉換 (2)', '中文簡繁轉換 (3)', '中文簡繁轉換 (4)', '中文簡繁轉換 (5)']);
    expect(after.Slides['Slide 1'].Objects).toEqual(before.Slides['Slide 0'].Objects);
    const doc = StructureDocument.open(bytes, 'pptx');
    expect(doc.has('ppt/slides/slide6.xml')).toBe(true);
    expect(doc.pkg.textOf('ppt/slides/_rels/slide6.xml.rels')).not.toContain('notesSlide');
    expect(doc.pkg.textOf('[Content_Types].xml')).toContain('/ppt/slides/slide6.xml');
  });

  it('a slide inserted or duplicated in the same recipe can be deleted again: the package is as before', async () => {
    const { before, after, bytes } = await run('layouts.pptx', [{ InsertMasterSlide: 0 }, { DeleteSlide: '' }, { DuplicateSlide: 3 }, { DeleteSlide: 4 }]);
    expect(after).toEqual(before);
    const doc = StructureDocument.open(bytes, 'pptx');
    expect(doc.pkg.names().filter((n) => n.startsWith('ppt/slides/')).length).toBe(20);
    expect(doc.pkg.textOf('[Content_Types].xml')).not.toMatch(/slide1[12]\.xml/);
  });

  it('the copy of an explicitly named slide is not given the same name', async () => {
    const { after } = await run('layouts.pptx', [{ RenameSlide: 'Named' }, { DuplicateSlide: '' }]);
    expect(names(after).slice(0, 3)).toEqual(['Named', 'Centered Title', 'Title']);
  });

  it('DuplicateSlide <n> duplicates slide n', async () => {
    const { after } = await run('layouts.pptx', [{ DuplicateSlide: 5 }, { RenameSlide: 'Copy of Title Only' }]);
    expect(names(after).slice(5, 8)).toEqual(['Title Only', 'Copy of Title Only', 'Blank with Default Title']);
  });

  it('ChangeLayout <id> switches to the master layout of that AutoLayout and adds missing placeholders', async () => {
    const { after } = await run('layouts.pptx', [{ JumpToSlide: 5 }, { ChangeLayout: 3 }]);
    const s = after.Slides['Slide 5'];
    expect([s.LayoutId, s.LayoutName, s.MasterSlideName, s.ObjectCount]).toEqual([3, 'AUTOLAYOUT_TITLE_2CONTENT', 'Two Content', 3]);
    expect(paras(after, 5, 0)).toEqual(['Title Only']);
    expect(after.Slides['Slide 5'].Objects['Objects 1']).toEqual({});
  });

  it('ChangeLayoutByName takes an AutoLayout name', async () => {
    const { after } = await run('layouts.pptx', [{ JumpToSlide: 1 }, { ChangeLayoutByName: 'AUTOLAYOUT_TITLE_ONLY' }]);
    const s = after.Slides['Slide 1'];
    expect([s.LayoutId, s.MasterSlideName, s.ObjectCount]).toEqual([19, 'Title Only', 2]);
  });

  it('SetText.<n> replaces the text of object n; a newline starts a paragraph', async () => {
    const { before, after, bytes } = await run('layouts.pptx', [{ JumpToSlide: 1 }, { 'SetText.1': 'First\nSecond' }]);
    expect(paras(after, 1, 1)).toEqual(['First', 'Second']);
    expect(paras(after, 1, 0)).toEqual(paras(before, 1, 0));
    expect(runs(bytes, 'ppt/slides/slide2.xml', 'Content Placeholder 2', 1).map((r) => r.text)).toEqual(['Second']);
  });
});

describe('EditTextObject on pptx', () => {
  const slide1 = 'ppt/slides/slide1.xml';
  it('SelectText [p, c, p2, c2] + InsertText replaces the selection and selects the inserted text', async () => {
    const { after, bytes } = await run('layouts.pptx', [
      { 'EditTextObject.0': [{ SelectText: [0, 0, 0, 8] }, { InsertText: 'Middle' }, { UnoCommand: '.uno:Bold' }] },
    ]);
    expect(paras(after, 0, 0)).toEqual(['Middle Title']);
    const r = runs(bytes, slide1, 'Title 1');
    expect(r.map((x) => [x.text, x.rPr?.getAttribute('b')])).toEqual([
      ['Middle', '1'],
      [' Title', null],
    ]);
  });

  it('SelectText forms: none = all, [p] = paragraph, [p, c] = cursor, "*" = last', async () => {
    const { after } = await run('layouts.pptx', [
      { JumpToSlide: 1 },
      {
        'EditTextObject.1': [
          { SelectText: [1] },
          { InsertText: 'L2' },
          { SelectText: ['*', '*'] },
          { InsertText: '!' },
          { SelectText: [0, 0] },
          { InsertText: '>' },
        ],
      },
      { 'EditTextObject.0': [{ SelectText: [] }, { InsertText: 'All' }] },
    ]);
    expect(paras(after, 1, 1)).toEqual(['>Content', 'L2', 'Level 3', 'Level 4', 'Level 5', 'Level 6', 'Level 7', 'Level 8', 'Level 9!']);
    expect(paras(after, 1, 0)).toEqual(['All']);
  });

  it('SelectParagraph + InsertText with a newline splits into paragraphs', async () => {
    const { after } = await run('layouts.pptx', [{ 'EditTextObject.1': [{ SelectParagraph: 0 }, { InsertText: 'one\ntwo' }] }]);
    expect(paras(after, 0, 1)).toEqual(['one', 'two']);
  });

  const toggles: [string, string, string][] = [
    ['.uno:Bold', 'b', '1'],
    ['.uno:Italic', 'i', '1'],
    ['.uno:Strikeout', 'strike', 'sngStrike'],
    ['.uno:Underline', 'u', 'sng'],
    ['.uno:SuperScript', 'baseline', '30000'],
    ['.uno:SubScript', 'baseline', '-25000'],
  ];
  for (const [uno, attr, value] of toggles) {
    it(`${uno} sets ${attr}="${value}" on the selection, and a second time turns it off`, async () => {
      const once = await run('layouts.pptx', [{ 'EditTextObject.1': [{ SelectText: [0, 0, 0, 3] }, { UnoCommand: uno }] }]);
      const r = runs(once.bytes, slide1, 'Subtitle 2');
      expect(r.map((x) => [x.text, x.rPr?.getAttribute(attr) ?? null])).toEqual([
        ['sub', value],
        ['title', null],
      ]);
      const twice = await run('layouts.pptx', [{ 'EditTextObject.1': [{ SelectText: [0, 0, 0, 3] }, { UnoCommand: uno }, { UnoCommand: uno }] }]);
      expect(runs(twice.bytes, slide1, 'Subtitle 2')[0].rPr?.getAttribute(attr)).toBe(
        attr === 'baseline' ? null : { b: '0', i: '0', strike: 'noStrike', u: 'none' }[attr],
      );
    });
  }

  it('.uno:Shadowed writes an a:effectLst/a:outerShdw in schema order', async () => {
    const { bytes } = await run('layouts.pptx', [
      {
        'EditTextObject.1': [
          { SelectText: [] },
          { UnoCommand: '.uno:Shadowed' },
          { UnoCommand: '.uno:Color {"Color.Color":{"type":"long","value":16711680}}' },
        ],
      },
    ]);
    const rPr = runs(bytes, slide1, 'Subtitle 2')[0].rPr!;
    expect(
      Array.from(rPr.childNodes)
        .filter((n) => n.nodeType === 1)
        .map((n) => (n as Element).localName),
    ).toEqual(['solidFill', 'effectLst']);
    expect(rPr.getElementsByTagNameNS(NS.a, 'srgbClr')[0].getAttribute('val')).toBe('FF0000');
  });

  it('.uno:Color and .uno:CharBackColor take the JSON argument', async () => {
    const { bytes } = await run('layouts.pptx', [
      {
        'EditTextObject.1': [
          { SelectText: [0, 3, 0, 8] },
          { UnoCommand: '.uno:Color {"Color.Color":{"type":"long","value":255}}' },
          { UnoCommand: '.uno:CharBackColor {"CharBackColor.Color":{"type":"long","value":"65280"}}' },
        ],
      },
    ]);
    const r = runs(bytes, slide1, 'Subtitle 2');
    expect(r.map((x) => x.text)).toEqual(['sub', 'title']);
    const rPr = r[1].rPr!;
    expect(rPr.getElementsByTagNameNS(NS.a, 'solidFill')[0].getElementsByTagNameNS(NS.a, 'srgbClr')[0].getAttribute('val')).toBe('0000FF');
    expect(rPr.getElementsByTagNameNS(NS.a, 'highlight')[0].getElementsByTagNameNS(NS.a, 'srgbClr')[0].getAttribute('val')).toBe('00FF00');
  });

  it('alignment commands set a:pPr/@algn of the selected paragraphs', async () => {
    for (const [uno, algn] of [
      ['.uno:CenterPara', 'ctr'],
      ['.uno:RightPara', 'r'],
      ['.uno:LeftPara', 'l'],
      ['.uno:JustifyPara', 'just'],
    ]) {
      const { bytes } = await run('layouts.pptx', [{ 'EditTextObject.1': [{ UnoCommand: uno }] }]);
      const p = StructureDocument.open(bytes, 'pptx').xml(slide1).getElementsByTagNameNS(NS.a, 'pPr');
      expect(Array.from(p).map((e) => e.getAttribute('algn'))).toEqual([algn]);
    }
  });

  it('.uno:DefaultBullet and .uno:DefaultNumbering toggle whole paragraphs', async () => {
    const { bytes } = await run('layouts.pptx', [{ 'EditTextObject.1': [{ UnoCommand: '.uno:DefaultBullet' }] }]);
    const pPr = StructureDocument.open(bytes, 'pptx').xml(slide1).getElementsByTagNameNS(NS.a, 'pPr')[0];
    expect(Array.from(pPr.childNodes).map((n) => (n as Element).localName)).toEqual(['buFont', 'buChar']);
    const num = await run('layouts.pptx', [
      { JumpToSlide: 1 },
      { 'EditTextObject.1': [{ SelectText: [0, 0, 1, 0] }, { UnoCommand: '.uno:DefaultNumbering' }] },
    ]);
    const ps = Array.from(StructureDocument.open(num.bytes, 'pptx').xml('ppt/slides/slide2.xml').getElementsByTagNameNS(NS.a, 'p')).slice(1, 4);
    expect(ps.map((p) => p.getElementsByTagNameNS(NS.a, 'buAutoNum').length)).toEqual([1, 1, 0]);
    // Body placeholders have bullets from the master: DefaultBullet turns them off.
    const off = await run('layouts.pptx', [{ JumpToSlide: 1 }, { 'EditTextObject.1': [{ SelectParagraph: 0 }, { UnoCommand: '.uno:DefaultBullet' }] }]);
    expect(StructureDocument.open(off.bytes, 'pptx').xml('ppt/slides/slide2.xml').getElementsByTagNameNS(NS.a, 'buNone').length).toBe(1);
  });

  it('UnoCommand at slide level acts on the object the last EditTextObject left selected', async () => {
    const { bytes } = await run('layouts.pptx', [{ 'EditTextObject.0': [{ SelectText: [0, 0] }] }, { UnoCommand: '.uno:Italic' }]);
    expect(runs(bytes, slide1, 'Title 1').map((r) => r.rPr?.getAttribute('i'))).toEqual(['1']);
  });
});

describe('slide command errors point into the recipe and write nothing', () => {
  const cases: [string, unknown[], string, string][] = [
    [
      'unknown command',
      [{ JumpToSlide: 1 }, { JumpToSlide: 2 }, { JumpToSlide: 0 }, { Frobnicate: 1 }],
      'unknown_command',
      'Transforms[0].SlideCommands[3].Frobnicate',
    ],
    ['wrong value type', [{ JumpToSlide: 'two' }], 'bad_value', 'Transforms[0].SlideCommands[0].JumpToSlide'],
    ['index out of range', [{ JumpToSlide: 10 }], 'out_of_range', 'Transforms[0].SlideCommands[0].JumpToSlide'],
    ['object out of range', [{ 'SetText.7': 'x' }], 'out_of_range', 'Transforms[0].SlideCommands[0]["SetText.7"]'],
    ['duplicate slide name', [{ RenameSlide: 'Title Only' }], 'bad_value', 'Transforms[0].SlideCommands[0].RenameSlide'],
    ['default slide name', [{ RenameSlide: 'Slide 4' }], 'bad_value', 'Transforms[0].SlideCommands[0].RenameSlide'],
    ['unknown slide name', [{ JumpToSlideByName: 'Nope' }], 'no_match', 'Transforms[0].SlideCommands[0].JumpToSlideByName'],
    ['unknown master', [{ InsertMasterSlide: 9 }], 'out_of_range', 'Transforms[0].SlideCommands[0].InsertMasterSlide'],
    ['unknown layout id', [{ ChangeLayout: 99 }], 'out_of_range', 'Transforms[0].SlideCommands[0].ChangeLayout'],
    ['layout the master lacks', [{ ChangeLayoutByName: 'AUTOLAYOUT_TITLE_6CONTENT' }], 'no_match', 'Transforms[0].SlideCommands[0].ChangeLayoutByName'],
    ['not a text object', [{ JumpToSlide: 8 }, { 'SetText.1': 'x' }], 'wrong_kind', 'Transforms[0].SlideCommands[1]["SetText.1"]'],
    [
      'untested UNO command',
      [{ 'EditTextObject.0': [{ UnoCommand: '.uno:Grow' }] }],
      'unsupported_command',
      'Transforms[0].SlideCommands[0]["EditTextObject.0"][0].UnoCommand',
    ],
    [
      'bad edit command',
      [{ 'EditTextObject.0': [{ SelectText: [0, 0] }, { Type: 'x' }] }],
      'unknown_command',
      'Transforms[0].SlideCommands[0]["EditTextObject.0"][1].Type',
    ],
    [
      'SelectText out of range',
      [{ 'EditTextObject.0': [{ SelectText: [0, 99] }] }],
      'out_of_range',
      'Transforms[0].SlideCommands[0]["EditTextObject.0"][0].SelectText[1]',
    ],
    ['slide-level UnoCommand without selection', [{ UnoCommand: '.uno:Bold' }], 'unsupported_command', 'Transforms[0].SlideCommands[0].UnoCommand'],
  ];
  for (const [what, cmds, code, path] of cases) {
    it(`${what}: ${code} at ${path}`, async () => {
      const e = await failure('layouts.pptx', cmds);
      expect([e.code, e.path]).toEqual([code, path]);
    });
  }

  it('deleting the last remaining slide: out_of_range', async () => {
    const cmds = [{ DeleteSlide: 4 }, { DeleteSlide: 3 }, { DeleteSlide: 2 }, { DeleteSlide: 1 }, { DeleteSlide: '' }];
    const e = await failure('AllSlidesConverterSC.pptx', cmds);
    expect([e.code, e.path]).toEqual(['out_of_range', 'Transforms[0].SlideCommands[4].DeleteSlide']);
  });

  it('the older object form of SlideCommands is accepted', async () => {
    const bytes = await transformStructure(
      corpus('layouts.pptx'),
      'pptx',
      JSON.stringify({ Transforms: { SlideCommands: { JumpToSlide: 2, RenameSlide: 'Obj form' } } }),
    );
    expect(names(slides(bytes))[2]).toBe('Obj form');
  });
});
