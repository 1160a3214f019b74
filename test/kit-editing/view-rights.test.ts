import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LIMITS, nextCallback, sleep, stage, useKit } from './helpers.ts';

const DECK = '/work/shared/corpus/presentations/layouts.pptx';
const GRAPHIC_SELECTION = 6;

/** The draw:frames of the first slide of an exported odp: svg:x, svg:y, svg:width, svg:height in cm. */
function frames(odp: string): Array<{ x: number; y: number; width: number; height: number }> {
  const xml = strFromU8(unzipSync(readFileSync(odp), { filter: (f) => f.name === 'content.xml' })['content.xml']!);
  const page = xml.slice(xml.indexOf('<draw:page '), xml.indexOf('</draw:page>'));
  const cm = (tag: string, name: string) => parseFloat(new RegExp(`svg:${name}="([0-9.]+)cm"`).exec(tag)?.[1] ?? 'NaN');
  return [...page.matchAll(/<draw:frame [^>]*>/g)].map((m) => ({ x: cm(m[0], 'x'), y: cm(m[0], 'y'), width: cm(m[0], 'width'), height: cm(m[0], 'height') }));
}

/** Twips per cm. */
const TWIPS_PER_CM = 1440 / 2.54;

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
      // The middle of the first frame's top edge band (a text frame is picked up at its border or its text).
      const x = Math.round((title.x + title.width / 2) * TWIPS_PER_CM);
      const y = Math.round((title.y + title.height / 2) * TWIPS_PER_CM);
      const selected = nextCallback(k.kit, (v, type, payload) => v === view && type === GRAPHIC_SELECTION && payload !== 'EMPTY', 5000, 'a graphic selection').catch(() => undefined);
      k.kit.sendEvent(view, { type: 'mouse', event: 'buttondown', x, y, count: 1, buttons: 1, modifier: 0 });
      k.kit.sendEvent(view, { type: 'mouse', event: 'buttonup', x, y, count: 1, buttons: 1, modifier: 0 });
      const sel = await selected;
      await sleep(300);
      // Grabbed by its top border (inside, a selected text frame takes the click as text editing).
      const top = Math.round(title.y * TWIPS_PER_CM);
      k.kit.sendEvent(view, { type: 'mouse', event: 'buttondown', x, y: top, count: 1, buttons: 1, modifier: 0 });
      for (let i = 1; i <= 6; i++) k.kit.sendEvent(view, { type: 'mouse', event: 'move', x: x + i * 500, y: top + i * 500, count: 1, buttons: 1, modifier: 0 });
      k.kit.sendEvent(view, { type: 'mouse', event: 'buttonup', x: x + 3000, y: top + 3000, count: 1, buttons: 1, modifier: 0 });
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
