import { readFileSync } from 'node:fs';
import type { Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transformStructure } from '../../daemon/structure/index.ts';
import { ZipPackage } from '../../daemon/structure/package/zip-package.ts';
import { NS, childElements, parseXml } from '../../daemon/structure/xml/dom.ts';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

// LibreOffice (a kit behind a real daemon) opens the pptx files the slide commands wrote, without error, and its
// own ODP export of them shows the change: slide count and order, texts, layouts, character formatting.
interface Page {
  name: string;
  layout: string;
  objects: { name: string; paragraphs: string[]; bold: boolean[] }[];
}

function pagesOf(odp: Buffer): Page[] {
  const pkg = ZipPackage.open(new Uint8Array(odp));
  const content = parseXml(pkg.textOf('content.xml')!, 'content.xml');
  const boldStyles = new Set<string>();
  for (const st of Array.from(content.getElementsByTagNameNS(NS.style, 'style'))) {
    const tp = st.getElementsByTagNameNS(NS.style, 'text-properties')[0];
    if (tp?.getAttributeNS(NS.fo, 'font-weight') === 'bold') boldStyles.add(st.getAttributeNS(NS.style, 'name') ?? '');
  }
  const pageLayouts = new Map<string, string>();
  const styles = parseXml(pkg.textOf('styles.xml')!, 'styles.xml');
  for (const l of Array.from(styles.getElementsByTagNameNS(NS.style, 'presentation-page-layout')))
    pageLayouts.set(l.getAttributeNS(NS.style, 'name') ?? '', l.getAttributeNS(NS.style, 'name') ?? '');
  return Array.from(content.getElementsByTagNameNS(NS.draw, 'page')).map((page) => ({
    name: page.getAttributeNS(NS.draw, 'name') ?? '',
    layout: page.getAttributeNS(NS.presentation, 'presentation-page-layout-name') ?? '',
    objects: childElements(page, NS.draw).map((o: Element) => {
      const ps = Array.from(o.getElementsByTagNameNS(NS.text, 'p'));
      return {
        name: o.getAttributeNS(NS.draw, 'name') ?? '',
        paragraphs: ps.map((p) => p.textContent ?? ''),
        bold: Array.from(o.getElementsByTagNameNS(NS.text, 'span')).map((s) => boldStyles.has(s.getAttributeNS(NS.text, 'style-name') ?? '')),
      };
    }),
  }));
}

