import { readFileSync } from 'node:fs';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LIMITS, sleep, stage, useKit } from './helpers.ts';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
/** Word 2013's file: a block-level rich-text w:sdt (a w:p in w:sdtContent) first in the body, then a paragraph. */
const DOCX = '/work/shared/corpus/content-controls/ContentControls.docx';

/** The body of a saved docx's word/document.xml. */
function body(docx: string): Element {
  const xml = strFromU8(unzipSync(readFileSync(docx), { filter: (f) => f.name === 'word/document.xml' })['word/document.xml']!);
  return new DOMParser().parseFromString(xml, 'text/xml').getElementsByTagNameNS(W, 'body')[0]!;
}

/** The text of the w:t elements under `el`. */
function text(el: Element): string {
  const ts = el.getElementsByTagNameNS(W, 't');
  let s = '';
  for (let i = 0; i < ts.length; i++) s += ts[i]!.textContent ?? '';
  return s;
}

/** The w:val of the w:alias of a w:sdt, or ''. */
const alias = (sdt: Element) => sdt.getElementsByTagNameNS(W, 'sdtPr')[0]?.getElementsByTagNameNS(W, 'alias')[0]?.getAttributeNS(W, 'val') ?? '';

/** Every element under `el` named w:<name>, in document order. */
function all(el: Element, name: string): Element[] {
  const list = el.getElementsByTagNameNS(W, name);
  const out: Element[] = [];
  for (let i = 0; i < list.length; i++) out.push(list[i]!);
  return out;
}

/** The element children of `el` named w:<name>. */
function children(el: Element, name: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1 && (n as Element).namespaceURI === W && (n as Element).localName === name) out.push(n as Element);
  return out;
}

/**
 * Block-level content controls while editing (issue 15), LibreOffice 25.2 in an editing kit. ContentControls.docx
 * starts with a block-level w:sdt (alias = tag RichTextContentControl, no type element) around one paragraph.
 * LibreOffice 25.2 loads it as a content control inside that paragraph (an sdt without a type element is plain
 * text to it) and writes it back, alias, tag and id kept, as a run-level w:sdt with w:text: the same as a plain
 * `soffice --convert-to docx` of the file, so LibreOffice's import and export, not the editing path
 * (docs/structure/content-controls.md). Text typed before the control, inside it and in the next paragraph is saved
 * with `.uno:Save` where it was typed; the saved docx is read with an XML parser.
 */
describe('block-level content controls in an editing kit', () => {
  const k = useKit();

  it('text typed inside the control stays in it, text typed around it stays outside; the control is saved with its alias, tag and id', async () => {
    const input = stage(k.kit, DOCX);
    const original = all(body(input), 'sdt').find((s) => alias(s) === 'RichTextContentControl')!;
    const { viewId: v } = await k.kit.open({ input, userName: 'Ada' }, LIMITS);
    // The document starts just before the control (LibreOffice's control begins with a dummy character).
    k.kit.sendEvent(v, { type: 'uno', command: '.uno:GoToStartOfDoc' });
    k.kit.sendEvent(v, { type: 'textInput', text: 'Before. ' });
    // One step right enters the control.
    k.kit.sendEvent(v, { type: 'uno', command: '.uno:GoRight' });
    k.kit.sendEvent(v, { type: 'textInput', text: 'Inside. ' });
    // The paragraph's end is after the control; one step right from there is the next paragraph's start.
    k.kit.sendEvent(v, { type: 'uno', command: '.uno:GoToEndOfPara' });
    k.kit.sendEvent(v, { type: 'uno', command: '.uno:GoRight' });
    k.kit.sendEvent(v, { type: 'textInput', text: 'After. ' });
    await sleep(500);
    expect(await k.kit.saveDoc(v, false)).toEqual({ saved: true });

    const saved = body(input);
    const sdts = all(saved, 'sdt');
    console.log(
      `[content controls] every w:sdt after LibreOffice's save (alias@parent): ${JSON.stringify(sdts.map((s) => `${alias(s)}@${(s.parentNode as Element).localName}`))}`,
    );
    const rich = sdts.find((s) => alias(s) === 'RichTextContentControl');
    expect(rich, 'the control is still a w:sdt').toBeDefined();
    const prop = (sdt: Element, name: string) => sdt.getElementsByTagNameNS(W, 'sdtPr')[0]?.getElementsByTagNameNS(W, name)[0]?.getAttributeNS(W, 'val');
    expect([prop(rich!, 'tag'), prop(rich!, 'id')]).toEqual([prop(original, 'tag'), prop(original, 'id')]);
    const inside = text(rich!.getElementsByTagNameNS(W, 'sdtContent')[0]!);
    expect(inside).toMatch(/^Inside\. Video provides a powerful way/);
    expect(inside).not.toMatch(/Before\.|After\./);
    // Its paragraph: "Before. " outside the control, then the control.
    const first = children(saved, 'p')[0]!;
    expect(text(first)).toMatch(/^Before\. Inside\. Video provides/);
    expect(first.getElementsByTagNameNS(W, 'sdt')[0]).toBe(rich);
    // The next paragraph starts with the text typed after the control, outside every control.
    const second = children(saved, 'p')[1]!;
    expect(text(second)).toMatch(/^After\. To make your document look professionally produced/);
    expect(second.getElementsByTagNameNS(W, 'sdt')[0] && text(second.getElementsByTagNameNS(W, 'sdt')[0]!)).not.toContain('After.');
    // The block-level checkbox stays a block-level w:sdt.
    expect(sdts.find((s) => alias(s) === 'CheckBoxContentControl')?.parentNode).toBe(saved);
  }, 120_000);
});
