import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { documentsClosed } from '../helpers/daemon.ts';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A view still joining a document when the document begins closing (its only other view left during the load):
 * it must not be let in to the closing document (it got `status`, its input was dropped, its socket never closed:
 * what its user typed was lost), but join the document opened again (DocumentRegistry.join). One daemon with real
 * LibreOffice kits; the host answers GetFile late so that both views wait in their join (deterministic, not a race).
 */
describe('a view joining a document that begins closing', () => {
  // One daemon with real kits (prespawn 1, max 2; saves only when asked) and a fake WOPI host.
  const env = useEditing({ readyKits: 1, maxKits: 2 });
  const docx = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

  it('the first view leaves while both load: the second joins the document opened again, and what it types is stored', async () => {
    const { daemon: d, host } = env;
    const src = host.addFile('c1', 'c1.docx', docx);
    // The download takes 5 s: both views wait in their join meanwhile.
    host.answer('GetFile', { status: 200, body: docx, delayMs: 5000 });
    const open = async () => {
      const client = await EditorClient.connect(d.url, src);
      client.send({ type: 'load', token: host.token });
      // Past CheckFileInfo: the view is joining the document (DocumentRegistry.join).
      await client.next('loading', (m) => m.stage === 'download', 30_000);
      return client;
    };
    const a = await open();
    const deadline = Date.now() + 30_000;
    while (host.of('GetFile').length === 0 && Date.now() < deadline) await sleep(20);
    const b = await open();
    expect(d.server.documents.list().map((doc) => doc.state)).toEqual(['opening']);
    // The first user closes the tab during the load: when it ends, that view leaves and the document unloads.
    a.close();
    await a.closed();
    await b.next('status', () => true, 60_000);
    const from = b.messages.length;
    b.type('Joined while closing ');
    await b.next('modified', (m) => m.modified, 30_000, from);
    // The document b is in was downloaded again for it (the first one closed).
    expect(host.of('GetFile')).toHaveLength(2);
    b.close();
    await b.closed();
    expect(await documentsClosed(d.server, 30_000)).toBe(true);
    expect(docxText(host.files.get('c1')!.bytes)).toContain('Joined while closing');
  }, 120_000);
});
