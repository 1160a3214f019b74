/**
 * The admin listener (docs/admin-api.md): a node:http server apart from the public port, on `admin.listen` :
 * `admin.port` (default 127.0.0.1:9981) or on the unix socket `admin.socket` (mode 0600). It serves
 *
 * | path       | what                                                                  |
 * |------------|-----------------------------------------------------------------------|
 * | `/trpc/*`  | the admin API over HTTP (tRPC v11 standalone handler)                 |
 * | `/trpc`    | the admin API over WebSocket (upgrade; queries, mutations, subscriptions) |
 * | `/metrics` | Prometheus metrics (metrics.ts)                                        |
 *
 * Every request and every upgrade must first carry `Authorization: Bearer <admin token>` (certs/admin-token.ts);
 * anything else gets 401 `{"code":"unauthorized","message":...}` and a warn log line naming the remote address
 * and the path, and nothing else answers. The token is read at start and again when it may have changed, so
 * `ode admin token --rotate` applies without a restart: a token in the 0600 file is re-read as soon as the file
 * changes (one stat per request); a token in the keyring, which cannot be watched, at most once a second (a
 * request whose token does not match waits for that next read rather than being refused on a stale copy).
 * Fastify-style factory: nothing listens until start().
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { chmodSync, lstatSync, statSync, unlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import type { Logger } from 'pino';
import type { AdminBackend } from '../../../admin-api/backend.ts';
import { createContextInner } from '../../../admin-api/context.ts';
import { appRouter } from '../../../admin-api/router.ts';
import { tokenMatches, type AdminTokenStore } from '../../../certs/admin-token.ts';
import type { OdeConfig } from '../config/schema.ts';
import type { AdminMetrics } from './metrics.ts';

/** What the listener needs: the backend to mount, the config (admin.*), a logger, the token store, the metrics. */
export interface AdminListenerOptions {
  backend: AdminBackend;
  config: () => OdeConfig;
  log: Logger;
  tokenStore: Pick<AdminTokenStore, 'getOrCreate' | 'read' | 'path'>;
  metrics: AdminMetrics;
}

/** Where the listener is bound: a URL (`http://127.0.0.1:9981`) or a unix socket path. */
export type AdminAddress = { url: string; port: number } | { socket: string };

/** A startable admin listener. */
export interface AdminListener {
  /**
   * Reads (or creates) the admin token and listens: on `admin.socket` when set, else on `admin.listen` and `port`
   * (default `admin.port`; 0 picks a free port). Rejects when the address is taken or the socket path is not a socket.
   */
  start(port?: number): Promise<AdminAddress>;
  /** Closes every connection and WebSocket and removes the socket file. */
  stop(): Promise<void>;
}

/** The least time between two reads of the token store caused by a mismatched token (ms). */
const REREAD_MS = 1000;

