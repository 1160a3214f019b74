import type { IncomingMessage } from 'node:http';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WopiClient } from '../../daemon/server/wopi/wopi-client.ts';
import type { WopiError } from '../../daemon/server/wopi/wopi-error.ts';
import { parseWopiSrc } from '../../daemon/server/wopi/wopi-src.ts';
import { agentFetch, idle, type StaleKeepAliveHost, startStaleKeepAliveHost } from '../helpers/stale-keepalive-host.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as WopiError,
  );

/**
 * Issue 17, item 2: a host that closes a kept-alive connection just as the next request goes out on it (its
 * keep-alive time-out racing the request: undici's `UND_ERR_SOCKET` "other side closed", seen at load 30 on
 * CheckFileInfo). Played deterministically by a real node http server that destroys, unanswered, every request that
 * arrives on a connection it already answered (what a server whose keepAliveTimeout just ended does). The client sends
 * a GET again at once, once, on a new connection; a POST, a time-out and an HTTP error are not sent again.
 */
describe('WOPI client: a kept-alive connection closed by the host', () => {
  let host: StaleKeepAliveHost;
  let base: string;
  /** Answers by path: a status, or 'hang' (never answers). */
  const special = new Map<string, number | 'hang'>();
  /** Each test's own connection pool (undici's Agent and fetch, as the daemon's HostTls uses them). */
  let agent: Agent;

  beforeAll(async () => {
    host = await startStaleKeepAliveHost((_req, res, path) => {
      const s = special.get(path);
      if (s === 'hang') return;
      if (typeof s === 'number') return void res.writeHead(s).end('no');
      if (path.endsWith('/contents')) return void res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end('the bytes');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ BaseFileName: 'a.docx', OwnerId: 'o', UserId: 'u', Size: 9 }));
    });
    base = host.origin;
  });
  afterAll(async () => host.stop());
  beforeEach(() => {
    host.seen.length = 0;
    special.clear();
    host.reused = 'destroy';
    agent = new Agent();
  });
  afterEach(async () => {
    await agent.destroy();
  });

  const client = (timeoutMs = 10_000) => new WopiClient({ timeoutMs, compatHeaders: false, fetch: agentFetch(agent) });

  it('CheckFileInfo on a connection the host closes is sent again at once on a new one, and answers', async () => {
    const c = client();
    const src = parseWopiSrc(`${base}/wopi/files/ka1`);
    expect((await c.checkFileInfo(src, 'tok')).BaseFileName).toBe('a.docx');
    await idle();
    // The second request goes out on the kept-alive connection, which the host destroys.
    expect((await c.checkFileInfo(src, 'tok')).BaseFileName).toBe('a.docx');
    expect(host.seen.map((s) => s.reused)).toEqual([false, true, false]);
  });

  it('GetFile (the /contents GET) likewise', async () => {
    const c = client();
    const src = parseWopiSrc(`${base}/wopi/files/ka2`);
    await c.checkFileInfo(src, 'tok');
    await idle();
    expect((await c.getFile(src, 'tok')).toString()).toBe('the bytes');
    expect(host.seen.map((s) => [s.path.endsWith('/contents'), s.reused])).toEqual([
      [false, false],
      [true, true],
      [true, false],
    ]);
  });

  it('a GET is sent again once only: a host that closes every connection fails it as unavailable', async () => {
    const c = client();
    const src = parseWopiSrc(`${base}/wopi/files/ka3`);
    await c.checkFileInfo(src, 'tok');
    await idle();
    // From now on every request is destroyed, also on a new connection.
    const destroyAll = (req: IncomingMessage) => req.socket.destroy();
    host.server.prependListener('request', destroyAll);
    try {
      const e = await fail(c.checkFileInfo(src, 'tok'));
      expect(e?.kind).toBe('unavailable');
      expect(host.seen.map((s) => s.reused)).toEqual([false, true, false]);
    } finally {
      host.server.off('request', destroyAll);
    }
  });

  it('PutFile (a POST) on a connection the host closes is not sent again by the client', async () => {
    const c = client();
    const src = parseWopiSrc(`${base}/wopi/files/ka4`);
    await c.checkFileInfo(src, 'tok');
    await idle();
    const e = await fail(c.putFile(src, 'tok', new Uint8Array([1, 2, 3]), { isModifiedByUser: true, isAutosave: false, isExitSave: false }));
    expect(e?.kind).toBe('unavailable');
    expect(host.seen.filter((s) => s.method === 'POST').map((s) => s.reused)).toEqual([true]);
  });

  it('an HTTP error and a time-out are not sent again', async () => {
    host.reused = 'answer';
    const c = client(800);
    special.set('/wopi/files/ka5', 500);
    expect((await fail(c.checkFileInfo(parseWopiSrc(`${base}/wopi/files/ka5`), 'tok')))?.kind).toBe('unavailable');
    expect(host.seen.filter((s) => s.path === '/wopi/files/ka5')).toHaveLength(1);
    special.set('/wopi/files/ka6', 'hang');
    const e = await fail(c.checkFileInfo(parseWopiSrc(`${base}/wopi/files/ka6`), 'tok'));
    expect(e?.kind).toBe('unavailable');
    expect(e?.message).toMatch(/no answer within 800 ms/);
    expect(host.seen.filter((s) => s.path === '/wopi/files/ka6')).toHaveLength(1);
  });
});
