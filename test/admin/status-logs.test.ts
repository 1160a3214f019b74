/**
 * Admin status, logs and metrics against a real daemon with real kits, a fake WOPI host and a real editor client:
 * each kit's pid with non-zero RSS and its state (`editing` with the document's admin id); conversions counted by
 * result after real /ode/convert-to calls (one ok, one broken corpus file) in status and /metrics; a failed
 * upload counted with its document; `logs.follow` over WebSocket delivers a line produced after subscribing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogLine } from '../../admin-api/backend.ts';
import { createContextInner } from '../../admin-api/context.ts';
import { appRouter } from '../../admin-api/router.ts';
import { createAdminClient, type AdminTestClient } from '../helpers/admin-client.ts';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startEditing, type EditingSetup } from '../helpers/editing-setup.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

let env: EditingSetup;
let admin: AdminTestClient;
const caller = () => appRouter.createCaller(createContextInner(env.daemon.server.admin.backend));

beforeAll(async () => {
  env = await startEditing({ readyKits: 1, maxKits: 3 });
  admin = createAdminClient(env.daemon.adminUrl!, env.daemon.adminToken);
}, 120_000);
afterAll(async () => {
  await admin?.close();
  await env?.stop();
});

/** The value of one sample line of the /metrics text (`name{labels} value`), or undefined. */
async function metric(series: string): Promise<number | undefined> {
  const res = await fetch(`${env.daemon.adminUrl}/metrics`, { headers: { Authorization: `Bearer ${env.daemon.adminToken}` } });
  expect(res.status).toBe(200);
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('status', () => {
  it('reports the daemon and each kit with its pid, non-zero RSS, state and jobs', async () => {
    const s = await admin.client.status.get.query();
    const pids = env.daemon.server.pool.kitPids();
    expect(s.kits.map((k) => k.pid).sort()).toEqual([...pids].sort());
    for (const k of s.kits) {
      expect(k.rssBytes).toBeGreaterThan(0);
      expect(['starting', 'ready']).toContain(k.state);
      expect(k.startedAt).toBeLessThanOrEqual(Date.now());
      expect(k.documentId).toBeUndefined();
    }
    expect(s.daemon).toMatchObject({ pid: process.pid });
    expect(s.daemon.rssBytes).toBeGreaterThan(0);
    expect(s.documents).toBe(0);
    expect(s.failures).toMatchObject({ saves: 0, uploads: 0, conversions: 0 });
  });

  it('an editing kit shows as `editing` with its document; documents, views and kits in /metrics too', async () => {
    await env.open(env.host.addFile('st1', 'status.docx', DOCX));
    const [doc] = await caller().documents.list();
    const s = await caller().status.get();
    const editing = s.kits.filter((k) => k.state === 'editing');
    expect(editing).toHaveLength(1);
    expect(editing[0]).toMatchObject({ pid: doc.kitPid, documentId: doc.id });
    expect(editing[0].rssBytes).toBeGreaterThan(0);
    expect(s.documents).toBe(1);
    expect(s.views).toBe(1);
    expect(await metric('ode_documents')).toBe(1);
    expect(await metric('ode_views')).toBe(1);
    expect(await metric('ode_kits{state="editing"}')).toBe(1);
  });

  it('a failed upload counts in failures (with the document) and in ode_uploads_total{result="failed"}', async () => {
    const [doc] = await caller().documents.list();
    const failedBefore = (await metric('ode_uploads_total{result="failed"}')) ?? 0;
    env.host.answer('PutFile', { status: 401 });
    await expect(admin.client.documents.save.mutate({ id: doc.id })).rejects.toThrow();
    const s = await caller().status.get();
    expect(s.failures.uploads).toBe(1);
    expect(s.failures.lastUpload).toMatchObject({ documentId: doc.id });
    expect(s.failures.lastUpload!.message.length).toBeGreaterThan(0);
    expect(await metric('ode_uploads_total{result="failed"}')).toBe(failedBefore + 1);
    expect(await metric('ode_upload_duration_seconds_count{result="failed"}')).toBe(failedBefore + 1);
    expect(await metric('ode_saves_total{result="ok"}')).toBeGreaterThanOrEqual(1);
  });
});

describe('conversions and logs', () => {
  it('counts a real conversion ok and a broken file failed, in status and /metrics; logs.follow gets the line', async () => {
    const lines: LogLine[] = [];
    let started!: () => void;
    const subscribed = new Promise<void>((r) => (started = r));
    let gotConverted!: () => void;
    const converted = new Promise<void>((r) => (gotConverted = r));
    const sub = admin.client.logs.follow.subscribe(
      { level: 'info' },
      {
        onStarted: () => started(),
        onData: (line) => {
          lines.push(line);
          if (line.msg === 'converted') gotConverted();
        },
      },
    );
    try {
      await subscribed;
      const ok = await postConvert(env.daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'content-controls/ContentControls.docx'));
      expect(ok.status).toBe(200);
      await converted;
      const line = lines.find((l) => l.msg === 'converted')!;
      expect(line.level).toBe('info');
      expect(line.fields).toMatchObject({ from: 'docx', to: 'pdf' });
      expect(line.seq).toBeGreaterThan(0);
    } finally {
      sub.unsubscribe();
    }
    const bad = await postConvert(env.daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'broken/testODTnotaZipFile.odt'));
    expect(bad.status).toBeGreaterThanOrEqual(400);

    const s = await caller().status.get();
    expect(s.conversions).toEqual({ ok: 1, failed: 1 });
    expect(s.failures.conversions).toBe(1);
    expect(await metric('ode_conversions_total{result="ok"}')).toBe(1);
    expect(await metric('ode_conversions_total{result="failed"}')).toBe(1);
    expect(await metric('ode_conversion_duration_seconds_count{result="ok"}')).toBe(1);
    expect(await metric('ode_conversion_duration_seconds_count{result="failed"}')).toBe(1);
  });

  it('logs.recent over HTTP: oldest first, increasing seq, filtered by level', async () => {
    const all = await admin.client.logs.recent.query({ limit: 5000, level: 'info' });
    expect(all.length).toBeGreaterThan(2);
    for (let i = 1; i < all.length; i++) expect(all[i].seq).toBeGreaterThan(all[i - 1].seq);
    expect(all.some((l) => l.msg === 'converted')).toBe(true);
    const errors = await admin.client.logs.recent.query({ limit: 5000, level: 'error' });
    expect(errors.every((l) => l.level === 'error' || l.level === 'fatal')).toBe(true);
    expect(errors.length).toBeLessThan(all.length);
  });
});
