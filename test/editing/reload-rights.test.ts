import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../daemon/protocol/editor.ts';
import { useDocumentTests } from '../helpers/editing-setup.ts';
import type { EditorClient } from '../helpers/editor-client.ts';
import { frameDrag, slideFrames, type SlideFrame } from '../helpers/slide-frames.ts';

const DECK = readFileSync('/work/shared/corpus/presentations/layouts.pptx');

/**
 * A document read-only for everyone (its WOPI lock is held by another application) stays read-only in LibreOffice
 * itself after a reload: the reload makes every view again, and a view made writable there could change the document
 * with the input the daemon lets through to read-only views (a mouse drag moves a shape; kit view-rights.ts).
 * Real LibreOffice: the oracle is the slide's frames in a copy exported after the drags.
 */
describe('read-only for everyone survives a reload (real kits, a fake WOPI host enforcing locks)', () => {
  const env = useDocumentTests({ readyKits: 2, maxKits: 3, documents: { check_secs: 1 }, file: DECK, name: 'layouts.pptx' });

  /**
   * Clicks `frame` in `client`'s view, waits for LibreOffice's graphic selection (the click reached the frame), then
   * drags it; resolves once the kit has handled the drag (a clipboard request is answered after the input before it).
   */
  const selectAndDrag = async (client: EditorClient, frame: SlideFrame) => {
    const { select, drag } = frameDrag(frame);
    let from = client.messages.length;
    for (const e of select) client.send(e);
    await client.next('graphicSelection', (m) => m.rect !== null, 60_000, from);
    for (const e of drag) client.send(e);
    from = client.messages.length;
    client.send({ type: 'clipboardGet', mimeTypes: ['text/plain;charset=utf-8'] });
    await client.next('clipboard', () => true, 60_000, from);
  };

  it('after a reload, neither the first view (loaded again) nor the other (made again) can move a shape', async () => {
    const id = `locked${env.n}`;
    env.host.enforceLocks = true;
    env.host.locks.set(id, 'desktop-app');
    try {
      const a = await env.open(id, { SupportsLocks: true }, DECK, 'layouts.pptx');
      expect(a.status.readonly).toBe(true);
      const b = await env.openSrc(a.src);
      expect(b.status.readonly).toBe(true);
      const doc = env.daemon.server.documents.list()[0]!;
      const original = slideFrames(await doc.exportCopy('odp'));
      expect(original.length).toBeGreaterThan(0);
      // The file changes elsewhere; nothing is unsaved here, so the periodic check reloads it.
      const fromA = a.client.messages.length;
      const fromB = b.client.messages.length;
      env.host.touch(id);
      for (const [client, from] of [
        [a.client, fromA],
        [b.client, fromB],
      ] as const) {
        await client.next('reloaded', () => true, 60_000, from);
        expect((await client.next('status', () => true, 60_000, from)).readonly).toBe(true);
      }
      // The view made again first, then the one loaded again: neither moves the title.
      for (const client of [b.client, a.client]) {
        await selectAndDrag(client, original[0]!);
        expect(slideFrames(await doc.exportCopy('odp'))).toEqual(original);
      }
      const modified = (m: ServerMessage) => m.type === 'modified' && m.modified;
      expect(a.client.messages.slice(fromA).some(modified) || b.client.messages.slice(fromB).some(modified)).toBe(false);
    } finally {
      env.host.enforceLocks = false;
    }
  }, 240_000);
});
