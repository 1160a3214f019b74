import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transformStructure } from '../../daemon/structure/index.ts';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

/**
 * LibreOffice (a kit behind a real daemon) opens odp files transformed by the engine and sees the change: the
 * transformed file is converted to flat ODP (/ode/convert-to/fodp), which is LibreOffice's own model written
 * out (page names, masters, layouts, shape text, automatic styles), and to PDF for the visible text.
 */
const file = (name: string) => readFileSync(join(CORPUS, 'presentations', name));
const recipe = (commands: unknown[]) => JSON.stringify({ Transforms: [{ SlideCommands: commands }] });

function attr(el: Element, name: string): string {
  return el.getAttribute(name) ?? '';
}

function pages(dom: Document): Element[] {
  return Array.from(dom.getElementsByTagName('draw:page')) as Element[];
}

/** The text of an element, text:s expanded to its spaces. */
function textOf(el: Element): string {
  let out = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3) out += n.nodeValue ?? '';
    else if (n.nodeType === 1) out += n.nodeName === 'text:s' ? ' '.repeat(Number((n as Element).getAttribute('text:c') || '1')) : textOf(n as Element);
  }
  return out;
}

/** The text of each paragraph of the page's shapes (notes left out), with text:s expanded. */
function pageTexts(page: Element): string[] {
  const out: string[] = [];
  for (const p of Array.from(page.getElementsByTagName('text:p')) as Element[]) {
    let n: Element | null = p;
    let inNotes = false;
    while ((n = n.parentNode as Element | null)) if (n.nodeName === 'presentation:notes') inNotes = true;
    if (!inNotes) out.push(textOf(p));
  }
  return out;
}

