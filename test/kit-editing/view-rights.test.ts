import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameDrag, slideFrames } from '../helpers/slide-frames.ts';
import { LIMITS, nextCallback, sleep, stage, useKit } from './helpers.ts';

/** The draw:frames of the first slide of an exported odp file (cm). */
const frames = (odp: string) => slideFrames(readFileSync(odp));

const DECK = '/work/shared/corpus/presentations/layouts.pptx';
const GRAPHIC_SELECTION = 6;

/**
 * LibreOffice 25.2's per-view rights (view-rights.ts) in a shared document: a read-only view beside a writer
 * cannot change the document even with input the kit lets through (mouse drags), while the writer still can.
 */
describe('view rights given to LibreOffice', () => {
  const k = useKit();

  it('a read-only view cannot drag a shape (setViewReadOnly); a writer view beside it can', async () => {
    const opened = await k.kit.open({ input: stage(k.kit, DECK), userName: 'Alice' }, LIMITS);
    const writer = opened.viewId;
    const { viewId: reader } = await k.kit.createView({ userName: 'Carol', userId: 'carol', readOnly: true });
    const before = join(k.tmp, 'before.odp');
    await k.kit.exportDoc(before, 'odp');
    const original = frames(before);
    expect(original.length).toBeGreaterThan(0);
    const title = original[0]!;

    /** Clicks the title in `view`, drags it by 3000 twips right and down, and tells whether it got selected. */
    const drag = async (view: number) => {
      const { select, drag: moves } = frameDrag(title);
      const selected = nextCallback(
        k.kit,
        (v, type, payload) => v === view && type === GRAPHIC_SELECTION && payload !== 'EMPTY',
        5000,
        'a graphic selection',
      ).catch(() => undefined);
      for (const e of select) k.kit.sendEvent(view, e);
      const sel = await selected;
      await sleep(300);
      for (const e of moves) k.kit.sendEvent(view, e);
      await sleep(800);
      return sel !== undefined;
    };

    expect(await drag(reader)).toBe(true); // it selects the title, as a viewer may
    const afterReader = join(k.tmp, 'after-reader.odp');
    await k.kit.exportDoc(afterReader, 'odp');
    expect(frames(afterReader)).toEqual(original);

    // The same drag from the writer's view moves the title: the drag itself is a change.
    expect(await drag(writer)).toBe(true);
    const afterWriter = join(k.tmp, 'after-writer.odp');
    await k.kit.exportDoc(afterWriter, 'odp');
    expect(frames(afterWriter)[0]).not.toEqual(title);

    // The writer leaves; the daemon's exit save then runs in the view that is left, a read-only one.
    const moved = frames(afterWriter);
    await k.kit.destroyView(writer);
    expect(await k.kit.saveDoc(reader, false)).toEqual({ saved: true });
    const saved = join(k.tmp, 'saved.odp');
    await k.kit.exportDoc(saved, 'odp');
    expect(frames(saved)).toEqual(moved);
  }, 90_000);
});
