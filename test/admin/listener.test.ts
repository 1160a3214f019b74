/**
 * The admin listener against a real daemon with a real kit: every path refuses a missing or wrong token with 401
 * and a log line (HTTP, WebSocket upgrade, /metrics); the right token works over HTTP and WebSocket; rotation
 * (the token store, and `ode admin token --rotate`) applies without a restart; a unix-socket listener is 0600;
 * the daemon keeps serving after bad requests; procedures through createCaller on the daemon's own backend.
 */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../admin-api/backend.ts';
import { createContextInner } from '../../admin-api/context.ts';
import { appRouter } from '../../admin-api/router.ts';
import { createAdminListener } from '../../daemon/server/admin/listener.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { bearerWebSocket, createAdminClient, firstValues } from '../helpers/admin-client.ts';

const run = promisify(execFile);
const ode = new URL('../../bin/ode.js', import.meta.url).pathname;

let d: TestDaemon;
beforeAll(async () => {
  d = await startDaemon();
}, 120_000);
afterAll(async () => {
  await d?.stop();
});

/** GET `path` on the admin listener with `token` (none: no Authorization header). */
async function get(path: string, token?: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${d.adminUrl}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: await res.text() };
}

/** Opens a raw WebSocket to /trpc with `token`; resolves with the HTTP status of a refused upgrade, or 101. */
function upgrade(token: string | undefined, url = `${d.adminUrl!.replace('http', 'ws')}/trpc`): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = token ? new (bearerWebSocket(token))(url) : new WebSocket(url);
    ws.on('open', () => (ws.close(), resolve(101)));
    ws.on('unexpected-response', (_req, res) => (resolve(res.statusCode ?? 0), ws.terminate()));
    ws.on('error', (e) => reject(e));
  });
}

/** The refusal log lines (warn) written so far for `path`. */
function refusals(path: string) {
  return d.logBuffer.recent(5000, 'warn').filter((l) => l.msg.startsWith('admin API: refused') && l.fields.path === path);
}

describe('admin listener: authentication', () => {
  it('refuses a missing or wrong token on every path with 401, a JSON body and a warn log line', async () => {
    for (const path of ['/trpc/status.get', '/metrics', '/nowhere']) {
      const before = refusals(path).length;
      for (const token of [undefined, 'wrong-token', `${d.adminToken}x`]) {
        const r = await get(path, token);
        expect(r.status, `${path} ${token}`).toBe(401);
        expect(JSON.parse(r.body)).toMatchObject({ code: 'unauthorized' });
        expect(r.body).not.toContain('"result"');
      }
      const lines = refusals(path);
      expect(lines.length - before).toBe(3);
      expect(lines.at(-1)!.fields.remote).toMatch(/127\.0\.0\.1/);
    }
  });

  it('refuses a WebSocket upgrade without the right token (401) and logs it', async () => {
    const before = refusals('/trpc').length;
    expect(await upgrade(undefined)).toBe(401);
    expect(await upgrade('not-the-token')).toBe(401);
    expect(refusals('/trpc').length - before).toBe(2);
    expect(await upgrade(d.adminToken)).toBe(101);
  });

  it('answers the right token over HTTP (status.get, /metrics) and WebSocket (a query and status.live twice)', async () => {
    const r = await get('/trpc/status.get', d.adminToken);
    expect(r.status).toBe(200);
    const status = JSON.parse(r.body).result.data;
    expect(status.version).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    expect(status.kits.length).toBeGreaterThanOrEqual(1);

    const m = await get('/metrics', d.adminToken);
    expect(m.status).toBe(200);
    expect(m.body).toMatch(/^ode_kits\{state="ready"\} [1-9]/m);
    expect(m.body).toMatch(/^process_resident_memory_bytes [1-9]/m);

    const ws = createAdminClient(d.adminUrl!, d.adminToken, { transport: 'ws' });
    try {
      const overWs = await ws.client.status.get.query();
      expect(overWs.serverId).toBe(status.serverId);
      const live = await firstValues<ServerStatus>((h) => ws.client.status.live.subscribe({ intervalMs: 250 }, h), 2);
      expect(live).toHaveLength(2);
      expect(live[1].uptimeMs).toBeGreaterThan(live[0].uptimeMs);
      expect(live[0].serverId).toBe(status.serverId);
    } finally {
      await ws.close();
    }
  });

  it('rotation through the token store: the old token gets 401, the new one 200, without a restart', async () => {
    const old = d.server.admin.tokens.read()!.token;
    expect((await get('/trpc/status.get', old)).status).toBe(200);
    const rotated = d.server.admin.tokens.rotate();
    expect(rotated.token).not.toBe(old);
    expect((await get('/trpc/status.get', old)).status).toBe(401);
    expect((await get('/trpc/status.get', rotated.token)).status).toBe(200);
    expect(await upgrade(old)).toBe(401);
    expect(await upgrade(rotated.token)).toBe(101);
  });

  it('`ode admin token` prints the token and where it lives; --rotate makes a running daemon refuse the old one', async () => {
    const env = { ...process.env, ODE_LOG_LEVEL: 'warn' };
    const shown = await run(process.execPath, [ode, '--config', d.configFile, 'admin', 'token'], { env, timeout: 60_000 });
    const current = shown.stdout.trim();
    expect(current).toBe(d.server.admin.tokens.read()!.token);
    expect(shown.stderr).toContain(join(d.store.get().state_dir, 'admin_token'));
    expect(statSync(join(d.store.get().state_dir, 'admin_token')).mode & 0o777).toBe(0o600);

    const rotated = await run(process.execPath, [ode, '--config', d.configFile, 'admin', 'token', '--rotate'], { env, timeout: 60_000 });
    const next = rotated.stdout.trim();
    expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(next).not.toBe(current);
    expect((await get('/trpc/status.get', current)).status).toBe(401);
    expect((await get('/trpc/status.get', next)).status).toBe(200);
  }, 120_000);
});

