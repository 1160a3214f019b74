import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { documentsClosed } from '../helpers/daemon.ts';
import { docxText } from '../helpers/docx.ts';
import { useDocumentTests, type DocumentTests } from '../helpers/editing-setup.ts';
import type { EditorClient } from '../helpers/editor-client.ts';
import { fakeKitText } from '../helpers/fake-kit.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/**
 * Issue 17 (bench:load, "never losing a keystroke"): what a user types while a save is on its way to the host (the
 * kit saved, the PutFile not answered yet) is not in that stored file, so the document must stay unsaved: when the
 * user then leaves, the exit save stores it. Before the fix the upload's success marked the document saved, and the
 * exit save was skipped as "not modified" (the typing stayed only in the edit journal until the next daemon start).
 * The host answers PutFile 2 s late; the second word is typed once the host has the first PutFile (so after the kit's
 * save); the oracle is the host's stored file, read back (fake kit: its text part; real kit: the docx's text runs).
 */
async function typeDuringUpload(env: DocumentTests, text: (bytes: Uint8Array) => string, waitMs: number): Promise<void> {
  const id = `during${env.n}`;
  const { client } = await env.open(id, {}, DOCX, `${id}.docx`);
  const puts = () => env.host.of('PutFile').filter((r) => r.path === `/wopi/files/${id}/contents`);
  const typed = async (c: EditorClient, word: string) => {
    const from = c.messages.length;
    c.type(word);
    await c.next('modified', (m) => m.modified, waitMs, from);
  };
  await typed(client, 'alpha');
  env.host.putFileDelayMs = 2000;
  try {
    const before = puts().length;
    const from = client.messages.length;
    client.send({ type: 'save' });
    const deadline = Date.now() + waitMs;
    while (puts().length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(puts().length).toBe(before + 1);
    // The kit saved and the upload runs: this word is not in the file being stored.
    client.type('omega');
    await client.next('saved', (m) => m.ok && !m.exitSave, waitMs, from);
    expect(text(env.host.files.get(id)!.bytes)).toContain('alpha');
    client.close();
    expect(await documentsClosed(env.daemon.server, waitMs, 50)).toBe(true);
  } finally {
    env.host.putFileDelayMs = 0;
  }
  const stored = text(env.host.files.get(id)!.bytes);
  expect(stored).toContain('alpha');
  expect(stored).toContain('omega');
  // The last PutFile is the exit save that stored it.
  expect(puts().at(-1)!.headers['x-ode-wopi-isexitsave']).toBe('true');
}

describe('typing while a save is uploaded (fake kits)', () => {
  const env = useDocumentTests({ readyKits: 1, maxKits: 2, fakeKits: true, file: DOCX });
  it('a word typed during the upload of a save is stored by the exit save when the user leaves', async () => {
    await typeDuringUpload(env, (b) => fakeKitText(b) ?? '', 30_000);
  }, 120_000);
});

describe('typing while a save is uploaded (LibreOffice)', () => {
  const env = useDocumentTests({ readyKits: 1, maxKits: 2, file: DOCX });
  it('a word typed during the upload of a save is stored by the exit save when the user leaves', async () => {
    await typeDuringUpload(env, docxText, 60_000);
  }, 300_000);
});
