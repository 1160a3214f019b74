import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdminClient } from '../helpers/admin-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { COPY, DOCX, writeRecoveryCopy } from './recovery-fixtures.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 17, item 8: recovery copies a previous daemon left (a save the host did not take) are used at the next
 * start. Written here as that daemon wrote them (the copy and its sidecar: docs/reliability.md), for three cases: the
 * host's file unchanged (uploaded with X-ODE-WOPI-Timestamp, then deleted), changed meanwhile (409: kept as
 * `conflict`, the host's file untouched), and a token past its access_token_ttl (kept, no request). The admin API
 * lists the two kept, without their tokens; a new session of the conflicting document saving does not delete its copy.
 * Fake kits (daemon/protocol/kit.md, "The fake kit"): the copies are the daemon's bookkeeping, not LibreOffice's.
 */
describe('fault: recovery copies left by a previous daemon', () => {
  let daemon: TestDaemon | undefined;
  let host: FakeWopiHost | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ode-recovery-'));
  afterAll(async () => {
    await daemon?.stop();
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads what the host accepts, keeps and lists the rest, and a later save does not delete a kept copy', { timeout: 180_000 }, async () => {
    host = await FakeWopiHost.start();
    const stateDir = join(dir, 'state');
    const recovery = join(stateDir, 'recovery');
    mkdirSync(recovery, { recursive: true });
    const srcs: Record<string, string> = {};
    const times: Record<string, string> = {};
    for (const id of ['rc1', 'rc2', 'rc3']) {
      srcs[id] = host.addFile(id, `${id}.docx`, DOCX);
      times[id] = host.files.get(id)!.lastModifiedTime;
      const tokenTtl = id === 'rc3' ? Date.now() - 60_000 : Date.now() + 3_600_000;
      writeRecoveryCopy(recovery, `${id}.docx`, COPY, {
        wopiSrc: srcs[id]!,
        fileName: `${id}.docx`,
        token: host.token,
        tokenTtl,
        lastModifiedTime: times[id],
        source: 'upload',
        createdAt: Date.now() - 1000,
      });
    }
    host.touch('rc2', DOCX);
    const theirs = host.files.get('rc2')!.lastModifiedTime;

    daemon = await startDaemon({ state_dir: stateDir, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 1, 0, { fakeKits: true });
    const deadline = Date.now() + 30_000;
    while (host.of('PutFile').length < 2 && Date.now() < deadline) await sleep(100);
    await sleep(300);
    const puts = host.of('PutFile');
    expect(puts.map((p) => p.path).sort()).toEqual(['/wopi/files/rc1/contents', '/wopi/files/rc2/contents']);
    expect(puts.find((p) => p.path.includes('rc1'))!.headers['x-ode-wopi-timestamp']).toBe(times.rc1);
    expect(Buffer.from(host.files.get('rc1')!.bytes).equals(COPY)).toBe(true);
    expect(host.files.get('rc2')!.lastModifiedTime).toBe(theirs);
    expect(Buffer.from(host.files.get('rc2')!.bytes).equals(DOCX)).toBe(true);

    const pendingDir = join(recovery, 'pending');
    const kept = () =>
      readdirSync(pendingDir)
        .filter((n) => !n.endsWith('.json'))
        .sort();
    expect(kept()).toEqual(['000000000000-rc2.docx', '000000000000-rc3.docx']);
    const admin = createAdminClient(daemon.adminUrl!, daemon.adminToken);
    const listed = await admin.client.documents.recovery.query();
    await admin.close();
    expect(listed.map((c) => [c.fileName, c.state]).sort()).toEqual([
      ['rc2.docx', 'conflict'],
      ['rc3.docx', 'token_expired'],
    ]);
    expect(JSON.stringify(listed)).not.toContain(host.token);

    // The conflicting document opened, changed and saved again: its kept copy stays.
    const { client } = await EditorClient.open(daemon.url, srcs.rc2!, { token: host.token });
    const from = client.messages.length;
    client.type('new session');
    await client.next('modified', (m) => m.modified, 30_000, from);
    await sleep(300);
    client.send({ type: 'save' });
    expect((await client.next('saved', () => true, 60_000, from)).ok).toBe(true);
    client.close();
    expect(kept()).toEqual(['000000000000-rc2.docx', '000000000000-rc3.docx']);
    expect(Buffer.from(readFileSync(join(pendingDir, '000000000000-rc2.docx'))).equals(COPY)).toBe(true);
    expect(existsSync(join(recovery, '000000000000-rc1.docx'))).toBe(false);
  });
});
