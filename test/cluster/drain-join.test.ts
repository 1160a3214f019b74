import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A view still joining its document when the node starts draining (document-drain.ts step 0; docs/deploy/cluster.md):
 * the drain's `draining` and flush go to the views it finds, and its exit save does not wait for a view that becomes
 * live later. Such a view used to get `status`, type, and be closed with 4503 after the save was made: its words
 * were lost (most likely the word test/cluster/node-loss.test.ts's rolling restart once lost in CI). It must be refused.
 * One daemon with real LibreOffice kits; the host's GetFile is answered late so that the drain starts while the
 * document downloads for its views (deterministic, not a race).
 */
describe('a view joining while its node drains', () => {
  // One daemon with real kits (prespawn 1, max 2; saves only when asked) and a fake WOPI host.
  const env = useEditing({ readyKits: 1, maxKits: 2 });
  const docx = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

  it('views loading the document when the drain starts are refused (error draining, close 4503, never live), nothing they type is lost, and the WOPI lock is released', async () => {
    const { daemon: d, host } = env;
    const src = host.addFile('j1', 'j1.docx', docx, { SupportsLocks: true });
    // The document's download takes 5 s: the drain starts while both views wait in their join.
    host.answer('GetFile', { status: 200, body: docx, delayMs: 5000 });
    const typed: string[] = [];
    const views = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const client = await EditorClient.connect(d.url, src);
        client.send({ type: 'load', token: host.token });
        // As a user (and test/cluster/typist.ts): typing as soon as the view is live, until told `draining`.
        void client
          .next('status', () => true, 60_000)
          .then(
            () => {
              if (client.messages.some((m) => m.type === 'draining')) return;
              client.type(`${name}word `);
              typed.push(`${name}word`);
            },
            () => undefined,
          );
        // Past CheckFileInfo: the view is joining the document (DocumentRegistry.join).
        await client.next('loading', (m) => m.stage === 'download', 30_000);
        return client;
      }),
    );
    const deadline = Date.now() + 30_000;
    while (host.of('GetFile').length === 0 && Date.now() < deadline) await sleep(20);
    expect(host.of('GetFile')).toHaveLength(1);
    expect(d.server.documents.list().map((doc) => ({ state: doc.state, views: doc.views.size }))).toEqual([{ state: 'opening', views: 0 }]);

    const report = await d.server.node.drain({ exit: false });
    expect(report).toMatchObject({ state: 'drained', documents: 1, views: 0 });
    for (const v of views) {
      await v.closed(60_000);
      const error = v.messages.find((m) => m.type === 'error');
      expect({ code: v.closeCode, live: v.messages.some((m) => m.type === 'status'), error: error?.code }).toEqual({
        code: 4503,
        live: false,
        error: 'draining',
      });
    }
    expect(d.server.documents.list()).toEqual([]);
    // Whatever a view typed is stored (nothing here: no view became live); no exit save of an unmodified document.
    const stored = docxText(host.files.get('j1')!.bytes);
    expect(typed.filter((w) => !stored.includes(w))).toEqual([]);
    expect(host.of('PutFile')).toHaveLength(0);
    // The lock the document took for its first view is released although no view joined (the other node's saves
    // would be refused by a host enforcing it until it expired).
    const until = Date.now() + 30_000;
    while (host.locks.has('j1') && Date.now() < until) await sleep(50);
    expect(host.of('LOCK')).toHaveLength(1);
    expect(host.locks.has('j1')).toBe(false);
  }, 120_000);
});
