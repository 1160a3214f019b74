import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { extractStructure, transformStructure, StructureError } from '../../daemon/structure/index.ts';
import { ZipPackage } from '../../daemon/structure/package/zip-package.ts';
import type { SlidesResult } from '../../daemon/structure/slides/index.ts';
import { CORPUS } from '../helpers/convert-client.ts';

/**
 * Every slide command and edit command on the corpus odp files, through the engine's entry points
 * (transformStructure, then extractStructure with filter slides): each test states the expected extraction as
 * the original one with exactly the intended change. Formatting, which the extraction does not show, is checked in
 * the written content.xml (the automatic style of the span holding the text).
 */
const file = (name: string) => readFileSync(join(CORPUS, 'presentations', name));
const IMPRESS = 'LibreOfficeImpress_odp_1.3.odp';
const LOGO = 'logo_in_presentation.odp';
const CUSTOM = 'test_custom_formats.odp';
const P1 = 'Presentation1.odp';

const extract = (bytes: Uint8Array) => extractStructure(bytes, 'odp', { filter: 'slides' }) as unknown as SlidesResult;
const recipe = (commands: unknown[]) => JSON.stringify({ Transforms: [{ SlideCommands: commands }] });
const transform = (name: string, commands: unknown[]) => transformStructure(file(name), 'odp', recipe(commands));
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const text = (...paragraphs: string[]) => ({ TextCount: 1, Texts: { 'Text 0': { ParaCount: paragraphs.length, Paragraphs: paragraphs } } });

/** Slides re-keyed after a change of order: `order` lists the original slide index for each new position. */
function reorder(before: SlidesResult, order: number[]): SlidesResult {
  const out = clone(before);
  out.Slides = {};
  order.forEach((from, i) => (out.Slides[`Slide ${i}`] = clone(before.Slides[`Slide ${from}`])));
  out.SlideCount = order.length;
  return out;
}

/** Default names follow the position ("Slide <n>"). */
function renameDefaults(r: SlidesResult, defaults: number[]): SlidesResult {
  for (const i of defaults) r.Slides[`Slide ${i}`].SlideName = `Slide ${i + 1}`;
  return r;
}

function contentOf(bytes: Uint8Array) {
  const pkg = ZipPackage.open(bytes);
  return { pkg, dom: new DOMParser().parseFromString(pkg.textOf('content.xml')!, 'text/xml') };
}

/** The text-properties of the automatic style of the (first) text:span whose text is `spanText`. */
function spanProps(bytes: Uint8Array, spanText: string): Record<string, string> {
  const { dom } = contentOf(bytes);
  const spans = Array.from(dom.getElementsByTagName('text:span')) as Element[];
  const span = spans.find((s) => s.textContent === spanText);
  if (!span) throw new Error(`no span holds ${JSON.stringify(spanText)}`);
  return propsOf(dom.documentElement!, 'style:text-properties', span.getAttribute('text:style-name')!);
}

function propsOf(root: Element, child: string, styleName: string): Record<string, string> {
  const styles = Array.from(root.getElementsByTagName('style:style')) as Element[];
  const style = styles.find((s) => s.getAttribute('style:name') === styleName)!;
  const props = Array.from(style.getElementsByTagName(child))[0] as Element | undefined;
  const out: Record<string, string> = {};
  if (props) for (let i = 0; i < props.attributes.length; i++) out[props.attributes.item(i)!.name] = props.attributes.item(i)!.value;
  return out;
}

/** The text:p elements whose text is `t`. */
function paragraphsWithText(bytes: Uint8Array, t: string): Element[] {
  const { dom } = contentOf(bytes);
  return (Array.from(dom.getElementsByTagName('text:p')) as Element[]).filter((p) => p.textContent === t);
}

async function expectError(name: string, commands: unknown[], code: string, path: string) {
  const err = await transform(name, commands).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StructureError);
  expect({ code: (err as StructureError).code, path: (err as StructureError).path }).toEqual({ code, path });
}

