import { PNG } from 'pngjs';
import { LOK_CALLBACK_INVALIDATE_TILES, LOK_CALLBACK_SET_PART, LOK_CALLBACK_STATE_CHANGED } from '../../daemon/protocol/lok-enums.ts';
import { describe, expect, it } from 'vitest';
import { LIMITS, nextCallback, stage, useKit } from './helpers.ts';

const PPTX = '/work/shared/corpus/presentations/layouts.pptx';

/** The share of pixels (RGBA, 4 bytes each) that differ between two pictures of the same size. */
function differing(a: Buffer, b: Buffer): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (a.readUInt32BE(i) !== b.readUInt32BE(i)) n++;
  return n / (a.length / 4);
}

/** A presentation open for editing: parts (slides) and their names, switching a view's part, painting other parts. */
describe('kit editing: a presentation', () => {
  const k = useKit();

  it('open reports the slides; setPart moves a view; tiles of two slides differ; the notes view paints its notes page (mode 2)', async () => {
    const opened = await k.kit.open({ input: stage(k.kit, PPTX), userName: 'Alice' }, LIMITS);
    expect(opened.docType).toBe(2); // LOK_DOCTYPE_PRESENTATION
    expect(opened.parts).toBeGreaterThan(1);
    expect(opened.partNames).toHaveLength(opened.parts);
    const v = opened.viewId;
    const setPart = nextCallback(
      k.kit,
      (viewId, type, payload) => viewId === v && type === LOK_CALLBACK_SET_PART && payload.trim() === '1',
      5000,
      'SET_PART 1',
    );
    k.kit.sendEvent(v, { type: 'setPart', part: 1 });
    await setPart;
    // One tile showing a whole slide.
    const tile = (part: number, mode = 0) =>
      k.kit.paintTile({ viewId: v, part, mode, width: 256, height: 256, x: 0, y: 0, tileTwipWidth: opened.width, tileTwipHeight: opened.width });
    const [a, b] = [PNG.sync.read(Buffer.from(await tile(0))), PNG.sync.read(Buffer.from(await tile(1)))];
    expect([a.width, a.height]).toEqual([256, 256]);
    expect(Buffer.compare(a.data, b.data)).not.toBe(0);
    // View > Notes: the view shows the notes page (portrait), edit mode 2 (kit.md `tile`, `docInfo`).
    const state = (value: string) =>
      nextCallback(
        k.kit,
        (viewId, type, payload) => viewId === v && type === LOK_CALLBACK_STATE_CHANGED && payload === `.uno:NotesMode=${value}`,
        30_000,
        `NotesMode=${value}`,
      );
    let changed = state('true');
    k.kit.sendEvent(v, { type: 'uno', command: '.uno:NotesMode' });
    await changed;
    const inNotes = await k.kit.docInfo(v);
    expect(inNotes).toMatchObject({ part: 1, mode: 2 });
    expect(inNotes.height).toBeGreaterThan(inNotes.width); // the notes page is portrait, the slide landscape
    expect(opened.width).toBeGreaterThan(opened.height);
    const notes = PNG.sync.read(Buffer.from(await tile(1, 2)));
    expect(notes.width).toBe(256);
    expect(differing(notes.data, b.data)).toBeGreaterThan(0.05); // the notes page: a smaller slide above the notes
    // A slide tile for the view in notes is refused (painting it would end a text edit in the notes).
    await expect(tile(1, 0)).rejects.toThrow(/notes/);
    changed = state('false');
    k.kit.sendEvent(v, { type: 'uno', command: '.uno:NormalMultiPaneGUI' });
    await changed;
    expect(await k.kit.docInfo(v)).toMatchObject({ part: 1, mode: 0, width: opened.width });
    await expect(tile(1, 2)).rejects.toThrow(/notes/);
    const slideAgain = PNG.sync.read(Buffer.from(await tile(1, 0)));
    // The slide again (LibreOffice may paint a few pixels otherwise after the round trip through the notes view).
    expect(differing(slideAgain.data, b.data)).toBeLessThan(0.02);
    expect(differing(slideAgain.data, notes.data)).toBeGreaterThan(0.05);
    // A second view gets the invalidations of edits as well.
    const { viewId: v2 } = await k.kit.createView({ userName: 'Bob', userId: 'bob' });
    const invalidated = nextCallback(k.kit, (viewId, type) => viewId === v2 && type === LOK_CALLBACK_INVALIDATE_TILES, 5000, 'invalidation in view 2');
    k.kit.sendEvent(v, { type: 'uno', command: '.uno:DuplicatePage' });
    await invalidated;
  });
});
