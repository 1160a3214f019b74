import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractStructure } from '../index.ts';

const corpus = (f: string) => new Uint8Array(readFileSync(new URL(`../../../../shared/corpus/presentations/${f}`, import.meta.url)));
const fixture = (f: string) => JSON.parse(readFileSync(new URL(`../../../test/structure/fixtures/slides/${f}`, import.meta.url), 'utf8'));

// The expected JSON was not produced by this engine: test/structure/fixtures/slides/gen-pptx-fixtures.py builds it
// from LibreOffice 7.4's own conversion of each pptx to ODP (master page names, slide names, page layouts
// AL<n>T<id>, object order, paragraph texts), and from the pptx XML only for tables and shapes without text.
// Spot checks written by hand from the XML follow the golden comparisons.
describe('slides extraction of the corpus pptx files (golden, LibreOffice 7.4 view)', () => {
  for (const name of ['AllSlidesConverterSC', 'layouts', 'themes', 'aascu.org_hbcu_leadershipsummit_cooper_']) {
    it(`${name}.pptx`, () => {
      expect(extractStructure(corpus(`${name}.pptx`), 'pptx', { filter: 'slides' })).toEqual(fixture(`${name}.pptx.json`));
    });
  }
});

describe('slides extraction rules (by hand from the XML)', () => {
  const layouts = () =>
    extractStructure(corpus('layouts.pptx'), 'pptx', { filter: 'slides' }) as {
      Slides: Record<string, { SlideName: string; LayoutId: number; LayoutName: string; ObjectCount: number; Objects: Record<string, unknown> }>;
    };

  it('names unnamed slides after their title, repeats with " (n)" (slides 2, 4, 5 are all titled "Title")', () => {
    const s = layouts().Slides;
    expect([s['Slide 1'].SlideName, s['Slide 3'].SlideName, s['Slide 4'].SlideName]).toEqual(['Title', 'Title (2)', 'Title (3)']);
  });

  it('maps p:sldLayout/@type to the AutoLayout: title 0, obj 11, secHead 20, twoObj 3, titleOnly 19', () => {
    const s = layouts().Slides;
    expect([0, 1, 2, 3, 5].map((i) => [s[`Slide ${i}`].LayoutId, s[`Slide ${i}`].LayoutName])).toEqual([
      [0, 'AUTOLAYOUT_TITLE'],
      [11, 'AUTOLAYOUT_OBJ'],
      [20, 'AUTOLAYOUT_NONE'],
      [3, 'AUTOLAYOUT_TITLE_2CONTENT'],
      [19, 'AUTOLAYOUT_TITLE_ONLY'],
    ]);
  });

  it('drops the footer and slide-number placeholders LibreOffice turns into page settings, keeps the fixed-text date (slide 10)', () => {
    const s = layouts().Slides['Slide 9'];
    expect(s.ObjectCount).toBe(3);
    expect(s.Objects['Objects 2']).toEqual({ TextCount: 1, Texts: { 'Text 0': { ParaCount: 1, Paragraphs: ['Friday, October 21, 2011'] } } });
  });

  it('a picture has no text: {} (slide 9, Picture Placeholder 4)', () => {
    expect(layouts().Slides['Slide 8'].Objects['Objects 1']).toEqual({});
  });

  it('reports a slide-number field and a line break as U+0001, like the edit engine (aascu slide 2, slide 1 title)', () => {
    const s = (
      extractStructure(corpus('aascu.org_hbcu_leadershipsummit_cooper_.pptx'), 'pptx', { filter: 'slides' }) as {
        Slides: Record<string, { Objects: Record<string, { Texts: Record<string, { Paragraphs: string[] }> }> }>;
      }
    ).Slides;
    expect(s['Slide 1'].Objects['Objects 3'].Texts['Text 0'].Paragraphs).toEqual(['\u0001']);
    expect(s['Slide 0'].Objects['Objects 0'].Texts['Text 0'].Paragraphs).toEqual(['\u0001Positioning HBCUs in the\u0001Current Environment']);
  });

  it('a text document gives no slides', () => {
    const docx = new Uint8Array(readFileSync(new URL('../../../../shared/corpus/properties/testWORD_custom_props.docx', import.meta.url)));
    expect(extractStructure(docx, 'docx', { filter: 'slides' })).toEqual({});
  });
});
