import { describe, expect, it } from 'vitest';
import { LOK_CALLBACK_DOCUMENT_SIZE_CHANGED, LOK_CALLBACK_SET_PART } from '../../daemon/protocol/lok-enums.ts';
import { LIMITS, nextCallback, sleep, stage, useKit } from './helpers.ts';

const PPTX = '/work/shared/corpus/presentations/layouts.pptx';

/**
 * Moving a slide (issue 15, one of the 7.4 statements retried on 25.2): LibreOffice 7.4 moved slides without
 * LOK_CALLBACK_SET_PART, so daemon/server/documents/document-parts.ts reads each view's part again after a part
 * command and tells it. LibreOffice 25.2 does the same: `.uno:MovePageUp` changes the part of the view that moved
 * the slide and of another view whose slide moved, and sends both only DOCUMENT_SIZE_CHANGED, no SET_PART. The
 * part names (slide names) come back in the new order.
 */
describe('kit editing: a slide moved with .uno:MovePageUp', () => {
  const k = useKit();

  it("LibreOffice 25.2 moves both views' parts and sends DOCUMENT_SIZE_CHANGED but no SET_PART", async () => {
    const opened = await k.kit.open({ input: stage(k.kit, PPTX), userName: 'Ada' }, LIMITS);
    const a = opened.viewId;
    const { viewId: b } = await k.kit.createView({ userName: 'Bob', userId: 'bob' });
    expect(opened.parts).toBeGreaterThan(3);
    const onPart = (view: number, part: number) =>
      nextCallback(
        k.kit,
        (viewId, type, payload) => viewId === view && type === LOK_CALLBACK_SET_PART && payload.trim() === String(part),
        10_000,
        `SET_PART ${part}`,
      );
    const bAtSecond = onPart(b, 1);
    k.kit.sendEvent(b, { type: 'setPart', part: 1 });
    await bAtSecond;
    const aAtThird = onPart(a, 2);
    k.kit.sendEvent(a, { type: 'setPart', part: 2 });
    await aAtThird;
    const before = await k.kit.docInfo(a);

    const setParts: string[] = [];
    const listener = (viewId: number, type: number, payload: string) => {
      if (type === LOK_CALLBACK_SET_PART) setParts.push(`view ${viewId}: ${payload}`);
    };
    k.kit.on('callback', listener);
    const sized = nextCallback(k.kit, (viewId, type) => viewId === a && type === LOK_CALLBACK_DOCUMENT_SIZE_CHANGED, 10_000, 'DOCUMENT_SIZE_CHANGED');
    k.kit.sendEvent(a, { type: 'uno', command: '.uno:MovePageUp' });
    await sized;
    await sleep(1500);
    k.kit.off('callback', listener);

    const afterA = await k.kit.docInfo(a);
    const afterB = await k.kit.docInfo(b);
    expect(afterA.part).toBe(1);
    expect(afterB.part).toBe(2); // Bob's slide went down one place
    expect(setParts).toEqual([]);
    expect(afterA.parts).toBe(before.parts);
    expect(afterA.partNames[1]).toBe(before.partNames[2]);
    expect(afterA.partNames[2]).toBe(before.partNames[1]);
  }, 120_000);
});
