import { describe, expect, it } from 'vitest';
import { translateCallback } from '../../daemon/server/documents/callbacks.ts';
import { LOK_CALLBACK_DOCUMENT_SIZE_CHANGED, LOK_CALLBACK_SET_PART } from '../../daemon/protocol/lok-enums.ts';
import { LIMITS, nextCallback, stage, useKit } from './helpers.ts';

const PPTX = '/work/shared/corpus/presentations/layouts.pptx';

/**
 * A slide deleted with `.uno:DeletePage` (the slide panel's Delete). The daemon reads the parts again after a part
 * command (document-parts.ts), but that read can come before LibreOffice ran the command (the command is posted; on
 * a loaded machine it ran 2 s later, after the read: test/editor/slides.test.ts saw 11 slides for 30 s). What tells
 * the daemon that the delete ran is LibreOffice's DOCUMENT_SIZE_CHANGED, which LibreOffice 25.2 sends with an empty
 * payload here (seen twice, 26 Nov 2026): it must still make a `documentSize` (callbacks.ts), or the views keep the
 * old slide count.
 */
describe('kit editing: a slide deleted with .uno:DeletePage', () => {
  const k = useKit();

  it('LibreOffice sends DOCUMENT_SIZE_CHANGED once the slide is gone, and the daemon reads it as a documentSize', async () => {
    const opened = await k.kit.open({ input: stage(k.kit, PPTX), userName: 'Ada' }, LIMITS);
    const a = opened.viewId;
    const atSecond = nextCallback(
      k.kit,
      (viewId, type, payload) => viewId === a && type === LOK_CALLBACK_SET_PART && payload.trim() === '1',
      30_000,
      'SET_PART 1',
    );
    k.kit.sendEvent(a, { type: 'setPart', part: 1 });
    await atSecond;
    // The parts as they are when the callback arrives (read at once, in the listener).
    let partsThen: Promise<number> | undefined;
    const sized = nextCallback(
      k.kit,
      (viewId, type) => {
        if (viewId !== a || type !== LOK_CALLBACK_DOCUMENT_SIZE_CHANGED) return false;
        partsThen = k.kit.docInfo(a).then((d) => d.parts);
        return true;
      },
      60_000,
      'DOCUMENT_SIZE_CHANGED',
    );
    k.kit.sendEvent(a, { type: 'uno', command: '.uno:DeletePage' });
    const { payload } = await sized;
    expect(await partsThen).toBe(opened.parts - 1);
    expect(translateCallback(LOK_CALLBACK_DOCUMENT_SIZE_CHANGED, payload).message?.type).toBe('documentSize');
    const after = await k.kit.docInfo(a);
    expect(after.partNames).toEqual([opened.partNames[0], ...opened.partNames.slice(2)]);
  }, 120_000);
});