describe('admin listener: unix socket and robustness', () => {
  it('listens on a unix socket with mode 0600 and still checks the token; refuses a path that is not a socket', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ode-admin-sock-'));
    const socket = join(dir, 'admin.sock');
    const cfg = d.store.get();
    const make = () =>
      createAdminListener({
        backend: d.server.admin.backend,
        config: () => ({ ...cfg, admin: { ...cfg.admin, socket } }),
        log: pino({ level: 'silent' }),
        tokenStore: d.server.admin.tokens,
        metrics: d.server.admin.metrics,
      });
    const listener = make();
    try {
      expect(await listener.start()).toEqual({ socket });
      expect(statSync(socket).mode & 0o777).toBe(0o600);
      const token = d.server.admin.tokens.read()!.token;
      const over = (auth: string | undefined) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request({ socketPath: socket, path: '/trpc/status.get', headers: auth ? { Authorization: `Bearer ${auth}` } : {} }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end();
        });
      expect((await over(undefined)).status).toBe(401);
      const ok = await over(token);
      expect(ok.status).toBe(200);
      const status = JSON.parse(ok.body).result.data;
      expect(status.kits.length).toBeGreaterThanOrEqual(1);
      for (const k of status.kits) {
        expect(d.server.pool.kitPids()).toContain(k.pid);
        expect(k.rssBytes).toBeGreaterThan(0);
      }
    } finally {
      await listener.stop();
    }
    // A regular file where the socket should go is not removed: start refuses and the file stays as it was.
    writeFileSync(socket, 'not a socket');
    await expect(make().start()).rejects.toThrow(/not a socket/);
    expect(readFileSync(socket, 'utf8')).toBe('not a socket');
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps serving after bad requests (unknown procedure, bad input, garbage WebSocket frames)', async () => {
    const t = d.server.admin.tokens.read()!.token;
    expect((await get('/trpc/status.nope', t)).status).toBe(404);
    expect((await get('/trpc/logs.recent?input=%7Bnot-json', t)).status).toBe(400);
    expect((await get(`/trpc/logs.recent?input=${encodeURIComponent(JSON.stringify({ limit: -5 }))}`, t)).status).toBe(400);
    const res = await fetch(`${d.adminUrl}/trpc/documents.killKit`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
      body: '{"pid":',
    });
    expect(res.status).toBe(400);
    await new Promise<void>((resolve, reject) => {
      const ws = new (bearerWebSocket(t))(`${d.adminUrl!.replace('http', 'ws')}/trpc`);
      ws.on('open', () => {
        ws.send('this is not JSON');
        ws.send(JSON.stringify({ id: 1, method: 'query', params: { path: 'no.such', input: null } }));
      });
      ws.on('message', (m) => {
        const msg = JSON.parse(String(m)) as { id: number | null; error?: unknown };
        if (msg.id === 1) {
          expect(msg.error).toBeDefined();
          ws.close();
          resolve();
        }
      });
      ws.on('error', reject);
    });
    expect((await get('/trpc/status.get', t)).status).toBe(200);
    expect((await fetch(`${d.url}/health`)).status).toBe(200);
  });
});

describe("admin API through createCaller on the running daemon's backend", () => {
  const caller = () => appRouter.createCaller(createContextInner(d.server.admin.backend));

  it('status.get, logs.recent with a level filter, and updates.get', async () => {
    const s = await caller().status.get();
    expect(s.kits.map((k) => k.pid).sort()).toEqual([...d.server.pool.kitPids()].sort());
    expect(s.daemon.pid).toBe(process.pid);
    expect(s.daemon.rssBytes).toBeGreaterThan(0);
    expect(s.maxKits).toBe(d.store.get().kits.max);
    expect(s.queue).toEqual({ length: 0, max: d.store.get().limits.queue });

    const warn = await caller().logs.recent({ level: 'warn', limit: 5000 });
    expect(warn.length).toBeGreaterThan(0); // the refusals above
    expect(warn.every((l) => l.level === 'warn' || l.level === 'error' || l.level === 'fatal')).toBe(true);
    const info = await caller().logs.recent({ level: 'info', limit: 5000 });
    expect(info.some((l) => l.msg === 'admin API is listening')).toBe(true);
    const two = await caller().logs.recent({ level: 'info', limit: 2 });
    expect(two).toEqual(info.slice(-2));

    await expect(caller().documents.killKit({ pid: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