describe('pptx slide commands, as LibreOffice reads the result', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon();
  }, 120_000);
  afterAll(async () => daemon?.stop());

  const viaLibreOffice = async (bytes: Uint8Array): Promise<Page[]> => {
    const r = await postConvert(daemon.url, '/ode/convert-to/odp', { bytes: Buffer.from(bytes), filename: 'deck.pptx' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    return pagesOf(r.body);
  };
  const transform = (file: string, cmds: unknown[]) =>
    transformStructure(new Uint8Array(readFileSync(`${CORPUS}presentations/${file}`)), 'pptx', JSON.stringify({ Transforms: [{ SlideCommands: cmds }] }));

  it('duplicate, move, delete and SetText: count, order and text', async () => {
    const out = await transform('layouts.pptx', [
      { JumpToSlide: 1 },
      { DuplicateSlide: '' },
      { 'SetText.0': 'Copied and moved' },
      { MoveSlide: 0 },
      { DeleteSlide: 5 },
    ]);
    const pages = await viaLibreOffice(out);
    expect(pages).toHaveLength(10);
    expect(pages.map((p) => p.name)).toEqual([
      'Copied and moved',
      'Centered Title',
      'Title',
      'Section Title',
      'Title (2)',
      'Title Only',
      'Blank with Default Title',
      'Caption',
      'Picture with Caption',
      'Headers & Footers',
    ]);
    expect(pages[0].objects[0].paragraphs).toEqual(['Copied and moved']);
    expect(pages[0].objects[1].paragraphs.slice(0, 2)).toEqual(['Content', 'Level 2']);
  }, 60_000);

  it('InsertMasterSlide with text, and ChangeLayout: the new slide and the new layout', async () => {
    const out = await transform('AllSlidesConverterSC.pptx', [
      { JumpToSlide: 'last' },
      { InsertMasterSlide: 0 },
      { 'SetText.0': 'Inserted title' },
      { 'SetText.1': 'Line one\nLine two' },
      { JumpToSlide: 0 },
    ]);
    const pages = await viaLibreOffice(out);
    expect(pages).toHaveLength(6);
    expect(pages[5].name).toBe('Inserted title');
    expect(pages[5].objects.map((o) => o.paragraphs)).toEqual([['Inserted title'], ['Line one', 'Line two']]);
    const relaid = await viaLibreOffice(
      await transform('layouts.pptx', [{ JumpToSlide: 5 }, { ChangeLayout: 3 }, { 'SetText.1': 'Left' }, { 'SetText.2': 'Right' }]),
    );
    expect(relaid[5].layout).toMatch(/T3$/);
    expect(relaid[5].objects.map((o) => o.paragraphs)).toEqual([['Title Only'], ['Left'], ['Right']]);
  }, 60_000);

  it('EditTextObject: inserted text, and bold on the selection', async () => {
    const out = await transform('layouts.pptx', [
      { 'EditTextObject.1': [{ SelectText: [0, 0, 0, 3] }, { InsertText: 'New sub' }, { UnoCommand: '.uno:Bold' }] },
    ]);
    const pages = await viaLibreOffice(out);
    const subtitle = pages[0].objects[1];
    expect(subtitle.paragraphs).toEqual(['New subtitle']);
    expect(subtitle.bold).toEqual([true, false]);
  }, 60_000);

  it('through the endpoints: extract filter=slides, transform with SlideCommands, and a 400 pointing into the recipe', async () => {
    const file = `${CORPUS}presentations/layouts.pptx`;
    const ex = await postConvert(daemon.url, '/ode/extract-document-structure', file, { filter: 'slides' });
    expect(ex.status, JSON.stringify(ex.error)).toBe(200);
    const doc = JSON.parse(ex.body.toString('utf8')) as { DocStructure: { SlideCount: number; Slides: Record<string, { SlideName: string }> } };
    expect(doc.DocStructure.SlideCount).toBe(10);
    expect(doc.DocStructure.Slides['Slide 3'].SlideName).toBe('Title (2)');
    const ok = await postConvert(daemon.url, '/ode/transform-document-structure', file, {
      transform: JSON.stringify({ Transforms: [{ SlideCommands: [{ JumpToSlide: 'last' }, { DeleteSlide: '' }] }] }),
    });
    expect(ok.status, JSON.stringify(ok.error)).toBe(200);
    expect(await viaLibreOffice(new Uint8Array(ok.body))).toHaveLength(9);
    const bad = await postConvert(daemon.url, '/ode/transform-document-structure', file, {
      transform: JSON.stringify({ Transforms: [{ SlideCommands: [{ JumpToSlide: 1 }, { DeleteSlide: 99 }] }] }),
    });
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ code: 'out_of_range', path: 'Transforms[0].SlideCommands[1].DeleteSlide' });
  }, 60_000);

  it('every tested UNO command but Shadowed shows in LibreOffice (7.4 does not import run shadows from pptx)', async () => {
    const uno = (u: string) => ({ UnoCommand: u });
    const out = await transform('layouts.pptx', [
      { JumpToSlide: 6 },
      { 'SetText.1': 'Bold Italic Strike Under Super Sub Red Yellow' },
      {
        'EditTextObject.1': [
          { SelectText: [0, 0, 0, 4] },
          uno('.uno:Bold'),
          { SelectText: [0, 5, 0, 11] },
          uno('.uno:Italic'),
          { SelectText: [0, 12, 0, 18] },
          uno('.uno:Strikeout'),
          { SelectText: [0, 19, 0, 24] },
          uno('.uno:Underline'),
          { SelectText: [0, 25, 0, 30] },
          uno('.uno:SuperScript'),
          { SelectText: [0, 31, 0, 34] },
          uno('.uno:SubScript'),
          { SelectText: [0, 35, 0, 38] },
          uno('.uno:Color {"Color.Color":{"type":"long","value":16711680}}'),
          { SelectText: [0, 39, 0, 45] },
          uno('.uno:CharBackColor {"CharBackColor.Color":{"type":"long","value":16776960}}'),
          uno('.uno:CenterPara'),
        ],
      },
    ]);
    const r = await postConvert(daemon.url, '/ode/convert-to/odp', { bytes: Buffer.from(out), filename: 'deck.pptx' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const content = parseXml(ZipPackage.open(new Uint8Array(r.body)).textOf('content.xml')!, 'content.xml');
    const props = new Map<string, Element>();
    const paraProps = new Map<string, Element>();
    for (const st of Array.from(content.getElementsByTagNameNS(NS.style, 'style'))) {
      const name = st.getAttributeNS(NS.style, 'name') ?? '';
      const tp = st.getElementsByTagNameNS(NS.style, 'text-properties')[0];
      if (tp) props.set(name, tp);
      const pp = st.getElementsByTagNameNS(NS.style, 'paragraph-properties')[0];
      if (pp) paraProps.set(name, pp);
    }
    const box = Array.from(content.getElementsByTagNameNS(NS.draw, 'custom-shape')).find((e) => e.getAttributeNS(NS.draw, 'name') === 'TextBox 3')!;
    const p = box.getElementsByTagNameNS(NS.text, 'p')[0];
    const spans = new Map(
      Array.from(p.getElementsByTagNameNS(NS.text, 'span')).map((sp) => [sp.textContent ?? '', props.get(sp.getAttributeNS(NS.text, 'style-name') ?? '')!]),
    );
    const get = (word: string, ns: string, attr: string) => spans.get(word)?.getAttributeNS(ns, attr);
    expect(get('Bold', NS.fo, 'font-weight')).toBe('bold');
    expect(get('Italic', NS.fo, 'font-style')).toBe('italic');
    expect(get('Strike', NS.style, 'text-line-through-style')).toBe('solid');
    expect(get('Under', NS.style, 'text-underline-style')).toBe('solid');
    expect(get('Super', NS.style, 'text-position')).toBe('30% 58%');
    expect(get('Sub', NS.style, 'text-position')).toBe('-25% 58%');
    expect(get('Red', NS.fo, 'color')).toBe('#ff0000');
    expect(get('Yellow', NS.fo, 'background-color')).toBe('#ffff00');
    expect(paraProps.get(p.getAttributeNS(NS.text, 'style-name') ?? '')?.getAttributeNS(NS.fo, 'text-align')).toBe('center');
  }, 60_000);
});
