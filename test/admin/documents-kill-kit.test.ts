/**
 * Admin API `documents.killKit` against a real daemon with real kits, a fake WOPI host and a real editor WebSocket
 * client: killing a kit ends its process (LibreOffice with it) while the daemon keeps serving, an editing document
 * is rebuilt in a fresh kit. The rest of the admin `documents` API runs with fake kits: documents.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { useDocumentTests } from '../helpers/editing-setup.ts';

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

const env = useDocumentTests({ readyKits: 2, maxKits: 4, file: DOCX, admin: true });
const open = env.openFile;

describe('documents.killKit', () => {
  it("kills an editing document's kit: the process is gone, the document is rebuilt in a fresh kit (edit journal) and its view reloaded, and the daemon keeps serving (discovery, a conversion)", async () => {
    const c = await open(`kill${env.n}`);
    const [doc] = await env.caller().documents.list();
    const pid = doc.kitPid!;
    expect(alive(pid)).toBe(true);
    const from = c.messages.length;
    expect(await env.admin.client.documents.killKit.mutate({ pid })).toEqual({ killed: true });
    expect(alive(pid)).toBe(false);
    // docs/reliability.md: a kit crash rebuilds the document from its journal; the view stays open and is reloaded.
    await c.next('reloaded', () => true, 60_000, from);
    await vi.waitUntil(
      async () => {
        const docs = await env.caller().documents.list();
        return docs.length === 1 && docs[0].kitPid !== undefined && docs[0].kitPid !== pid && alive(docs[0].kitPid);
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(c.messages.slice(from).some((m) => m.type === 'kitDied')).toBe(false);
    expect((await fetch(`${env.daemon.url}/hosting/discovery`)).status).toBe(200);
    const r = await postConvert(env.daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'properties/documentProperties.docx'));
    expect(r.status).toBe(200);
    expect(r.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('kills an idle kit (createCaller); an unknown pid is not_found and kills nothing', async () => {
    const before = env.daemon.server.pool.kitPids();
    await expect(env.caller().documents.killKit({ pid: 999_999_999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(env.caller().documents.killKit({ pid: process.pid })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(alive(process.pid)).toBe(true);
    const pid = before[0];
    await env.caller().documents.killKit({ pid });
    expect(alive(pid)).toBe(false);
    const r = await postConvert(env.daemon.url, '/ode/convert-to/pdf', join(CORPUS, 'properties/documentProperties.docx'));
    expect(r.status).toBe(200);
  });
});
