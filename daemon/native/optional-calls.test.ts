/**
 * The LibreOfficeKit calls newer than 7.4 (optional calls, found by the size of LibreOffice's class), against the
 * installed LibreOffice (25.2): each case runs test-fixtures/optional-calls.ts in its own process.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { fixtureDirs, runFixture } from './test-fixtures/run-fixture.ts';

const dirs = fixtureDirs('ode-native-optional');
afterAll(() => dirs.cleanup());

describe('optional LibreOfficeKit calls (real LibreOffice 25.2)', () => {
  it('office: extractRequest, extractDocumentStructureRequest, trimMemory and setOption work; the office carries on', async () => {
    const run = await runFixture<Record<string, unknown>>('optional-calls', { workDir: dirs.workDir(), profileDir: dirs.profileDir, args: ['office'] });
    expect(run.code, run.stderr).toBe(0);
    const r = run.result!;
    expect(r.officeCalls).toEqual(['setOption', 'extractRequest', 'trimMemory', 'extractDocumentStructureRequest']);
    // The link targets of a .doc with one table, one frame and two sections (LibreOffice's own names).
    const targets = JSON.parse(r.targets as string) as { Targets: Record<string, Record<string, string>> };
    expect(targets.Targets.Tables).toEqual({ Table1: 'Table1|table' });
    expect(targets.Targets.Sections).toEqual({ Section1: 'Section1|region', Section2: 'Section2|region' });
    expect(targets.Targets.Frames).toEqual({ Frame1: 'Frame1|frame' });
    // ContentControls.docx: LibreOffice reads the rich-text and plain-text controls with their tag and alias.
    const controls = JSON.parse(r.controls as string) as { DocStructure: Record<string, { tag: string; alias: string; content: string }> };
    const tags = Object.values(controls.DocStructure).map((c) => c.tag);
    expect(tags).toContain('RichTextContentControl');
    expect(tags).toContain('Plain text content control');
    // 61745.docx has two bar charts; LibreOffice's chart JSON is not valid JSON ("DataValues": [ "Row.0": ...]),
    // so the names are read as text.
    expect((r.charts as string).match(/"Charts\.ByEmbedIndex\.\d+"/g)).toHaveLength(2);
    expect(r.charts as string).toContain('"ColumnDescriptions": [ "Series 1", "Series 2", "Series 3"]');
    expect(JSON.parse(r.all as string)).toHaveProperty('DocStructure');
    expect(r.notUrl).toBe('invalid_argument');
    expect(r.trim).toBeUndefined();
    expect(r.trimBad).toBe('invalid_argument');
    expect(r.setOption).toBeUndefined();
    // An encrypted or missing file gives no error, just no targets.
    expect(r.encrypted).toBeUndefined();
    expect(r.missing).toBeUndefined();
    expect(r.textAfter as string).toContain('Video provides a powerful way');
    console.log(`[native] extractRequest ${(r.extractMs as number).toFixed(0)} ms, extractDocumentStructureRequest ${(r.structureMs as number).toFixed(0)} ms`);
  });

  it('views: a read-only view cannot type or comment, a comments-only view can comment, lifting read-only lets it type', async () => {
    const run = await runFixture<Record<string, unknown>>('optional-calls', { workDir: dirs.workDir(), profileDir: dirs.profileDir, args: ['views'] });
    expect(run.code, run.stderr).toBe(0);
    const r = run.result!;
    expect(r.documentCalls).toEqual([
      'sendContentControlEvent',
      'getEditMode',
      'setViewTimezone',
      'setViewReadOnly',
      'setAllowChangeComments',
      'getPresentationInfo',
      'createSlideRenderer',
      'postSlideshowCleanup',
      'renderNextSlideLayer',
      'setViewOption',
    ]);
    // Only the writer's keys reached the document ...
    expect(r.textAfterTyping).toBe('W1');
    // ... until the reader's read-only mode was lifted.
    expect(r.textAfterLift).toMatch(/R4/);
    expect(r.textAfterLift).toMatch(/W1/);
    // Comments: the commenter's and the writer's, not the reader's.
    const annotations = JSON.parse(r.annotations as string) as { comments: Array<{ html: string }> };
    const texts = annotations.comments.map((c) => c.html);
    expect(texts.some((t) => t.includes('from the commenter'))).toBe(true);
    expect(texts.some((t) => t.includes('from the writer'))).toBe(true);
    expect(texts.some((t) => t.includes('from the reader'))).toBe(false);
    expect(r.commentsInDocument).toBe(2);
    expect(r.timezone).toBeUndefined();
    expect(r.timezoneBad).toBe('invalid_argument');
    expect(r.viewOption).toBeUndefined();
    expect(r.contentControl).toBeUndefined();
    expect(r.contentControlBad).toBe('invalid_argument');
    expect(r.editMode).toBe(0);
  });

  it('slides: paintPartTile paints master pages in edit mode 1, and the slide renderer draws a slide layer by layer', async () => {
    const run = await runFixture<Record<string, unknown>>('optional-calls', { workDir: dirs.workDir(), profileDir: dirs.profileDir, args: ['slides'] });
    expect(run.code, run.stderr).toBe(0);
    const r = run.result!;
    expect(r.normalEqualsDefault).toBe(true);
    expect(r.masterDiffers).toBe(true);
    expect(r.tileBytes).toBe(128 * 72 * 4);
    expect(r.editMode).toBe(0);
    expect(r.infoKeys).toEqual(expect.arrayContaining(['docWidth', 'docHeight', 'slides']));
    expect(r.slideCount).toBe(10);
    // A 4:3 slide in a 640 x 640 box: LibreOffice keeps the aspect.
    expect(r.rendererSize).toEqual({ width: 640, height: 480 });
    const layers = r.layers as Array<{ done: boolean; isBitmapLayer: boolean; message: string | null; pixelBytes: number; painted: number }>;
    expect(layers.at(-1)!.done).toBe(true);
    const bitmaps = layers.filter((l) => l.isBitmapLayer);
    expect(bitmaps.length).toBeGreaterThanOrEqual(2);
    for (const b of bitmaps) expect(b.pixelBytes).toBe(640 * 480 * 4);
    // The background layer covers the slide; the draw page layer paints the slide's text.
    expect(JSON.parse(bitmaps[0].message!)).toMatchObject({ group: 'Background', type: 'bitmap' });
    expect(bitmaps[0].painted).toBe(640 * 480);
    expect(bitmaps.some((b) => JSON.parse(b.message!).group === 'DrawPage' && b.painted > 100)).toBe(true);
    expect(r.afterCleanup).toBe('call_failed');
    expect(r.badSlide).toBe('call_failed');
  });
});
