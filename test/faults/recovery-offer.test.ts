import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as utf7 from 'utf7';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdminClient } from '../helpers/admin-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { COPY, DOCX, writeRecoveryCopy } from './recovery-fixtures.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 17, item 8: a recovery copy the restarted daemon keeps because the stored file changed meanwhile (409/1010)
 * is offered to the document's users when they open it (editor.md `recoveryOffer`), and stored by their choice:
 * `saveAs` stores it beside the document (PutRelativeFile), `restore` stores it as the new version (PutFile without
 * the timestamp) and reloads the document, refused while the document has unsaved changes. A copy is deleted only
 * once stored; the offer then disappears from every view and from the admin API's list. Fake kits: the copies are
 * the daemon's bookkeeping; the oracle is the host's files read back.
 */
describe('fault: recovery copies offered to users', () => {
  let daemon: TestDaemon | undefined;
  let host: FakeWopiHost | undefined;
  const clients: EditorClient[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ode-recovery-offer-'));
  afterAll(async () => {
    for (const c of clients) c.close();
    await daemon?.stop();
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers a kept copy, saves it as a new file or restores it as the new version', { timeout: 180_000 }, async () => {
    host = await FakeWopiHost.start();
    const h = host;
    const stateDir = join(dir, 'state');
    const recovery = join(stateDir, 'recovery');
    mkdirSync(recovery, { recursive: true });
    const src: Record<string, string> = {};
    const created = Date.parse('2026-11-26T05:04:00Z');
    for (const id of ['ro1', 'ro2']) {
      // ro1's host allows Save As (the spec's default forbids it: UserCanNotWriteRelative true).
      src[id] = h.addFile(id, `${id}.docx`, DOCX, id === 'ro1' ? { UserCanNotWriteRelative: false } : {});
      writeRecoveryCopy(recovery, `${id}.docx`, COPY, {
        wopiSrc: src[id],
        fileName: `${id}.docx`,
        token: h.token,
        tokenTtl: Date.now() + 3_600_000,
        lastModifiedTime: h.files.get(id)!.lastModifiedTime,
        source: 'journal',
        createdAt: created,
      });
      // Someone else stored the file meanwhile: the copy must not overwrite it by itself.
      h.touch(id, DOCX);
    }
    daemon = await startDaemon({ state_dir: stateDir, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 1, 0, { fakeKits: true });
    const deadline = Date.now() + 30_000;
    while (h.of('PutFile').length < 2 && Date.now() < deadline) await sleep(100);
    await sleep(300);
    const pendingDir = join(recovery, 'pending');
    const kept = () =>
      readdirSync(pendingDir)
        .filter((n) => !n.endsWith('.json'))
        .sort();
    expect(kept()).toEqual(['000000000000-ro1.docx', '000000000000-ro2.docx']);

    // ro1: offered on open; Save As stores it beside the document and the offer goes away.
    const one = await EditorClient.open(daemon.url, src.ro1!, { token: h.token });
    clients.push(one.client);
    const offer = await one.client.next('recoveryOffer', (m) => m.copies.length > 0, 30_000);
    expect(offer.copies.map((c) => [c.id, c.fileName, c.reason, c.createdAt, c.bytes])).toEqual([
      ['000000000000-ro1.docx', 'ro1.docx', 'conflict', created, COPY.length],
    ]);
    expect(offer.canSaveAs).toBe(true);
    expect(JSON.stringify(offer)).not.toContain(h.token);
    let from = one.client.messages.length;
    one.client.send({ type: 'recoveryChoice', id: offer.copies[0]!.id, choice: 'saveAs' });
    const savedAs = await one.client.next('recoveryResult', () => true, 30_000, from);
    expect(savedAs.ok, savedAs.error?.message).toBe(true);
    // The fake host keeps X-WOPI-SuggestedTarget as sent (UTF-7, MS-WOPI): decoded here with the utf7 package.
    expect(utf7.decode(savedAs.name ?? '')).toBe('ro1 (recovered 2026-11-26 0504).docx');
    const added = [...h.files.values()].find((f) => f.name === savedAs.name);
    expect(added && Buffer.from(added.bytes).equals(COPY)).toBe(true);
    expect(Buffer.from(h.files.get('ro1')!.bytes).equals(DOCX)).toBe(true);
    expect((await one.client.next('recoveryOffer', () => true, 10_000, from)).copies).toEqual([]);
    expect(kept()).toEqual(['000000000000-ro2.docx']);

    // ro2: restore is refused while the document has unsaved changes, then works after a save.
    const two = await EditorClient.open(daemon.url, src.ro2!, { token: h.token });
    clients.push(two.client);
    const offer2 = await two.client.next('recoveryOffer', (m) => m.copies.length > 0, 30_000);
    expect(offer2.canSaveAs).toBe(false);
    from = two.client.messages.length;
    two.client.type('mine');
    await two.client.next('modified', (m) => m.modified, 30_000, from);
    two.client.send({ type: 'recoveryChoice', id: offer2.copies[0]!.id, choice: 'restore' });
    const refused = await two.client.next('recoveryResult', () => true, 30_000, from);
    expect(refused.ok).toBe(false);
    expect(refused.error?.code).toBe('recovery_unsaved');
    expect(kept()).toEqual(['000000000000-ro2.docx']);
    await sleep(300);
    two.client.send({ type: 'save' });
    expect((await two.client.next('saved', () => true, 60_000, from)).ok).toBe(true);
    const puts = h.of('PutFile').length;
    from = two.client.messages.length;
    two.client.send({ type: 'recoveryChoice', id: offer2.copies[0]!.id, choice: 'restore' });
    const restored = await two.client.next('recoveryResult', () => true, 30_000, from);
    expect(restored.ok, restored.error?.message).toBe(true);
    // Stored as the new version: PutFile without the timestamp (overwrite), the document reloaded from it.
    const put = h.of('PutFile')[puts]!;
    expect(put.headers['x-ode-wopi-timestamp']).toBeUndefined();
    expect(Buffer.from(h.files.get('ro2')!.bytes).equals(COPY)).toBe(true);
    await two.client.next('reloaded', () => true, 30_000, from);
    expect(kept()).toEqual([]);
    expect(existsSync(join(pendingDir, '000000000000-ro2.docx.json'))).toBe(false);

    // A copy already stored cannot be chosen again.
    from = two.client.messages.length;
    two.client.send({ type: 'recoveryChoice', id: offer2.copies[0]!.id, choice: 'restore' });
    expect((await two.client.next('recoveryResult', () => true, 30_000, from)).error?.code).toBe('recovery_gone');
    // ro2's host forbids Save As (UserCanNotWriteRelative): refused whatever the editor shows.
    from = two.client.messages.length;
    two.client.send({ type: 'recoveryChoice', id: offer2.copies[0]!.id, choice: 'saveAs' });
    expect((await two.client.next('recoveryResult', () => true, 30_000, from)).error?.code).toBe('forbidden');

    const admin = createAdminClient(daemon.adminUrl!, daemon.adminToken);
    expect(await admin.client.documents.recovery.query()).toEqual([]);
    await admin.close();
  });
});
