/**
 * Admin API `documents.killKit` against a real daemon with real kits, a fake WOPI host and a real editor WebSocket
 * client: killing a kit ends its process (LibreOffice with it) while the daemon keeps serving, an editing document
 * is rebuilt in a fresh kit. The rest of the admin `documents` API runs with fake kits: documents.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createContextInner } from '../../admin-api/context.ts';
import { appRouter } from '../../admin-api/router.ts';
import { createCallerFactory } from '../../admin-api/trpc.ts';
import { createAdminClient, type AdminTestClient } from '../helpers/admin-client.ts';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost, publicKeyFromDiscovery } from '../helpers/fake-wopi-host.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/** True while a process with `pid` exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

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

beforeAll(async () => {
  host = await FakeWopiHost.start();
  daemon = await startDaemon({ kits: { prespawn: 2, max: 4 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 2);
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

describe('documents.killKit', () => {
  it("kills an editing document's kit: the process is gone, the document is rebuilt in a fresh kit (edit journal) and its view reloaded, and the daemon keeps serving (discovery, a conversion)", async () => {
    const c = await open(`kill${n}`);
    const [doc] = await caller().documents.list();
    const pid = doc.kitPid!;
    expect(alive(pid)).toBe(true);
    const from = c.messages.length;
    expect(await admin.client.documents.killKit.mutate({ pid })).toEqual({ killed: true });
    expect(alive(pid)).toBe(false);
    // docs/reliability.md: a kit crash rebuilds the document from its journal; the view stays open and is reloaded.
    await c.next('reloaded', () => true, 60_000, from);
    await until(async () => {
      const docs = await caller().documents.list();
      return docs.length === 1 && docs[0].kitPid !== undefined && docs[0].kitPid !== pid && alive(docs[0].kitPid);
    }, 'the document to run in a fresh kit');
    expect(c.messages.slice(from).some((m) => m.type === 'kitDied')).toBe(false);
    expect((await fetch(`${daemon.url}/hosting/discovery`)).status).toBe(200);
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'properties/documentProperties.docx'));
    expect(r.status).toBe(200);
    expect(r.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('kills an idle kit (createCaller); an unknown pid is not_found and kills nothing', async () => {
    const before = daemon.server.pool.kitPids();
    await expect(caller().documents.killKit({ pid: 999_999_999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller().documents.killKit({ pid: process.pid })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(alive(process.pid)).toBe(true);
    const pid = before[0];
    await caller().documents.killKit({ pid });
    expect(alive(pid)).toBe(false);
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'properties/documentProperties.docx'));
    expect(r.status).toBe(200);
  });
});