describe('odp slide commands', () => {
  it('JumpToSlide (index and "last") and RenameSlide rename only the current slide', async () => {
    const before = extract(file(LOGO));
    const after = extract(await transform(LOGO, [{ JumpToSlide: 2 }, { RenameSlide: 'Third' }, { JumpToSlide: 'last' }, { RenameSlide: 'End' }]));
    const expected = clone(before);
    expected.Slides['Slide 2'].SlideName = 'Third';
    expected.Slides['Slide 10'].SlideName = 'End';
    expect(after).toEqual(expected);
  });

  it('JumpToSlideByName finds an explicit name; RenameSlide refuses a duplicate or a default name', async () => {
    const before = extract(file(CUSTOM));
    const after = extract(await transform(CUSTOM, [{ JumpToSlideByName: 'Stuff' }, { RenameSlide: 'Things' }]));
    const expected = clone(before);
    expected.Slides['Slide 2'].SlideName = 'Things';
    expect(after).toEqual(expected);
    await expectError(CUSTOM, [{ RenameSlide: 'Stuff' }], 'bad_value', 'Transforms[0].SlideCommands[0].RenameSlide');
    await expectError(CUSTOM, [{ RenameSlide: 'Slide 3' }], 'bad_value', 'Transforms[0].SlideCommands[0].RenameSlide');
    await expectError(CUSTOM, [{ JumpToSlideByName: 'Nope' }], 'no_match', 'Transforms[0].SlideCommands[0].JumpToSlideByName');
  });

  it('InsertMasterSlide inserts after the current slide a Title, Content slide with two empty placeholders', async () => {
    const before = extract(file(IMPRESS));
    const bytes = await transform(IMPRESS, [{ InsertMasterSlide: 1 }, { RenameSlide: 'New' }]);
    const expected = reorder(before, [0, 0, 1]);
    expected.Slides['Slide 1'] = {
      SlideName: 'New',
      MasterSlideName: 'Beehive1',
      LayoutId: 1,
      LayoutName: 'AUTOLAYOUT_TITLE_CONTENT',
      ObjectCount: 2,
      Objects: { 'Objects 0': {}, 'Objects 1': {} },
    };
    renameDefaults(expected, [2]);
    expect(extract(bytes)).toEqual(expected);
    // the placeholders are presentation objects with the master's styles
    const { dom } = contentOf(bytes);
    const page = (Array.from(dom.getElementsByTagName('draw:page')) as Element[])[1];
    const frames = Array.from(page.getElementsByTagName('draw:frame')) as Element[];
    expect(
      frames.map((f) => [f.getAttribute('presentation:class'), f.getAttribute('presentation:placeholder'), f.getAttribute('presentation:style-name')]),
    ).toEqual([
      ['title', 'true', 'Beehive1-title'],
      ['outline', 'true', 'Beehive1-outline1'],
    ]);
  });

  it('InsertMasterSlideByName takes the master by name; the new slide becomes current', async () => {
    const before = extract(file(CUSTOM));
    const after = extract(await transform(CUSTOM, [{ JumpToSlide: 3 }, { InsertMasterSlideByName: 'Title3' }, { 'SetText.0': 'Appendix' }]));
    const expected = clone(before);
    expected.SlideCount = 5;
    expected.Slides['Slide 4'] = {
      SlideName: 'Slide 5',
      MasterSlideName: 'Title3',
      LayoutId: 1,
      LayoutName: 'AUTOLAYOUT_TITLE_CONTENT',
      ObjectCount: 2,
      Objects: { 'Objects 0': text('Appendix'), 'Objects 1': {} },
    };
    expect(after).toEqual(expected);
    await expectError(CUSTOM, [{ InsertMasterSlideByName: 'Nope' }], 'no_match', 'Transforms[0].SlideCommands[0].InsertMasterSlideByName');
    await expectError(CUSTOM, [{ InsertMasterSlide: 7 }], 'out_of_range', 'Transforms[0].SlideCommands[0].InsertMasterSlide');
  });

  it('DeleteSlide by index and the current one; default names follow the new positions', async () => {
    const before = extract(file(LOGO));
    const after = extract(await transform(LOGO, [{ DeleteSlide: 3 }, { JumpToSlide: 0 }, { DeleteSlide: '' }]));
    const expected = reorder(before, [1, 2, 4, 5, 6, 7, 8, 9, 10]);
    renameDefaults(expected, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // the first slide has no layout: LibreOffice keeps AUTOLAYOUT_TITLE for the first page it loads
    expected.Slides['Slide 0'].LayoutId = 0;
    expected.Slides['Slide 0'].LayoutName = 'AUTOLAYOUT_TITLE';
    expect(after).toEqual(expected);
  });

  it('DeleteSlide removes the embedded objects only the deleted slide used, with their manifest entries', async () => {
    const bytes = await transform(P1, [{ DeleteSlide: 5 }]);
    const { pkg } = contentOf(bytes);
    expect(pkg.names().filter((n) => n.startsWith('Object 7/') || n === 'ObjectReplacements/Object 7')).toEqual([]);
    const manifest = pkg.textOf('META-INF/manifest.xml')!;
    expect(manifest).not.toContain('"Object 7/');
    expect(manifest).not.toContain('ObjectReplacements/Object 7"');
    expect(manifest).toContain('"Object 8/"');
    expect(extract(bytes).SlideCount).toBe(9);
  });

  it('the last remaining slide cannot be deleted', async () => {
    await expectError(IMPRESS, [{ DeleteSlide: 0 }, { DeleteSlide: 0 }], 'out_of_range', 'Transforms[0].SlideCommands[1].DeleteSlide');
  });

  it('MoveSlide moves the current slide; MoveSlide.<n> moves another one', async () => {
    const before = extract(file(CUSTOM));
    const after = extract(await transform(CUSTOM, [{ JumpToSlide: 2 }, { MoveSlide: 0 }, { 'MoveSlide.1': 3 }, { RenameSlide: 'Moved' }]));
    // [0,1,2,3] -> Stuff to 0: [2,0,1,3] -> slide 1 (Xwiki) to 3: [2,1,3,0]; the current slide (Stuff) is renamed
    const expected = reorder(before, [2, 1, 3, 0]);
    expected.Slides['Slide 0'].SlideName = 'Moved';
    expect(after).toEqual(expected);
  });

  it('DuplicateSlide copies the slide after it, with its own copy of each embedded object', async () => {
    const before = extract(file(P1));
    const bytes = await transform(P1, [{ DuplicateSlide: 1 }, { RenameSlide: 'Copy' }]);
    const expected = reorder(before, [0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    renameDefaults(expected, [3, 4, 5, 6, 7, 8, 9, 10]);
    expected.Slides['Slide 2'].SlideName = 'Copy';
    expect(extract(bytes)).toEqual(expected);
    const { dom, pkg } = contentOf(bytes);
    const pages = Array.from(dom.getElementsByTagName('draw:page')) as Element[];
    const hrefs = (i: number) => (Array.from(pages[i].getElementsByTagName('draw:object')) as Element[]).map((o) => o.getAttribute('xlink:href'));
    expect(hrefs(1)).toEqual(['./Object 1']);
    const copy = hrefs(2)[0]!.slice(2);
    expect(copy).not.toBe('Object 1');
    expect(
      pkg
        .names()
        .filter((n) => n.startsWith(`${copy}/`))
        .map((n) => n.slice(copy.length)),
    ).toEqual(
      pkg
        .names()
        .filter((n) => n.startsWith('Object 1/'))
        .map((n) => n.slice('Object 1'.length)),
    );
    expect(pkg.has(`ObjectReplacements/${copy}`)).toBe(true);
    expect(pkg.textOf('META-INF/manifest.xml')).toContain(`manifest:full-path="${copy}/content.xml"`);
  });

  it('DuplicateSlide without a value duplicates the current slide; the copy becomes current', async () => {
    const before = extract(file(IMPRESS));
    const after = extract(await transform(IMPRESS, [{ DuplicateSlide: 'NONE' }, { 'SetText.0': 'Copy title' }]));
    const expected = reorder(before, [0, 0, 1]);
    renameDefaults(expected, [1, 2]);
    expected.Slides['Slide 1'].Objects['Objects 0'] = text('Copy title');
    expect(after).toEqual(expected);
  });

  it('ChangeLayout by id: missing placeholders are created, unused empty ones removed', async () => {
    const before = extract(file(IMPRESS));
    const after = extract(await transform(IMPRESS, [{ JumpToSlide: 1 }, { ChangeLayout: 19 }]));
    const expected = clone(before);
    Object.assign(expected.Slides['Slide 1'], { LayoutId: 19, LayoutName: 'AUTOLAYOUT_TITLE_ONLY', ObjectCount: 1, Objects: { 'Objects 0': {} } });
    expect(after).toEqual(expected);
    await expectError(IMPRESS, [{ ChangeLayout: 99 }], 'out_of_range', 'Transforms[0].SlideCommands[0].ChangeLayout');
  });

  it('ChangeLayoutByName AUTOLAYOUT_TITLE_2CONTENT then SetText on the new placeholders', async () => {
    const before = extract(file(IMPRESS));
    const after = extract(
      await transform(IMPRESS, [
        { JumpToSlide: 1 },
        { ChangeLayoutByName: 'AUTOLAYOUT_TITLE_2CONTENT' },
        { 'SetText.0': 'Two' },
        { 'SetText.1': 'left' },
        { 'SetText.2': 'right\nmore' },
      ]),
    );
    const expected = clone(before);
    Object.assign(expected.Slides['Slide 1'], {
      LayoutId: 3,
      LayoutName: 'AUTOLAYOUT_TITLE_2CONTENT',
      ObjectCount: 3,
      Objects: { 'Objects 0': text('Two'), 'Objects 1': text('left'), 'Objects 2': text('right', 'more') },
    });
    expect(after).toEqual(expected);
    await expectError(IMPRESS, [{ ChangeLayoutByName: 'AUTOLAYOUT_FANCY' }], 'no_match', 'Transforms[0].SlideCommands[0].ChangeLayoutByName');
  });

  it('ChangeLayout adopts a picture as the content, as LibreOffice does, and creates the title', async () => {
    const before = extract(file(LOGO));
    const after = extract(await transform(LOGO, [{ JumpToSlide: 1 }, { ChangeLayout: 1 }]));
    const expected = clone(before);
    Object.assign(expected.Slides['Slide 1'], { LayoutId: 1, LayoutName: 'AUTOLAYOUT_TITLE_CONTENT', ObjectCount: 3 });
    expected.Slides['Slide 1'].Objects['Objects 2'] = {};
    expect(after).toEqual(expected);
  });

  it('SetText on a custom shape writes its paragraph, which stays before the shape geometry', async () => {
    const before = extract(file(P1));
    const bytes = await transform(P1, [{ JumpToSlide: 9 }, { 'SetText.2': 'Star' }]);
    const expected = clone(before);
    expected.Slides['Slide 9'].Objects['Objects 2'] = text('Star');
    expect(extract(bytes)).toEqual(expected);
    const p = paragraphsWithText(bytes, 'Star')[0];
    expect(p.parentNode!.nodeName).toBe('draw:custom-shape');
    let next = p.nextSibling;
    while (next && next.nodeType !== 1) next = next.nextSibling;
    expect(next!.nodeName).toBe('draw:enhanced-geometry');
  });

  it('SetText replaces the whole text; newlines make paragraphs; spaces survive', async () => {
    const before = extract(file(CUSTOM));
    const after = extract(await transform(CUSTOM, [{ JumpToSlide: 1 }, { 'SetText.1': 'one\n  two  spaced \n\nfour' }, { 'SetText.0': 'Intro' }]));
    const expected = clone(before);
    expected.Slides['Slide 1'].Objects['Objects 0'] = text('Intro');
    expected.Slides['Slide 1'].Objects['Objects 1'] = text('one', '  two  spaced ', '', 'four');
    expect(after).toEqual(expected);
    // an embedded object holds no text
    await expectError(P1, [{ JumpToSlide: 1 }, { 'SetText.1': 'x' }], 'wrong_kind', 'Transforms[0].SlideCommands[1]["SetText.1"]');
  });
});

describe('odp EditTextObject', () => {
  const edit = (name: string, slide: number, obj: number, cmds: unknown[]) => transform(name, [{ JumpToSlide: slide }, { [`EditTextObject.${obj}`]: cmds }]);

  it('SelectParagraph + InsertText replaces that paragraph; the text keeps the paragraph formatting', async () => {
    const before = extract(file(CUSTOM));
    const bytes = await edit(CUSTOM, 1, 1, [{ SelectParagraph: 3 }, { InsertText: 'Point – two' }]);
    const expected = clone(before);
    const paras = (expected.Slides['Slide 1'].Objects['Objects 1'] as ReturnType<typeof text>).Texts['Text 0'].Paragraphs;
    paras[3] = 'Point – two';
    expect(extract(bytes)).toEqual(expected);
    // still a list item of the same list style as the other points, with the same span style
    const p = paragraphsWithText(bytes, 'Point – two')[0];
    expect((p.parentNode as Element).localName).toBe('list-item');
    expect(p.getAttribute('text:style-name')).toBe('P4');
  });

  it('SelectText [p, c] + InsertText inserts at a cursor; [p1, c1, p2, c2] replaces across paragraphs', async () => {
    const before = extract(file(CUSTOM));
    const after = extract(await edit(CUSTOM, 1, 1, [{ SelectText: [0, 6] }, { InsertText: 'big ' }, { SelectText: [1, 4, 2, 9] }, { InsertText: 'X\nY' }]));
    const expected = clone(before);
    const paras = (expected.Slides['Slide 1'].Objects['Objects 1'] as ReturnType<typeof text>).Texts['Text 0'].Paragraphs;
    paras[0] = 'Point big – 1';
    // "Sub " + "X" | "Y" + " – 1.2" (from offset 9 of "Sub point – 1.2")
    paras.splice(1, 2, 'Sub X', 'Y – 1.2');
    expected.Slides['Slide 1'].Objects['Objects 1'] = text(...paras);
    expect(after).toEqual(expected);
  });

  it('SelectText with "*" and InsertText with several paragraphs', async () => {
    const before = extract(file(IMPRESS));
    const after = extract(await edit(IMPRESS, 0, 1, [{ SelectText: ['*', '*'] }, { InsertText: '!\nsecond' }]));
    const expected = clone(before);
    expected.Slides['Slide 0'].Objects['Objects 1'] = text('An example Impress file!', 'second');
    expect(after).toEqual(expected);
  });

  it('.uno:Bold, .uno:Italic, .uno:Underline, .uno:Strikeout, .uno:Shadowed on a selection', async () => {
    const cmds = ['.uno:Bold', '.uno:Italic', '.uno:Underline', '.uno:Strikeout', '.uno:Shadowed'].map((u) => ({ UnoCommand: u }));
    const bytes = await edit(IMPRESS, 0, 1, [{ SelectText: [0, 3, 0, 10] }, ...cmds]);
    expect(extract(bytes)).toEqual(extract(file(IMPRESS)));
    expect(spanProps(bytes, 'example')).toMatchObject({
      'fo:font-weight': 'bold',
      'fo:font-style': 'italic',
      'style:text-underline-style': 'solid',
      'style:text-line-through-style': 'solid',
      'fo:text-shadow': '1pt 1pt',
    });
    // the rest of the paragraph is untouched text
    expect(paragraphsWithText(bytes, 'An example Impress file')[0].firstChild!.nodeValue).toBe('An ');
  });

  it('a toggle switches off what is on: Bold twice leaves the text normal', async () => {
    const bytes = await edit(IMPRESS, 0, 0, [{ SelectText: [] }, { UnoCommand: '.uno:Bold' }, { UnoCommand: '.uno:Bold' }]);
    expect(spanProps(bytes, 'This is')['fo:font-weight']).toBe('normal');
  });

  it('.uno:SuperScript and .uno:SubScript set the escapement', async () => {
    const bytes = await edit(IMPRESS, 0, 1, [
      { SelectText: [0, 0, 0, 2] },
      { UnoCommand: '.uno:SuperScript' },
      { SelectText: [0, 3, 0, 10] },
      { UnoCommand: '.uno:SubScript' },
    ]);
    expect(spanProps(bytes, 'An')['style:text-position']).toBe('super 58%');
    expect(spanProps(bytes, 'example')['style:text-position']).toBe('sub 58%');
  });

  it('.uno:Color and .uno:CharBackColor with their JSON arguments', async () => {
    const bytes = await edit(IMPRESS, 0, 1, [
      { SelectParagraph: 0 },
      { UnoCommand: '.uno:Color {"Color.Color":{"type":"long","value":16711680}}' },
      { UnoCommand: '.uno:CharBackColor {"CharBackColor.Color":{"type":"long","value":65280}}' },
    ]);
    expect(spanProps(bytes, 'An example Impress file')).toMatchObject({ 'fo:color': '#ff0000', 'fo:background-color': '#00ff00' });
    await expectError(
      IMPRESS,
      [{ 'EditTextObject.0': [{ UnoCommand: '.uno:Color {bad' }] }],
      'bad_value',
      'Transforms[0].SlideCommands[0]["EditTextObject.0"][0].UnoCommand',
    );
  });

  it('.uno:CenterPara, .uno:RightPara, .uno:LeftPara, .uno:JustifyPara set the paragraph alignment', async () => {
    const cases: Array<[string, string]> = [
      ['.uno:CenterPara', 'center'],
      ['.uno:RightPara', 'end'],
      ['.uno:LeftPara', 'start'],
      ['.uno:JustifyPara', 'justify'],
    ];
    for (const [uno, align] of cases) {
      const bytes = await edit(IMPRESS, 0, 1, [{ SelectParagraph: 0 }, { UnoCommand: uno }]);
      const p = paragraphsWithText(bytes, 'An example Impress file')[0];
      const { dom } = contentOf(bytes);
      expect(propsOf(dom.documentElement!, 'style:paragraph-properties', p.getAttribute('text:style-name')!)['fo:text-align']).toBe(align);
      // the derived style keeps what the original paragraph style P1 had
      expect(propsOf(dom.documentElement!, 'style:text-properties', p.getAttribute('text:style-name')!)).toEqual(
        propsOf(contentOf(file(IMPRESS)).dom.documentElement!, 'style:text-properties', 'P1'),
      );
    }
  });

  it('.uno:DefaultNumbering numbers the selected paragraphs in one list; again takes them out', async () => {
    const on = await transform(IMPRESS, [
      { JumpToSlide: 1 },
      { 'SetText.1': 'a\nb\nc' },
      { 'EditTextObject.1': [{ SelectText: [0, 0, 1, 1] }, { UnoCommand: '.uno:DefaultNumbering' }] },
    ]);
    const { dom } = contentOf(on);
    const lists = Array.from(dom.getElementsByTagName('text:list')) as Element[];
    const numbered = lists.filter((l) => l.textContent === 'ab');
    expect(numbered).toHaveLength(1);
    const style = (Array.from(dom.getElementsByTagName('text:list-style')) as Element[]).find(
      (s) => s.getAttribute('style:name') === numbered[0].getAttribute('text:style-name'),
    )!;
    expect((style.getElementsByTagName('text:list-level-style-number')[0] as Element).getAttribute('style:num-format')).toBe('1');
    expect(extract(on).Slides['Slide 1'].Objects['Objects 1']).toEqual(text('a', 'b', 'c'));
    const off = await transform(IMPRESS, [
      { JumpToSlide: 1 },
      { 'SetText.1': 'a\nb\nc' },
      { 'EditTextObject.1': [{ SelectText: [0, 0, 1, 1] }, { UnoCommand: '.uno:DefaultNumbering' }, { UnoCommand: '.uno:DefaultNumbering' }] },
    ]);
    expect(paragraphsWithText(off, 'a')[0].parentNode!.nodeName).toBe('draw:text-box');
  });

  it('.uno:DefaultBullet on an outline list item (bulleted by the outline style) turns its bullet off', async () => {
    const bytes = await edit(CUSTOM, 1, 1, [{ SelectParagraph: 0 }, { UnoCommand: '.uno:DefaultBullet' }]);
    expect(paragraphsWithText(bytes, 'Point – 1')[0].parentNode!.nodeName).toBe('draw:text-box');
    expect(extract(bytes)).toEqual(extract(file(CUSTOM)));
    // a plain paragraph gets a bullet list
    const on = await edit(IMPRESS, 0, 1, [{ UnoCommand: '.uno:DefaultBullet' }]);
    const p = paragraphsWithText(on, 'An example Impress file')[0];
    expect(p.parentNode!.nodeName).toBe('text:list-item');
  });

  it('unsupported and unknown commands are refused with their path, and nothing is written', async () => {
    await expectError(
      IMPRESS,
      [{ 'EditTextObject.0': [{ UnoCommand: '.uno:FontDialog' }] }],
      'unsupported_command',
      'Transforms[0].SlideCommands[0]["EditTextObject.0"][0].UnoCommand',
    );
    await expectError(IMPRESS, [{ Teleport: 1 }], 'unknown_command', 'Transforms[0].SlideCommands[0].Teleport');
    await expectError(IMPRESS, [{ 'EditTextObject.5': [] }], 'out_of_range', 'Transforms[0].SlideCommands[0]["EditTextObject.5"]');
  });
});
