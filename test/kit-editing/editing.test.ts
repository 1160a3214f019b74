import { readFileSync, rmSync } from 'node:fs';
import {
  LOK_CALLBACK_INVALIDATE_TILES,
  LOK_CALLBACK_INVALIDATE_VIEW_CURSOR,
  LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR,
  LOK_CALLBACK_TEXT_SELECTION,
} from '../../daemon/protocol/lok-enums.ts';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import type { OpenResult } from '../../daemon/protocol/kit.ts';
import { DOCX, endKit, keyEvents, LIMITS, nextCallback, quantile, sleep, stage, startKit } from './helpers.ts';
import { documentXml } from '../helpers/docx.ts';

/**
 * A kit leased for editing (kit.md, "Editing"), driven through KitProcess as the daemon drives it: one docx open,
 * views, key events, callbacks, tiles, save in place, export. One kit for the whole file; the steps build on each
 * other in order.
 */
describe('kit editing: one document, several views', () => {
  let kit: KitProcess;
  let tmp: string;
  let input: string;
  let opened: OpenResult;
  let v1: number;
  beforeAll(async () => {
    ({ kit, tmp } = await startKit());
    input = stage(kit, DOCX);
  });
  afterAll(async () => endKit(kit, tmp));

  it('open loads the docx and reports type, parts, size and the first view', async () => {
    opened = await kit.open({ input, userName: 'Alice' }, LIMITS);
    v1 = opened.viewId;
    expect(opened.docType).toBe(0); // LOK_DOCTYPE_TEXT
    expect(opened.parts).toBeGreaterThanOrEqual(1);
    expect(opened.partNames).toHaveLength(opened.parts);
    expect(opened.width).toBeGreaterThan(10_000); // an A4/Letter page is about 12000 twips wide
    expect(opened.height).toBeGreaterThan(10_000);
    // An open kit takes no conversions.
    await expect(kit.convert({ input, output: join(tmp, 'x.pdf'), format: 'pdf' }, LIMITS)).rejects.toThrow(/not ready/);
  });

  it('typing with key events: INVALIDATE_TILES reaches the daemon quickly (p50/p95 over 50 keys)', async () => {
    const text = 'Hello Ode' + ' and the quick brown fox jumps over the lazy';
    expect(text.length).toBeGreaterThanOrEqual(50);
    await kit.commandValues(v1, '.uno:CharFontName'); // settle after load
    const latencies: number[] = [];
    for (const ch of text) {
      const invalidated = nextCallback(kit, (_v, type) => type === LOK_CALLBACK_INVALIDATE_TILES);
      const t0 = performance.now();
      for (const e of keyEvents(ch)) kit.sendEvent(v1, e);
      latencies.push((await invalidated).at - t0);
      // Let the key's other callbacks drain, so the next key's first invalidation is its own.
      await sleep(40);
    }
    latencies.sort((a, b) => a - b);
    const p50 = quantile(latencies, 0.5);
    const p95 = quantile(latencies, 0.95);
    console.log(
      `key -> INVALIDATE_TILES at the daemon over ${latencies.length} keys: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    expect(p95).toBeLessThan(100);
  });

  it('saveDoc writes the typed text into the docx in place; a second save of the unmodified document is skipped', async () => {
    const first = await kit.saveDoc(v1, false);
    expect(first).toEqual({ saved: true });
    expect(documentXml(readFileSync(input))).toContain('Hello Ode');
    const second = await kit.saveDoc(v1, true);
    expect(second).toEqual({ saved: false });
  });

  it("two views: view 2 sees view 1's cursor (INVALIDATE_VIEW_CURSOR with view 1's id); destroyView works", async () => {
    const { viewId: v2 } = await kit.createView({ userName: 'Bob', userId: 'bob' });
    expect(v2).not.toBe(v1);
    const seen = nextCallback(
      kit,
      (viewId, type, payload) => viewId === v2 && type === LOK_CALLBACK_INVALIDATE_VIEW_CURSOR && Number(JSON.parse(payload).viewId) === v1,
    );
    // LibreOffice 7.4 writes the view id as a string: {"viewId": "6", "part": "0", "rectangle": "x, y, w, h"}.
    for (const e of keyEvents('!')) kit.sendEvent(v1, e);
    const cb = await seen;
    const j = JSON.parse(cb.payload) as { viewId: string; rectangle: string };
    expect(j.rectangle.split(',').map(Number)).toHaveLength(4);
    await kit.destroyView(v2);
    await expect(kit.commandValues(v2, '.uno:CharFontName')).rejects.toMatchObject({ code: 'bad_request' });
    await expect(kit.destroyView(v2)).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('paintTile returns a PNG of the requested size, with dark pixels on the text line', async () => {
    // Where the caret is: on the line just typed.
    const cursor = nextCallback(kit, (v, type) => v === v1 && type === LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR);
    kit.sendEvent(v1, { type: 'uno', command: '.uno:GoToStartOfDoc' });
    const { payload } = await cursor;
    const rect = (JSON.parse(payload) as { rectangle: string }).rectangle.split(',').map(Number);
    const size = 256;
    const twips = 3840; // 256 px at 100 % (15 twips per px)
    const y = Math.max(0, rect[1] - 200);
    const png = await kit.paintTile({ viewId: v1, part: 0, mode: 0, width: size, height: size, x: 0, y, tileTwipWidth: twips * 2, tileTwipHeight: twips });
    const img = PNG.sync.read(Buffer.from(png));
    expect([img.width, img.height]).toEqual([size, size]);
    let dark = 0;
    for (let i = 0; i < img.data.length; i += 4) if (img.data[i + 3] === 255 && img.data[i] + img.data[i + 1] + img.data[i + 2] < 300) dark++;
    expect(dark).toBeGreaterThan(50);
    // Timing: tiles of one page, 256 px each, painted and PNG-encoded in the kit, round trip measured here.
    const times: number[] = [];
    for (let i = 0; i < 24; i++) {
      const t0 = performance.now();
      await kit.paintTile({
        viewId: v1,
        part: 0,
        mode: 0,
        width: 256,
        height: 256,
        x: (i % 4) * twips,
        y: Math.floor(i / 4) * twips,
        tileTwipWidth: twips,
        tileTwipHeight: twips,
      });
      times.push(performance.now() - t0);
    }
    const four = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        kit.paintTile({ viewId: v1, part: 0, mode: 0, width: 256, height: 256, x: i * twips, y: 0, tileTwipWidth: twips, tileTwipHeight: twips }),
      ),
    );
    expect(four).toHaveLength(4);
    times.sort((a, b) => a - b);
    console.log(
      `256x256 tile round trip (paint + PNG + IPC): p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms; PNG ${png.length} bytes for the text tile`,
    );
  });

  it('commandValues answers JSON; exportDoc writes a PDF and leaves the document where it is', async () => {
    const fonts = await kit.commandValues(v1, '.uno:CharFontName');
    expect(fonts).not.toBeNull();
    expect(Object.keys((JSON.parse(fonts!) as { commandValues: object }).commandValues).length).toBeGreaterThan(0);
    expect(await kit.commandValues(v1, '.uno:ExtractDocumentStructure')).toBeNull();
    const pdf = join(tmp, 'export.pdf');
    await kit.exportDoc(pdf, 'pdf');
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    rmSync(pdf);
    // Still saving to the docx it was opened from.
    for (const e of keyEvents('?')) kit.sendEvent(v1, e);
    await nextCallback(kit, (_v, type) => type === LOK_CALLBACK_INVALIDATE_TILES);
    expect(await kit.saveDoc(v1, true)).toEqual({ saved: true });
    expect(documentXml(readFileSync(input))).toContain('Hello Ode');
  });

  it('textInput types text in one go (non-ASCII, a character outside the BMP, a new paragraph); an IME composition shows pre-edit text and keeps only the commit', async () => {
    kit.sendEvent(v1, { type: 'uno', command: '.uno:GoToEndOfDoc' });
    kit.sendEvent(v1, { type: 'textInput', text: '\nGrüße 😀 ok' });
    // An IME composing: pre-edit texts replace each other; only the committed text stays.
    kit.sendEvent(v1, { type: 'composition', text: 'かん', stage: 'update' });
    kit.sendEvent(v1, { type: 'composition', text: 'かんじ', stage: 'update' });
    kit.sendEvent(v1, { type: 'composition', text: '漢字', stage: 'end' });
    kit.sendEvent(v1, { type: 'textInput', text: ' plain' });
    await sleep(300);
    const txt = join(tmp, 'typed.txt');
    await kit.exportDoc(txt, 'txt');
    const lines = readFileSync(txt, 'utf8').split(/\r?\n/);
    rmSync(txt);
    expect(lines, JSON.stringify(lines)).toContain('Grüße 😀 ok漢字 plain');
    expect(lines.join('\n')).not.toMatch(/かん/);
  });

  it('a read-only view cannot change the document: its typing and editing commands are dropped', async () => {
    expect(await kit.saveDoc(v1, true)).toEqual({ saved: true }); // the typing before: the document starts unmodified
    const { viewId: ro } = await kit.createView({ userName: 'Carol', userId: 'carol', readOnly: true });
    for (const ch of 'XYZ') for (const e of keyEvents(ch)) kit.sendEvent(ro, e);
    kit.sendEvent(ro, { type: 'textInput', text: 'QWERTY' });
    kit.sendEvent(ro, { type: 'key', event: 'input', charCode: 0, keyCode: 1283 }); // Backspace
    const selected = nextCallback(
      kit,
      (v, type, payload) => v === ro && type === LOK_CALLBACK_TEXT_SELECTION && payload !== '',
      5000,
      'selection in the read-only view',
    );
    kit.sendEvent(ro, { type: 'uno', command: '.uno:SelectAll' });
    await selected;
    kit.sendEvent(ro, { type: 'uno', command: '.uno:Delete' });
    kit.sendEvent(ro, { type: 'key', event: 'input', charCode: 0, keyCode: 1286 }); // Delete key on the selection
    kit.sendEvent(ro, { type: 'uno', command: '.uno:Bold' });
    // Navigation still works in it: selecting all left its cursor at the end, going to the start moves it.
    const moved = nextCallback(kit, (v, type) => v === ro && type === LOK_CALLBACK_INVALIDATE_VISIBLE_CURSOR, 5000, 'cursor move in the read-only view');
    kit.sendEvent(ro, { type: 'uno', command: '.uno:GoToStartOfDoc' });
    await moved;
    await sleep(300);
    expect(await kit.saveDoc(ro, true)).toEqual({ saved: false });
    const txt = join(tmp, 'ro.txt');
    await kit.exportDoc(txt, 'txt');
    const text = readFileSync(txt, 'utf8');
    expect(text).toContain('Hello Ode');
    expect(text).not.toMatch(/XYZ|QWERTY/);
    await kit.destroyView(ro);
  });

  it('closeDoc destroys the document and the kit exits by itself', async () => {
    const exited = new Promise<number | null>((r) => kit.once('exit', (code: number | null) => r(code)));
    await kit.closeDoc();
    expect(await exited).toBe(0);
  });
});
