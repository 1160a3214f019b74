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
import { describe, expect, it, vi } from 'vitest';
import type { DocumentEvent } from '../../admin-api/backend.ts';
import { CLOSE } from '../../daemon/protocol/editor.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { useDocumentTests } from '../helpers/editing-setup.ts';
import type { EditorClient } from '../helpers/editor-client.ts';
import { fakeKitText } from '../helpers/fake-kit.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

const env = useDocumentTests({ readyKits: 2, maxKits: 4, fakeKits: true, file: DOCX, admin: true });
const open = env.openFile;

/** Types and waits until the view hears the document is modified. */
async function typeAndWait(c: EditorClient, text: string): Promise<void> {
  const from = c.messages.length;
  c.type(text);
  await c.next('modified', (m) => m.modified, 30_000, from);
}

describe('documents.list and documents.events', () => {
  it('a document appears with its file, host, views, kit and memory, shows 2 views, becomes modified, and disappears', async () => {
    const events: DocumentEvent[] = [];
    let started!: () => void;
    const isStarted = new Promise<void>((r) => (started = r));
    const sub = env.admin.client.documents.events.subscribe(undefined, {
      onStarted: () => started(),
      onData: (e) => events.push(e),
      onError: (e) => events.push({ type: 'closed', id: `error ${String(e)}` }),
    });
    try {
      await isStarted;
      expect(await env.caller().documents.list()).toEqual([]);
      const a = await open(`list${env.n}`, 'report.docx');
      const [doc] = await env.caller().documents.list();
      expect(doc).toMatchObject({ fileName: 'report.docx', host: env.host.url, state: 'live', modified: false });
      expect(doc.id).toMatch(/^[0-9a-f]{12}$/);
      expect(doc.views).toHaveLength(1);
      expect(doc.views[0]).toMatchObject({ readOnly: false });
      expect(doc.views[0].userName.length).toBeGreaterThan(0);
      expect(env.daemon.server.pool.kitPids()).toContain(doc.kitPid);
      expect(doc.kitRssBytes).toBeGreaterThan(10 * 1024 * 1024);

      await open(`list${env.n}`);
      const two = await vi.waitUntil(() => events.find((e) => e.type === 'changed' && e.document.views.length === 2), { timeout: 30_000, interval: 50 });
      expect(two.type === 'changed' && two.document.id).toBe(doc.id);
      expect(events.find((e) => e.type === 'opened')).toMatchObject({ type: 'opened', document: { id: doc.id, fileName: 'report.docx' } });
      // Over HTTP too: the same document with both views.
      const [overHttp] = await env.admin.client.documents.list.query();
      expect(overHttp.views.map((v) => v.viewId).sort()).toEqual(two.type === 'changed' ? two.document.views.map((v) => v.viewId).sort() : []);

      await typeAndWait(a, 'Edited');
      await vi.waitUntil(() => events.find((e) => e.type === 'changed' && e.document.modified), { timeout: 30_000, interval: 50 });
      expect((await env.caller().documents.list())[0].modified).toBe(true);

      env.closeViews();
      await vi.waitUntil(() => events.find((e) => e.type === 'closed' && e.id === doc.id), { timeout: 30_000, interval: 50 });
      expect(await env.admin.client.documents.list.query()).toEqual([]);
      expect(events.some((e) => e.type === 'closed' && e.id.startsWith('error'))).toBe(false);
    } finally {
      sub.unsubscribe();
    }
  });
});

describe('documents.save', () => {
  it('saves and uploads through the API (createCaller and HTTP): a PutFile with the typed text; lastUploadAt set, no longer modified', async () => {
    const c = await open(`save${env.n}`);
    await typeAndWait(c, 'Saved by admin');
    const [doc] = await env.caller().documents.list();
    const puts = env.host.of('PutFile').length;
    expect(await env.caller().documents.save({ id: doc.id })).toEqual({ saved: true });
    expect(env.host.of('PutFile')).toHaveLength(puts + 1);
    expect(fakeKitText(env.host.of('PutFile').at(-1)!.body)).toBe('Saved by admin');
    const after = (await env.caller().documents.list())[0];
    expect(after.modified).toBe(false);
    expect(after.lastUploadAt).toBeGreaterThanOrEqual(doc.openedAt);
    expect(after.lastSaveAt).toBeGreaterThanOrEqual(doc.openedAt);
    expect(after.lastUploadError).toBeUndefined();
    // An explicit save uploads even when nothing changed (IsModifiedByUser false), as the editor's Save does.
    expect(await env.admin.client.documents.save.mutate({ id: doc.id })).toEqual({ saved: true });
    expect(env.host.of('PutFile')).toHaveLength(puts + 2);
    expect(env.host.of('PutFile').at(-1)!.headers['x-ode-wopi-ismodifiedbyuser']).toBe('false');
  });

  it('a refused upload fails with save_failed and the host reason, and shows as lastUploadError', async () => {
    const c = await open(`refused${env.n}`);
    await typeAndWait(c, 'x');
    const [doc] = await env.caller().documents.list();
    env.host.answer('PutFile', { status: 401 });
    const err = await env.admin.client.documents.save.mutate({ id: doc.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    expect((err as TRPCClientError<never>).data).toMatchObject({ adminCode: 'save_failed', code: 'CONFLICT' });
    expect((err as Error).message).toMatch(/refused the upload/);
    expect((await env.caller().documents.list())[0].lastUploadError).toBeTruthy();
    expect((await env.caller().documents.list())[0].modified).toBe(true);
  });

  it('an unknown id is not_found, through createCaller and HTTP', async () => {
    await expect(env.caller().documents.save({ id: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const err = await env.admin.client.documents.close.mutate({ id: 'nope' }).catch((e: unknown) => e);
    expect((err as TRPCClientError<never>).data).toMatchObject({ adminCode: 'not_found', httpStatus: 404 });
  });
});

describe('documents.close', () => {
  it('saves the modified document (exit save), then closes its views with 4410 and it leaves the list', async () => {
    const a = await open(`close${env.n}`);
    const b = await open(`close${env.n}`);
    await typeAndWait(a, 'Closed by admin');
    const [doc] = await env.admin.client.documents.list.query();
    const puts = env.host.of('PutFile').length;
    expect(await env.admin.client.documents.close.mutate({ id: doc.id })).toEqual({ closed: true });
    expect(await a.closed()).toBe(CLOSE.adminClosed);
    expect(await b.closed()).toBe(4410);
    const put = env.host.of('PutFile').at(-1)!;
    expect(env.host.of('PutFile')).toHaveLength(puts + 1);
    expect(fakeKitText(put.body)).toBe('Closed by admin');
    expect(put.headers['x-ode-wopi-isexitsave']).toBe('true');
    expect(await env.caller().documents.list()).toEqual([]);
    expect(env.daemon.logBuffer.recent(500, 'warn').some((l) => l.msg === 'admin: closing the document')).toBe(true);
  });
});
