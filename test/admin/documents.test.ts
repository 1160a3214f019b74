/**
 * Admin API `documents` against a real daemon with fake kits (daemon/protocol/kit.md, "The fake kit"), a fake WOPI
 * host and real editor WebSocket clients: documents appear and disappear in `documents.list` and `documents.events`
 * as views open and close; modified after typing; an admin save makes a PutFile; an admin close saves, then closes
 * the views with 4410. Both through createCaller and the HTTP/WebSocket client. Killing kits (and the daemon serving
 * conversions after it) runs with LibreOffice: documents-kill-kit.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRPCClientError } from '@trpc/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentEvent } from '../../admin-api/backend.ts';
import { createContextInner } from '../../admin-api/context.ts';
import { appRouter } from '../../admin-api/router.ts';
import { createCallerFactory } from '../../admin-api/trpc.ts';
import { CLOSE } from '../../daemon/protocol/editor.ts';
import { createAdminClient, type AdminTestClient } from '../helpers/admin-client.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { fakeKitText } from '../helpers/fake-kit.ts';
import { FakeWopiHost, publicKeyFromDiscovery } from '../helpers/fake-wopi-host.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/** Polls `fn` until it returns a truthy value (no timing asserted: the deadline only ends a hung test). */
async function until<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let daemon: TestDaemon;
let host: FakeWopiHost;
let admin: AdminTestClient;
const caller = () => createCallerFactory(appRouter)(createContextInner(daemon.server.admin.backend));
const clients: EditorClient[] = [];
let n = 0;

/** Adds a file to the host and opens it as one more view. */
async function open(id: string, name = 'letter.docx'): Promise<EditorClient> {
  const src = host.files.has(id) ? host.fileUrl(id) : host.addFile(id, name, DOCX);
  const { client } = await EditorClient.open(daemon.url, src, { token: host.token });
  clients.push(client);
  return client;
}

/** Types and waits until the view hears the document is modified. */
async function typeAndWait(c: EditorClient, text: string): Promise<void> {
  const from = c.messages.length;
  c.type(text);
  await c.next('modified', (m) => m.modified, 30_000, from);
}

