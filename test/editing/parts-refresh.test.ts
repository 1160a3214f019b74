import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';

/** 5 slides: ppt/presentation.xml's p:sldIdLst has five p:sldId (read by hand). */
const PPTX = readFileSync(join(CORPUS, 'presentations/AllSlidesConverterSC.pptx'));

describe('parts stay true: slides added and deleted reach every view (docInfo)', () => {
  const env = useEditing({ readyKits: 1, maxKits: 2 });

  it('InsertPage and DeletePage send documentSize with the new parts and names to both views, and drop stale tiles', async () => {
    const src = env.host.addFile('p1', 'deck.pptx', PPTX, {});
    const a = await env.open(src);
    const b = await env.open(src);
    expect(a.status.parts).toBe(5);
    expect(a.status.partNames).toHaveLength(5);

    let from = [a.client.messages.length, b.client.messages.length];
    a.client.send({ type: 'uno', command: '.uno:InsertPage' });
    const grownA = await a.client.next('documentSize', (m) => m.parts === 6, 20_000, from[0]);
    const grownB = await b.client.next('documentSize', (m) => m.parts === 6, 20_000, from[1]);
    expect(grownA.partNames).toHaveLength(6);
    expect(grownB.partNames).toEqual(grownA.partNames);
    expect(grownA.width).toBeGreaterThan(0);
    await b.client.next('invalidate', (m) => m.part === -1 && m.all === true, 5000, from[1]);

    from = [a.client.messages.length, b.client.messages.length];
    b.client.send({ type: 'setPart', part: 2 });
    await b.client.next('part', (m) => m.part === 2, 10_000, from[1]);
    b.client.send({ type: 'uno', command: '.uno:DeletePage' });
    const shrunk = await a.client.next('documentSize', (m) => m.parts === 5, 20_000, from[0]);
    expect(shrunk.partNames).toHaveLength(5);
  }, 120_000);
});
