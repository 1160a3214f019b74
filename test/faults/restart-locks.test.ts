import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { COPY, DOCX, writeRecoveryCopy } from './recovery-fixtures.ts';
import { fakeKitText } from '../helpers/fake-kit.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `ok()` or `ms` passed; returns ok(). */
async function until(ok: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await sleep(100);
  return ok();
}

/**
 * Issue 17: the WOPI lock of a killed daemon. After a SIGKILL the host still holds the lock the dead daemon took
 * (hosts expire locks after 30 minutes), and Collabora Online, which draws a new lock id per load, would find the
 * document locked. Here the killed daemon's state is written as it leaves it (docs/reliability.md: its lock records
 * in `<state_dir>/locks/`, a recovery copy), and a fake WOPI host enforces locks as MS-WOPI hosts do (409 with
 * X-WOPI-Lock on a mismatch). The restarted daemon must: upload a recovery copy under the old lock and release it;
 * release the old lock of a document with nothing to upload; replace an old lock it could not release
 * (UnlockAndRelock) when a user reopens the document, which is then writable and saves under the new lock; and still
 * open read-only a document someone else locked. Fake kits: the locks are the daemon's bookkeeping.
 */
describe('fault: the WOPI lock a killed daemon held', () => {
  let daemon: TestDaemon | undefined;
  let host: FakeWopiHost | undefined;
  const clients: EditorClient[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ode-restart-locks-'));
  afterAll(async () => {
    for (const c of clients) c.close();
    await daemon?.stop();
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-uploads under the old lock, releases it, and a reopened document replaces it', { timeout: 180_000 }, async () => {
    host = await FakeWopiHost.start();
    host.enforceLocks = true;
    const h = host;
    const stateDir = join(dir, 'state');
    const locksDir = join(stateDir, 'locks');
    const recovery = join(stateDir, 'recovery');
    mkdirSync(locksDir, { recursive: true });
    mkdirSync(recovery, { recursive: true });
    const src: Record<string, string> = {};
    const OLD: Record<string, string> = { lk1: 'ode-killed-1', lk2: 'ode-killed-2', lk3: 'ode-killed-3' };
    // The lock records as the killed daemon wrote them (lock-records.ts: one JSON file per document).
    const record = (id: string, token: string) => {
      const key = `${h.url}/wopi/files/${id}`;
      const name = `${createHash('sha256').update(key).digest('hex').slice(0, 24)}.json`;
      writeFileSync(
        join(locksDir, name),
        JSON.stringify({ wopiSrc: src[id], lock: OLD[id], token, tokenTtl: Date.now() + 3_600_000, takenAt: Date.now() - 5000 }),
      );
    };
    for (const id of ['lk1', 'lk2', 'lk3', 'lk4']) src[id] = h.addFile(id, `${id}.docx`, DOCX, { SupportsLocks: true });
    // lk1: unsaved edits in a recovery copy, the host still holding the old lock.
    h.locks.set('lk1', OLD.lk1);
    record('lk1', h.token);
    writeRecoveryCopy(recovery, 'lk1.docx', COPY, {
      wopiSrc: src.lk1,
      fileName: 'lk1.docx',
      token: h.token,
      tokenTtl: Date.now() + 3_600_000,
      lastModifiedTime: h.files.get('lk1')!.lastModifiedTime,
      source: 'journal',
      createdAt: Date.now() - 2000,
    });
    // lk2: nothing unsaved, the host holding the old lock.
    h.locks.set('lk2', OLD.lk2);
    record('lk2', h.token);
    // lk3: the old lock's token is no longer accepted (401), so the start cannot release it.
    h.locks.set('lk3', OLD.lk3);
    record('lk3', 'a-token-the-host-no-longer-takes');
    // lk4: locked by another application: must open read-only.
    h.locks.set('lk4', 'someone-else');

    daemon = await startDaemon({ state_dir: stateDir, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 1, 0, { fakeKits: true });

    // lk1: PutFile under the old lock, then Unlock.
    expect(await until(() => h.of('PutFile').some((p) => p.path.includes('lk1')) && !h.locks.has('lk1'))).toBe(true);
    const put1 = h.of('PutFile').find((p) => p.path.includes('lk1'))!;
    expect(put1.headers['x-wopi-lock']).toBe(OLD.lk1);
    expect(Buffer.from(h.files.get('lk1')!.bytes).equals(COPY)).toBe(true);
    expect(readdirSync(join(recovery, 'pending')).filter((n) => !n.endsWith('.json'))).toEqual([]);
    // lk2: released at start.
    expect(await until(() => !h.locks.has('lk2'))).toBe(true);
    expect(h.requests.some((r) => r.operation === 'UNLOCK' && r.path.endsWith('/lk2') && r.headers['x-wopi-lock'] === OLD.lk2)).toBe(true);
    // lk3: still held by the old lock (its Unlock was refused 401).
    await sleep(500);
    expect(h.locks.get('lk3')).toBe(OLD.lk3);

    // Reopened: lk2 and lk3 are writable under a new lock; lk3's was replaced with UnlockAndRelock.
    for (const id of ['lk2', 'lk3']) {
      const { client, status } = await EditorClient.open(daemon.url, src[id]!, { token: h.token });
      clients.push(client);
      expect(status.readonly, id).toBe(false);
      const held = h.locks.get(id);
      expect(held, id).toMatch(/^ode-/);
      expect(held, id).not.toBe(OLD[id]);
      const from = client.messages.length;
      client.type(`typed into ${id}`);
      await client.next('modified', (m) => m.modified, 30_000, from);
      await sleep(300);
      client.send({ type: 'save' });
      const saved = await client.next('saved', () => true, 60_000, from);
      expect(saved.ok, `${id}: ${saved.error?.message}`).toBe(true);
      expect(fakeKitText(h.files.get(id)!.bytes), id).toContain(`typed into ${id}`);
      expect(
        h
          .of('PutFile')
          .filter((p) => p.path.includes(`/${id}/`))
          .at(-1)!.headers['x-wopi-lock'],
      ).toBe(held);
    }
    const relock = h.requests.find((r) => r.operation === 'LOCK' && r.path.endsWith('/lk3') && r.headers['x-wopi-oldlock'] === OLD.lk3);
    expect(relock?.headers['x-wopi-lock']).toBe(h.locks.get('lk3'));

    // lk4: someone else's lock is not ours to replace.
    const other = await EditorClient.open(daemon.url, src.lk4!, { token: h.token });
    clients.push(other.client);
    expect(other.status.readonly).toBe(true);
    expect(h.locks.get('lk4')).toBe('someone-else');
    expect(h.requests.some((r) => r.path.endsWith('/lk4') && r.headers['x-wopi-oldlock'] !== undefined)).toBe(false);
  });
});
