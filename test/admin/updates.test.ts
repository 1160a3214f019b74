import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContextInner } from '../../admin-api/context.ts';
import { appRouter, type AppRouter } from '../../admin-api/router.ts';
import { createCallerFactory } from '../../admin-api/trpc.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';

/** Ode's version, read here from package.json (not from the code under test). */
const ODE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));

/** What the test update server answers: the two lines of the spec, or a scripted status and body. */
type Mode = { lines: { development: string; release: string } } | { status: number; body: string };

/**
 * A small real update server (the one thing outside Ode this test fakes): it records every query and answers as
 * the spec says, written here independently of Ode's feed: `product` omitted or `Ode Development Edition` gets the
 * development line, any other product the release line.
 */
async function startUpdateServer(): Promise<{
  url: string;
  requests: Array<{ path: string; product: string | null; version: string | null }>;
  mode: Mode;
  stop(): Promise<void>;
}> {
  const state = {
    url: '',
    requests: [] as Array<{ path: string; product: string | null; version: string | null }>,
    mode: { lines: { development: '30.0.0', release: '25.2.1' } } as Mode,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    state.requests.push({ path: u.pathname, product: u.searchParams.get('product'), version: u.searchParams.get('version') });
    const mode = state.mode;
    if ('status' in mode) {
      res.writeHead(mode.status, { 'Content-Type': 'application/json' });
      return res.end(mode.body);
    }
    const product = u.searchParams.get('product');
    const v = product === null || product === 'Ode Development Edition' ? mode.lines.development : mode.lines.release;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ odewsd_version: v }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

const callerFor = createCallerFactory(appRouter);

describe("update check (spec: Update check) and Ode's own update feed", () => {
  const env = useEditing({ readyKits: 1, maxKits: 1 });
  let upd: Awaited<ReturnType<typeof startUpdateServer>>;
  let caller: ReturnType<typeof callerFor>;
  beforeAll(async () => {
    upd = await startUpdateServer();
    caller = callerFor(createContextInner(env.daemon.server.admin.backend));
  });
  afterAll(async () => {
    await upd?.stop();
  });
  const warnings = (msg: string) => env.daemon.logBuffer.recent(5000, 'warn').filter((l) => l.msg === msg).length;
  const feed = (development: string, release: string, url = '') => env.daemon.reconfigure({ updates: { url, feed: { development, release } } });

  it('no updates.url: configured false, and nothing is asked', async () => {
    const info = await caller.updates.get({ refresh: true });
    expect(info).toEqual({ configured: false, product: 'Ode', current: ODE_VERSION, newer: false });
    expect(upd.requests).toHaveLength(0);
  });

  it('/UpdateCheck answers the development line for no product and "Ode Development Edition", the release line for "Ode"', async () => {
    feed('99.0.0.1', '24.04.5.2');
    const ask = async (query: string) => {
      const res = await fetch(`${env.daemon.url}/UpdateCheck${query}`);
      return {
        status: res.status,
        body: (await res.json()) as Record<string, unknown>,
        cache: res.headers.get('cache-control'),
        cors: res.headers.get('access-control-allow-origin'),
      };
    };
    expect(await ask('')).toEqual({ status: 200, body: { odewsd_version: '99.0.0.1' }, cache: 'no-cache', cors: '*' });
    expect((await ask('?product=Ode%20Development%20Edition&version=0.1.0')).body).toEqual({ odewsd_version: '99.0.0.1' });
    expect((await ask('?product=Ode&version=0.1.0')).body).toEqual({ odewsd_version: '24.04.5.2' });
    expect((await ask('?product=SomethingElse')).body).toEqual({ odewsd_version: '24.04.5.2' });
    // An empty line is a 404 with a stable code and a log line.
    feed('', '24.04.5.2');
    const before = warnings('update feed line is empty');
    const missing = await ask('');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'no_update_line', line: 'development' });
    expect(missing.body.message).toMatch(/updates\.feed\.development/);
    expect(warnings('update feed line is empty')).toBe(before + 1);
    expect((await ask('?product=Ode')).status).toBe(200);
  });

  it("the check against Ode's own feed: product=Ode gets the release line; cached until refresh; newer or not", async () => {
    feed('99.0.0', '0.0.9', env.daemon.url);
    const first = await caller.updates.get({ refresh: false });
    expect(first).toMatchObject({ configured: true, url: env.daemon.url, product: 'Ode', current: ODE_VERSION, available: '0.0.9', newer: false });
    expect(first.error).toBeUndefined();
    expect(typeof first.checkedAt).toBe('number');
    // The feed moves on; the cached answer stays until a refresh (check_hours is 24).
    feed('99.0.0', '24.04.5.2', env.daemon.url);
    expect((await caller.updates.get({ refresh: false })).available).toBe('0.0.9');
    const refreshed = await caller.updates.get({ refresh: true });
    expect(refreshed).toMatchObject({ available: '24.04.5.2', newer: true });
    expect(refreshed.checkedAt!).toBeGreaterThanOrEqual(first.checkedAt!);
  });

  it('the check against another update server: sends product=Ode and version, one request for concurrent checks', async () => {
    upd.mode = { lines: { development: '30.0.0', release: '25.2.1' } };
    feed('', '', `${upd.url}/`);
    const n = upd.requests.length;
    const [a, b] = await Promise.all([caller.updates.get({ refresh: true }), caller.updates.get({ refresh: true })]);
    expect(upd.requests.length).toBe(n + 1);
    expect(upd.requests.at(-1)).toEqual({ path: '/UpdateCheck', product: 'Ode', version: ODE_VERSION });
    expect(a).toMatchObject({ configured: true, url: `${upd.url}/`, available: '25.2.1', newer: true });
    expect(b).toEqual(a);
    // Through the admin listener over HTTP too, with the admin token.
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${env.daemon.adminUrl}/trpc`, headers: { Authorization: `Bearer ${env.daemon.adminToken}` } })],
    });
    expect(await client.updates.get.query({})).toMatchObject({ available: '25.2.1', newer: true });
  });

  it('a server answering 500, bad JSON or no odewsd_version gives `error` and keeps the cached answer; one log line per failure streak', async () => {
    const before = warnings('the update check failed; keeping the last good answer');
    const failures: Array<[Mode, RegExp]> = [
      [{ status: 500, body: '{"odewsd_version":"99.0"}' }, /HTTP 500/],
      [{ status: 200, body: '<html>oops</html>' }, /not JSON/],
      [{ status: 200, body: '{"version":"99.0"}' }, /odewsd_version/],
      [{ status: 200, body: '{"odewsd_version":"latest"}' }, /not a version/],
    ];
    for (const [mode, why] of failures) {
      upd.mode = mode;
      const info = await caller.updates.get({ refresh: true });
      expect(info.error, JSON.stringify(mode)).toMatch(why);
      expect(info).toMatchObject({ configured: true, available: '25.2.1', newer: true });
    }
    expect(warnings('the update check failed; keeping the last good answer')).toBe(before + 1);
    upd.mode = { lines: { development: '30.0.0', release: '0.0.1' } };
    const ok = await caller.updates.get({ refresh: true });
    expect(ok.error).toBeUndefined();
    expect(ok).toMatchObject({ available: '0.0.1', newer: false });
    expect(env.daemon.logBuffer.recent(5000, 'info').some((l) => l.msg === 'the update check works again')).toBe(true);
  });

  it('a new updates.url clears the cache; an unreachable server says so', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    feed('', '', deadUrl);
    const info = await caller.updates.get({ refresh: false });
    expect(info).toMatchObject({ configured: true, url: deadUrl, newer: false });
    expect(info.available).toBeUndefined();
    expect(info.error).toMatch(/could not reach the update server.*ECONNREFUSED/);
  });

  it('an IsAdminUser view gets updateAvailable after status; a view without IsAdminUser never does', async () => {
    upd.mode = { lines: { development: '30.0.0', release: '25.2.1' } };
    feed('', '', upd.url);
    const src = env.host.addFile('upd-admin', 'letter.docx', DOCX, { IsAdminUser: true });
    const admin = await env.open(src);
    const notice = await admin.client.next('updateAvailable');
    expect(notice).toEqual({ type: 'updateAvailable', current: ODE_VERSION, available: '25.2.1' });
    const types = admin.client.messages.map((m) => m.type);
    expect(types.indexOf('updateAvailable')).toBeGreaterThan(types.indexOf('status'));

    // The same document, a second user who is not an admin. The check is cached now, so a notice would come right
    // after status and before any tile (tiles are served only once the view is live, after the notice was decided).
    env.host.files.get('upd-admin')!.info = { IsAdminUser: false };
    const user = await env.open(src);
    expect(user.status.fileInfo.IsAdminUser).toBe(false);
    user.client.send({ type: 'tiles', part: 0, width: 256, height: 256, tileTwipWidth: 3840, tileTwipHeight: 3840, positions: [[0, 0]] });
    await expect.poll(() => user.client.tiles.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(user.client.messages.map((m) => m.type)).not.toContain('updateAvailable');
    expect(admin.client.messages.filter((m) => m.type === 'updateAvailable')).toHaveLength(1);
  });
});