/** The bearer token of a request, or undefined. */
function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/** Creates the admin listener (see the module docstring). */
export function createAdminListener(opts: AdminListenerOptions): AdminListener {
  const log = opts.log.child({ component: 'admin' });
  let expected = '';
  let where: 'keyring' | 'file' = 'file';
  /** The token file's identity when it was last read (a rotation renames a new file into place). */
  let fileStamp = '';
  let lastRead = 0;
  let rereading: Promise<void> | undefined;
  let server: Server | undefined;
  let wss: WebSocketServer | undefined;
  let socketPath: string | undefined;

  /** Re-reads the store at most once per REREAD_MS; callers arriving inside the window wait for the next read. */
  const reread = (): Promise<void> => {
    rereading ??= new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, lastRead + REREAD_MS - Date.now()))).then(() => {
      readNow();
      rereading = undefined;
    });
    return rereading;
  };

  const stampOfFile = (): string => {
    try {
      const s = statSync(opts.tokenStore.path);
      return `${s.ino}:${s.mtimeMs}:${s.size}`;
    } catch {
      return '';
    }
  };

  const readNow = (): void => {
    try {
      fileStamp = stampOfFile();
      const now = opts.tokenStore.read();
      if (now && now.token !== expected) log.info({ where: now.where }, 'admin token changed; the new one applies now');
      if (now) ({ token: expected, where } = now);
    } catch (e) {
      log.error({ err: (e as Error).message }, 'cannot re-read the admin token; keeping the one read before');
    }
    lastRead = Date.now();
  };

  /** Re-reads the token when it may have changed: the file changed, or the keyring's copy is over a second old. */
  const refreshIfStale = (): void => {
    if (where === 'file' ? stampOfFile() !== fileStamp : Date.now() - lastRead >= REREAD_MS) readNow();
  };

  /** True when the request carries the current token (for a keyring token, re-reading it once when it does not match). */
  const authorized = async (req: IncomingMessage): Promise<boolean> => {
    const presented = bearer(req);
    refreshIfStale();
    if (tokenMatches(presented, expected)) return true;
    // A changed file was noticed above; only the keyring's copy may be stale here.
    if (!presented || where === 'file') return false;
    await reread();
    return tokenMatches(presented, expected);
  };

  const refuse = (req: IncomingMessage, how: 'request' | 'upgrade') => {
    const path = (req.url ?? '').split('?')[0];
    log.warn(
      { remote: req.socket.remoteAddress || 'unix socket', path, method: req.method, how, token: bearer(req) ? 'wrong' : 'missing' },
      'admin API: refused, no valid admin token',
    );
    return JSON.stringify({ code: 'unauthorized', message: 'The admin API needs "Authorization: Bearer <admin token>"; `ode admin token` prints it.' });
  };

  const trpc = createHTTPHandler({ router: appRouter, basePath: '/trpc/', createContext: () => createContextInner(opts.backend) });

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    if (!(await authorized(req))) {
      const body = refuse(req, 'request');
      res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer realm="ode-admin"', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      const text = await opts.metrics.text();
      res.writeHead(200, { 'Content-Type': opts.metrics.contentType });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    if (path.startsWith('/trpc/')) return trpc(req, res);
    const body = JSON.stringify({ code: 'not_found', message: `No admin route ${path}: the admin API is at /trpc, metrics at /metrics.` });
    res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };

  const onUpgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const ok = await authorized(req);
    const path = (req.url ?? '').split('?')[0];
    if (!ok || path !== '/trpc') {
      const [status, body] = ok
        ? ['404 Not Found', JSON.stringify({ code: 'not_found', message: 'WebSocket upgrades are served at /trpc only.' })]
        : ['401 Unauthorized', refuse(req, 'upgrade')];
      socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      socket.destroy();
      return;
    }
    wss!.handleUpgrade(req, socket, head, (ws) => wss!.emit('connection', ws, req));
  };

  const listen = (srv: Server, target: { path: string } | { port: number; host: string }) =>
    new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      const done = () => (srv.off('error', reject), resolve());
      if ('path' in target) srv.listen(target.path, done);
      else srv.listen(target.port, target.host, done);
    });

  return {
    async start(port) {
      ({ token: expected, where } = opts.tokenStore.getOrCreate());
      fileStamp = stampOfFile();
      lastRead = Date.now();
      const cfg = opts.config().admin;
      wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
      applyWSSHandler({
        wss,
        router: appRouter,
        createContext: () => createContextInner(opts.backend),
        keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
      });
      server = createServer((req, res) => {
        onRequest(req, res).catch((e: Error) => {
          log.error({ err: e.message, path: req.url }, 'admin request failed');
          if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ code: 'internal', message: 'the admin request failed; see the server log' }));
        });
      });
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void onUpgrade(req, socket, head).catch(() => socket.destroy()));
      if (cfg.socket) {
        removeStaleSocket(cfg.socket);
        await listen(server, { path: cfg.socket });
        chmodSync(cfg.socket, 0o600);
        socketPath = cfg.socket;
        log.info({ socket: cfg.socket }, 'admin API is listening');
        return { socket: cfg.socket };
      }
      await listen(server, { port: port ?? cfg.port, host: cfg.listen });
      const bound = (server.address() as AddressInfo).port;
      const host = cfg.listen.includes(':') ? `[${cfg.listen}]` : cfg.listen;
      const url = `http://${host}:${bound}`;
      log.info({ url }, 'admin API is listening');
      return { url, port: bound };
    },
    async stop() {
      for (const ws of wss?.clients ?? []) ws.terminate();
      await new Promise<void>((resolve) => (wss ? wss.close(() => resolve()) : resolve()));
      await new Promise<void>((resolve) => {
        if (!server?.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (socketPath) removeStaleSocket(socketPath);
      server = undefined;
      wss = undefined;
    },
  };
}

/**
 * Removes a socket file a previous run left behind (listen fails with EADDRINUSE on it). Anything else at that
 * path is not ours to delete: that throws, naming the path.
 */
function removeStaleSocket(path: string): void {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return; // nothing there
  }
  if (!isSocket) throw new Error(`admin.socket ${path} exists and is not a socket; remove it or choose another path`);
  unlinkSync(path);
}
