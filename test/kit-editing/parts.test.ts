import { PNG } from 'pngjs';
import { LOK_CALLBACK_INVALIDATE_TILES, LOK_CALLBACK_SET_PART } from '../../daemon/protocol/lok-enums.ts';
import { describe, expect, it } from 'vitest';
import { LIMITS, nextCallback, stage, useKit } from './helpers.ts';

const PPTX = '/work/shared/corpus/presentations/layouts.pptx';

/** A presentation open for editing: parts (slides) and their names, switching a view's part, painting other parts. */
describe('kit editing: a presentation', () => {
  const k = useKit();

  it('open reports the slides; setPart moves a view; tiles of two slides differ; notes mode paints', async () => {
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
    const notes = PNG.sync.read(Buffer.from(await tile(1, 1)));
    expect(notes.width).toBe(256);
    expect(Buffer.compare(notes.data, b.data)).not.toBe(0); // the notes page: a smaller slide above the notes
    const slideAgain = PNG.sync.read(Buffer.from(await tile(1, 0)));
    expect(Buffer.compare(slideAgain.data, b.data)).toBe(0);
    // A second view gets the invalidations of edits as well.
    const { viewId: v2 } = await k.kit.createView({ userName: 'Bob', userId: 'bob' });
    const invalidated = nextCallback(k.kit, (viewId, type) => viewId === v2 && type === LOK_CALLBACK_INVALIDATE_TILES, 5000, 'invalidation in view 2');
    k.kit.sendEvent(v, { type: 'uno', command: '.uno:DuplicatePage' });
    await invalidated;
  });
});