beforeAll(async () => {
  host = await FakeWopiHost.start();
  daemon = await startDaemon({ kits: { prespawn: 2, max: 4 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 2, 0, { fakeKits: true });
  host.proofKey = publicKeyFromDiscovery(await (await fetch(`${daemon.url}/hosting/discovery`)).text());
  admin = createAdminClient(daemon.adminUrl!, daemon.adminToken);
}, 120_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await admin?.close();
  await daemon?.stop();
  await host?.stop();
});
afterEach(async () => {
  n++;
  for (const c of clients.splice(0)) c.close();
  await until(() => daemon.server.documents.list().length === 0, 'the documents to close');
});

describe('documents.list and documents.events', () => {
  it('a document appears with its file, host, views, kit and memory, shows 2 views, becomes modified, and disappears', async () => {
    const events: DocumentEvent[] = [];
    let started!: () => void;
    const isStarted = new Promise<void>((r) => (started = r));
    const sub = admin.client.documents.events.subscribe(undefined, { onStarted: () => started(), onData: (e) => events.push(e), onError: (e) => events.push({ type: 'closed', id: `error ${String(e)}` }) });
    try {
      await isStarted;
      expect(await caller().documents.list()).toEqual([]);
      const a = await open(`list${n}`, 'report.docx');
      const [doc] = await caller().documents.list();
      expect(doc).toMatchObject({ fileName: 'report.docx', host: host.url, state: 'live', modified: false });
      expect(doc.id).toMatch(/^[0-9a-f]{12}$/);
      expect(doc.views).toHaveLength(1);
      expect(doc.views[0]).toMatchObject({ readOnly: false });
      expect(doc.views[0].userName.length).toBeGreaterThan(0);
      expect(daemon.server.pool.kitPids()).toContain(doc.kitPid);
      expect(doc.kitRssBytes).toBeGreaterThan(10 * 1024 * 1024);

      await open(`list${n}`);
      const two = await until(() => events.find((e) => e.type === 'changed' && e.document.views.length === 2), 'a changed event with 2 views');
      expect(two.type === 'changed' && two.document.id).toBe(doc.id);
      expect(events.find((e) => e.type === 'opened')).toMatchObject({ type: 'opened', document: { id: doc.id, fileName: 'report.docx' } });
      // Over HTTP too: the same document with both views.
      const [overHttp] = await admin.client.documents.list.query();
      expect(overHttp.views.map((v) => v.viewId).sort()).toEqual(two.type === 'changed' ? two.document.views.map((v) => v.viewId).sort() : []);

      await typeAndWait(a, 'Edited');
      await until(() => events.find((e) => e.type === 'changed' && e.document.modified), 'a changed event with modified');
      expect((await caller().documents.list())[0].modified).toBe(true);

      for (const c of clients.splice(0)) c.close();
      await until(() => events.find((e) => e.type === 'closed' && e.id === doc.id), 'the closed event');
      expect(await admin.client.documents.list.query()).toEqual([]);
      expect(events.some((e) => e.type === 'closed' && e.id.startsWith('error'))).toBe(false);
    } finally {
      sub.unsubscribe();
    }
  });
});

describe('documents.save', () => {
  it('saves and uploads through the API (createCaller and HTTP): a PutFile with the typed text; lastUploadAt set, no longer modified', async () => {
    const c = await open(`save${n}`);
    await typeAndWait(c, 'Saved by admin');
    const [doc] = await caller().documents.list();
    const puts = host.of('PutFile').length;
    expect(await caller().documents.save({ id: doc.id })).toEqual({ saved: true });
    expect(host.of('PutFile')).toHaveLength(puts + 1);
    expect(fakeKitText(host.of('PutFile').at(-1)!.body)).toBe('Saved by admin');
    const after = (await caller().documents.list())[0];
    expect(after.modified).toBe(false);
    expect(after.lastUploadAt).toBeGreaterThanOrEqual(doc.openedAt);
    expect(after.lastSaveAt).toBeGreaterThanOrEqual(doc.openedAt);
    expect(after.lastUploadError).toBeUndefined();
    // An explicit save uploads even when nothing changed (IsModifiedByUser false), as the editor's Save does.
    expect(await admin.client.documents.save.mutate({ id: doc.id })).toEqual({ saved: true });
    expect(host.of('PutFile')).toHaveLength(puts + 2);
    expect(host.of('PutFile').at(-1)!.headers['x-ode-wopi-ismodifiedbyuser']).toBe('false');
  });

  it('a refused upload fails with save_failed and the host reason, and shows as lastUploadError', async () => {
    const c = await open(`refused${n}`);
    await typeAndWait(c, 'x');
    const [doc] = await caller().documents.list();
    host.answer('PutFile', { status: 401 });
    const err = await admin.client.documents.save.mutate({ id: doc.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    expect((err as TRPCClientError<never>).data).toMatchObject({ adminCode: 'save_failed', code: 'CONFLICT' });
    expect((err as Error).message).toMatch(/refused the upload/);
    expect((await caller().documents.list())[0].lastUploadError).toBeTruthy();
    expect((await caller().documents.list())[0].modified).toBe(true);
  });

  it('an unknown id is not_found, through createCaller and HTTP', async () => {
    await expect(caller().documents.save({ id: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const err = await admin.client.documents.close.mutate({ id: 'nope' }).catch((e: unknown) => e);
    expect((err as TRPCClientError<never>).data).toMatchObject({ adminCode: 'not_found', httpStatus: 404 });
  });
});

describe('documents.close', () => {
  it('saves the modified document (exit save), then closes its views with 4410 and it leaves the list', async () => {
    const a = await open(`close${n}`);
    const b = await open(`close${n}`);
    await typeAndWait(a, 'Closed by admin');
    const [doc] = await admin.client.documents.list.query();
    const puts = host.of('PutFile').length;
    expect(await admin.client.documents.close.mutate({ id: doc.id })).toEqual({ closed: true });
    expect(await a.closed()).toBe(CLOSE.adminClosed);
    expect(await b.closed()).toBe(4410);
    const put = host.of('PutFile').at(-1)!;
    expect(host.of('PutFile')).toHaveLength(puts + 1);
    expect(fakeKitText(put.body)).toBe('Closed by admin');
    expect(put.headers['x-ode-wopi-isexitsave']).toBe('true');
    expect(await caller().documents.list()).toEqual([]);
    expect(daemon.logBuffer.recent(500, 'warn').some((l) => l.msg === 'admin: closing the document')).toBe(true);
  });
});
