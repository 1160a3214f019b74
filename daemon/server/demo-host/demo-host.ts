import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { OdeConfig } from '../config/schema.ts';
import { BASE_HEADERS } from '../http/respond.ts';
import type { Route } from '../router.ts';
import { baseUrl, type Handler, type RouteContext } from '../routes/context.ts';
import { browserPath } from '../routes/hosting.ts';
import { fileIdOf } from './file-id.ts';
import { FileStore } from './file-store.ts';
import { FolderWatcher } from './folder-watcher.ts';
import { selfBase } from './self-base.ts';
import { renderStartPage } from './start-page.ts';
import { TokenStore } from './tokens.ts';
import { DEMO_FILES_PATH, DemoWopiEndpoints } from './wopi-endpoints.ts';

/** Options of the demo host: the live configuration (demo_host.*) and a logger. */
export interface DemoHostOptions {
  config: () => OdeConfig;
  log: Logger;
}

/** The built-in demo WOPI host: its routes on the daemon's listener, and its folder watcher's lifecycle. */
export interface DemoHost {
  /** The folder served (demo_host.folder, absolute). */
  readonly folder: string;
  /** Creates the folder when missing and starts watching it; resolves once the listing is complete. */
  start(): Promise<void>;
  /** Stops the watcher and ends the start pages' event streams. */
  stop(): Promise<void>;
  /** GET / (the start page), GET /demo/events, GET and POST /demo/wopi/files/<id>[/contents]. */
  readonly routes: Route[];
  /** The WOPISrc of a file in the folder, for a daemon whose public listener is `daemonUrl`. */
  wopiSrc(daemonUrl: string, name: string): string;
}

/**
 * Creates the demo host (issue 4, "Built-in host: the embedded default"): a folder of documents
 * (demo_host.folder) served over WOPI at `/demo/wopi/files/<id>` (ids: base64url of the file name), per-user
 * tokens with expiry (demo_host.token_ttl_secs, read at each issue) handed out by the start page at `/`, and a
 * chokidar watcher so the page follows the folder. Nothing happens until start().
 */
export function createDemoHost(opts: DemoHostOptions): DemoHost {
  const folder = opts.config().demo_host.folder;
  const store = new FileStore(folder);
  const tokens = new TokenStore();
  const watcher = new FolderWatcher(folder);
  const endpoints = new DemoWopiEndpoints({ store, tokens, config: opts.config, log: opts.log });
  const streams = new Set<ServerResponse>();
  let notify: NodeJS.Timeout | undefined;

  watcher.onChange((e) => {
    if (e.kind === 'add') store.appeared(e.name);
    // A save is several events (temp file, rename): one reload of the start pages a moment later.
    clearTimeout(notify);
    notify = setTimeout(() => {
      for (const s of streams) s.write('data: change\n\n');
    }, 250);
  });

  const startPage: Handler = (req, res, ctx: RouteContext) => {
    const cfg = ctx.config();
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const issued = tokens.issue(q.get('user') ?? 'Demo user', cfg.demo_host.token_ttl_secs);
    const files = watcher.list();
    const open = q.get('open') ?? undefined;
    const self = selfBase(req, cfg);
    const nonce = randomBytes(12).toString('base64');
    const html = renderStartPage({
      userName: issued.user.userName,
      editorUrl: `${baseUrl(req, cfg)}${browserPath(ctx)}/ode.html?`,
      wopiSrc: (name) => `${self}${DEMO_FILES_PATH}/${fileIdOf(name)}`,
      idOf: fileIdOf,
      files,
      token: issued.token,
      tokenTtl: issued.expiresAt,
      folder,
      openId: open && files.some((f) => fileIdOf(f.name) === open) ? open : undefined,
      version: ctx.version,
      nonce,
    });
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(html),
      // The page holds a token: never cached.
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self' ${baseUrl(req, cfg)}; frame-ancestors 'none'; base-uri 'none'`,
    });
    res.end(html);
  };

  const events: Handler = (req, res) => {
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    res.write(': the folder changed -> "data: change"\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
  };

  const wopi: Handler = (req, res, _ctx, { rest }) => endpoints.handle(req, res, rest);

  return {
    folder,
    routes: [
      { method: 'GET', path: '/', exact: true, handler: startPage },
      { method: 'GET', path: '/demo/events', exact: true, handler: events },
      { method: 'GET', path: DEMO_FILES_PATH, exact: false, handler: wopi },
      { method: 'POST', path: DEMO_FILES_PATH, exact: false, handler: wopi },
    ],
    async start() {
      await store.init();
      await watcher.start();
      opts.log.info({ folder, documents: watcher.list().length }, 'demo host: serving the folder');
    },
    async stop() {
      clearTimeout(notify);
      for (const s of streams) s.end();
      streams.clear();
      await watcher.stop();
    },
    wopiSrc(daemonUrl, name) {
      return `${daemonUrl}${DEMO_FILES_PATH}/${fileIdOf(name)}`;
    },
  };
}
