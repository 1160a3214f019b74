import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OdeError } from '../../daemon/server/errors.ts';
import { HostSettingsClient } from '../../daemon/server/settings/host-settings.ts';
import { agentFetch, idle, type StaleKeepAliveHost, startStaleKeepAliveHost } from '../helpers/stale-keepalive-host.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as OdeError,
  );

/**
 * The host settings client (CheckFileInfo SharedSettings/UserSettings: the `{uri, stamp}` listing and each file) meets
 * a host that closes a kept-alive connection as the next request goes out on it, as the WOPI client's GETs do
 * (keep-alive-retry.test.ts): played by a node http server that destroys, unanswered, every request arriving on a
 * connection it already answered. A GET is sent again at once, once, on a new connection; an upload (POST) and a
 * DELETE are not.
 */
describe('host settings client: a kept-alive connection closed by the host', () => {
  let host: StaleKeepAliveHost;
  let base: URL;
  let agent: Agent;

  beforeAll(async () => {
    host = await startStaleKeepAliveHost((_req, res, path) => {
      if (path.endsWith('/wopi/settings'))
        return void res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ kind: 'user', autotext: [{ stamp: 's1', uri: `${base.origin}/wopi/settings/file/a.bau` }] }));
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end('the file');
    });
    base = new URL(`${host.origin}/wopi/settings`);
  });
  afterAll(async () => host.stop());
  beforeEach(() => {
    host.seen.length = 0;
    agent = new Agent();
  });
  afterEach(async () => {
    await agent.destroy();
  });

  const client = () => new HostSettingsClient({ timeoutMs: 10_000, fetch: agentFetch(agent) });

  it('the settings listing GET on a connection the host closes is sent again at once on a new one, and answers', async () => {
    const c = client();
    expect((await c.list(base, 'tok', 'userconfig')).kind).toBe('user');
    await idle();
    expect((await c.list(base, 'tok', 'userconfig')).settings.autotext?.[0]?.stamp).toBe('s1');
    expect(host.seen.map((s) => s.reused)).toEqual([false, true, false]);
  });

  it("a listed file's GET likewise", async () => {
    const c = client();
    const listing = await c.list(base, 'tok', 'userconfig');
    await idle();
    expect((await c.download(base, 'tok', listing.settings.autotext![0]!.uri)).toString()).toBe('the file');
    expect(host.seen.map((s) => [s.path.endsWith('/a.bau'), s.reused])).toEqual([
      [false, false],
      [true, true],
      [true, false],
    ]);
  });

  it('an upload (POST) and a DELETE are not sent again', async () => {
    const c = client();
    await c.list(base, 'tok', 'userconfig');
    await idle();
    const e = await fail(c.upload(base, 'tok', '/settings/userconfig/autotext/a.bau', new Uint8Array([1, 2])));
    expect(e).toBeInstanceOf(OdeError);
    expect(e?.code).toBe('settings_host_error');
    expect(host.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
    await c.list(base, 'tok', 'userconfig');
    await idle();
    expect((await fail(c.remove(base, 'tok', '/settings/userconfig/autotext/a.bau')))?.code).toBe('settings_host_error');
    expect(host.seen.filter((s) => s.method === 'DELETE')).toHaveLength(1);
  });
});