/** The text-properties of an automatic style of the flat document. */
function textProps(dom: Document, styleName: string): Record<string, string> {
  const style = (Array.from(dom.getElementsByTagName('style:style')) as Element[]).find((s) => attr(s, 'style:name') === styleName);
  const props = style?.getElementsByTagName('style:text-properties')[0] as Element | undefined;
  const out: Record<string, string> = {};
  if (props) for (let i = 0; i < props.attributes.length; i++) out[props.attributes.item(i)!.name] = props.attributes.item(i)!.value;
  return out;
}

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'ode-odp-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'a.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('LibreOffice opens transformed odp files and shows the change', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon();
  });
  afterAll(async () => daemon?.stop());

  const viaKit = async (bytes: Uint8Array, to: 'fodp' | 'pdf') => {
    const r = await postConvert(daemon.url, `/ode/convert-to/${to}`, { bytes: Buffer.from(bytes), filename: 'deck.odp' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    return r.body;
  };
  const flat = async (bytes: Uint8Array) => new DOMParser().parseFromString((await viaKit(bytes, 'fodp')).toString('utf8'), 'text/xml');

  it('slide operations: delete, duplicate (embedded object copied), move, rename, insert from a master, change layout', async () => {
    const bytes = await transformStructure(
      file('Presentation1.odp'),
      'odp',
      recipe([
        { DeleteSlide: 6 },
        { DuplicateSlide: 1 },
        { RenameSlide: 'Copy' },
        { MoveSlide: 0 },
        { JumpToSlide: 'last' },
        { InsertMasterSlide: 1 },
        { RenameSlide: 'Closing' },
        { 'SetText.0': 'Thanks' },
        { JumpToSlide: 3 },
        { ChangeLayoutByName: 'AUTOLAYOUT_TITLE_ONLY' },
      ]),
    );
    const dom = await flat(bytes);
    const ps = pages(dom);
    expect(ps.map((p) => attr(p, 'draw:name'))).toEqual(['Copy', 'page2', 'page3', 'page4', 'page5', 'page6', 'page7', 'page8', 'page9', 'page10', 'Closing']);
    // the copy keeps the original's title text and has its own embedded object, which LibreOffice loaded
    expect(pageTexts(ps[0])[0]).toMatch(/^The ODF Toolkit provides a home for libraries/);
    expect(ps[0].getElementsByTagName('draw:object').length).toBe(1);
    expect(ps[2].getElementsByTagName('draw:object').length).toBe(1);
    // the new slide: master "(Default) Title/Text Master", title and outline, the title set
    const masters = Array.from(dom.getElementsByTagName('style:master-page')) as Element[];
    const closingMaster = masters.find((m) => attr(m, 'style:name') === attr(ps[10], 'draw:master-page-name'))!;
    expect(attr(closingMaster, 'style:display-name') || attr(closingMaster, 'style:name')).toBe('(Default) Title/Text Master');
    const frames = (Array.from(ps[10].getElementsByTagName('draw:frame')) as Element[]).filter((f) => f.parentNode === ps[10]);
    expect(frames.map((f) => attr(f, 'presentation:class'))).toEqual(['title', 'outline']);
    expect(pageTexts(ps[10])[0]).toBe('Thanks');
    // the layout LibreOffice gives slide 3 is Title Only (placeholders: one title)
    const layoutName = attr(ps[3], 'presentation:presentation-page-layout-name');
    const layout = (Array.from(dom.getElementsByTagName('style:presentation-page-layout')) as Element[]).find((l) => attr(l, 'style:name') === layoutName)!;
    expect((Array.from(layout.getElementsByTagName('presentation:placeholder')) as Element[]).map((p) => attr(p, 'presentation:object'))).toEqual(['title']);
  });

  it('text edits: SetText, InsertText, bold, colour, centring and numbering are what LibreOffice shows', async () => {
    const bytes = await transformStructure(
      file('LibreOfficeImpress_odp_1.3.odp'),
      'odp',
      recipe([
        { JumpToSlide: 1 },
        { 'SetText.0': 'Agenda' },
        { 'SetText.1': 'First  point\nSecond point\nThird' },
        {
          'EditTextObject.1': [
            { SelectText: [0, 0, 1, '*'] },
            { UnoCommand: '.uno:DefaultNumbering' },
            { SelectParagraph: 1 },
            { UnoCommand: '.uno:Bold' },
            { UnoCommand: '.uno:Color {"Color.Color":{"type":"long","value":255}}' },
            { SelectParagraph: 2 },
            { InsertText: 'Last' },
            { UnoCommand: '.uno:CenterPara' },
          ],
        },
      ]),
    );
    const dom = await flat(bytes);
    const page = pages(dom)[1];
    expect(pageTexts(page)).toEqual(['Agenda', 'First  point', 'Second point', 'Last']);
    const spans = Array.from(page.getElementsByTagName('text:span')) as Element[];
    const second = spans.find((s) => textOf(s) === 'Second point')!;
    expect(textProps(dom, attr(second, 'text:style-name'))).toMatchObject({ 'fo:font-weight': 'bold', 'fo:color': '#0000ff' });
    // the two first paragraphs are one numbered list; the third, an outline paragraph too, keeps the outline bullets
    const list = (Array.from(page.getElementsByTagName('text:list')) as Element[]).find(
      (l) => (Array.from(l.getElementsByTagName('text:p')) as Element[]).map(textOf).join('|') === 'First  point|Second point',
    )!;
    const listStyle = (Array.from(dom.getElementsByTagName('text:list-style')) as Element[]).find(
      (l) => attr(l, 'style:name') === attr(list, 'text:style-name'),
    )!;
    expect(listStyle.getElementsByTagName('text:list-level-style-number').length).toBeGreaterThan(0);
    // the last paragraph is centred
    const last = (Array.from(page.getElementsByTagName('text:p')) as Element[]).find((p) => textOf(p) === 'Last')!;
    const pstyle = (Array.from(dom.getElementsByTagName('style:style')) as Element[]).find((s) => attr(s, 'style:name') === attr(last, 'text:style-name'))!;
    expect((pstyle.getElementsByTagName('style:paragraph-properties')[0] as Element).getAttribute('fo:text-align')).toBe('center');
  });

  it('a first slide without a layout is AUTOLAYOUT_TITLE to LibreOffice, others AUTOLAYOUT_NONE (as the extraction says)', async () => {
    // logo_in_presentation: slide 0 has the title layout AL1T0, slides 1.. have none; delete slide 0
    const bytes = await transformStructure(file('logo_in_presentation.odp'), 'odp', recipe([{ DeleteSlide: 0 }]));
    const dom = await flat(bytes);
    const ps = pages(dom);
    const placeholders = (page: Element) => {
      const name = attr(page, 'presentation:presentation-page-layout-name');
      const layout = (Array.from(dom.getElementsByTagName('style:presentation-page-layout')) as Element[]).find((l) => attr(l, 'style:name') === name);
      return layout ? (Array.from(layout.getElementsByTagName('presentation:placeholder')) as Element[]).map((p) => attr(p, 'presentation:object')) : [];
    };
    expect(placeholders(ps[0])).toEqual(['title', 'subtitle']);
    expect(placeholders(ps[1])).toEqual([]);
  });

  it('the PDF LibreOffice renders shows the new text on the new slide', async () => {
    const bytes = await transformStructure(
      file('logo_in_presentation.odp'),
      'odp',
      recipe([
        { JumpToSlide: 'last' },
        { InsertMasterSlide: 0 },
        { 'SetText.0': 'Inserted title' },
        { 'SetText.1': 'Inserted body' },
        { JumpToSlide: 0 },
        { 'SetText.0': 'Changed 123' },
      ]),
    );
    const pdf = await viaKit(bytes, 'pdf');
    const text = pdfText(pdf);
    const pagesText = text.split('\f').filter((p) => p.trim() !== '');
    expect(pagesText).toHaveLength(12);
    expect(pagesText[0]).toContain('Changed 123');
    expect(pagesText[11]).toContain('Inserted title');
    expect(pagesText[11]).toContain('Inserted body');
  });
});
