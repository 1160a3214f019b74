/**
 * The only way external data in a document (linked images, OLE and section links, spreadsheet external
 * references, remote fonts) leaves a kit: an HTTP proxy that the daemon serves on a unix socket, bound into each
 * sandbox, which passes requests only to the hosts of `net.lok_allow.host` (Collabora's `net.lok_allow`: whole-host
 * regular expressions, case-insensitive) and refuses everything else with 403. Plain `http://` requests are
 * forwarded (absolute-form request line, RFC 9112 section 3.2.2); `https://` goes through `CONNECT host:port`
 * (RFC 9110 section 9.3.6) as an opaque tunnel. Each request or tunnel has a time limit
 * (`security.external_data.timeout_secs`) and a size limit (`security.external_data.max_mb`, bytes from the
 * remote host); past either it is cut. The kit side (daemon/kit/fetch-bridge.ts) listens on the kit's own
 * loopback and relays to this socket, and LibreOffice is pointed at it with `http_proxy`/`https_proxy`.
 *
 * Why home-made on node:http rather than a proxy package: the decisions (allow-list per host, byte and time
 * caps, one log line per request) are the point, and the generic forward proxies on npm offer none of the caps.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { compileAllowList } from '../http/post-allow.ts';

/** What the proxy reads on every request (so live config edits apply at once). */
export interface FetchProxyPolicy {
  /** Host patterns (net.lok_allow.host). Empty: every request is refused. */
  hosts: readonly string[];
  /** Time limit of one request or tunnel, in ms. */
  timeoutMs: number;
  /** Most bytes taken from the remote host for one request or tunnel. */
  maxBytes: number;
}

/** Counts since start, for tests and the admin API. */
export interface FetchProxyStats {
  allowed: number;
  refused: number;
  cut: number;
}

function hostOf(raw: string): string {
  return raw.replace(/^\[|\]$/g, '').toLowerCase();
}

/** The allow-listed fetch proxy (see the module docstring). */
export class FetchProxy {
  readonly socketPath: string;
  readonly stats: FetchProxyStats = { allowed: 0, refused: 0, cut: 0 };
  private readonly server: Server;
  private readonly policy: () => FetchProxyPolicy;
  private readonly log: Logger;
  private readonly open = new Set<Socket | Duplex>();

  constructor(opts: { socketPath: string; policy: () => FetchProxyPolicy; log: Logger }) {
    this.socketPath = opts.socketPath;
    this.policy = opts.policy;
    this.log = opts.log.child({ component: 'fetch-proxy' });
    this.server = createServer((req, res) => this.onRequest(req, res));
    this.server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.onConnect(req, socket, head));
    this.server.on('clientError', (_err, socket) => socket.destroy());
  }

  /** Listens on the unix socket (replacing a stale file). @throws Error when the socket cannot be bound. */
  async start(): Promise<void> {
    rmSync(this.socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.socketPath, () => resolve());
    });
  }

  /** Stops listening and cuts every open request and tunnel. */
  async stop(): Promise<void> {
    for (const s of this.open) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.socketPath, { force: true });
  }

  private allowed(host: string): boolean {
    return compileAllowList(this.policy().hosts)(hostOf(host));
  }

  private refuse(what: string, host: string): void {
    this.stats.refused++;
    this.log.warn({ host, what }, 'a document asked for external data from a host not in net.lok_allow.host: refused');
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400).end();
      return;
    }
    if (!this.allowed(url.hostname)) {
      this.refuse(`${req.method} ${url.protocol}//${url.host}`, url.hostname);
      res.writeHead(403, { 'content-type': 'text/plain' }).end('not in net.lok_allow.host\n');
      return;
    }
    this.stats.allowed++;
    const { timeoutMs, maxBytes } = this.policy();
    this.log.info({ host: url.hostname, method: req.method }, 'external data fetched for a document');
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const out = httpRequest(url, { method: req.method, headers, timeout: timeoutMs });
    const cut = (why: string) => {
      this.stats.cut++;
      this.log.warn({ host: url.hostname, why }, 'external data request cut');
      out.destroy();
      if (!res.headersSent) res.writeHead(504).end();
      else res.destroy();
    };
    const timer = setTimeout(() => cut('time limit'), timeoutMs);
    this.open.add(res.socket as Socket);
    out.on('timeout', () => cut('time limit'));
    out.on('error', () => {
      clearTimeout(timer);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    out.on('response', (up) => {
      let bytes = 0;
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) return cut('size limit');
        res.write(chunk);
      });
      up.on('end', () => {
        clearTimeout(timer);
        res.end();
      });
    });
    res.on('close', () => {
      clearTimeout(timer);
      this.open.delete(res.socket as Socket);
      out.destroy();
    });
    req.pipe(out);
  }

  private onConnect(req: IncomingMessage, client: Duplex, head: Buffer): void {
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, host, port] = m;
    if (!this.allowed(host)) {
      this.refuse(`CONNECT ${req.url}`, host);
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    this.stats.allowed++;
    const { timeoutMs, maxBytes } = this.policy();
    this.log.info({ host, port: Number(port) }, 'external data tunnel opened for a document');
    const up = connect(Number(port), host);
    this.open.add(client);
    const end = (why?: string) => {
      if (why) {
        this.stats.cut++;
        this.log.warn({ host, why }, 'external data tunnel cut');
      }
      clearTimeout(timer);
      up.destroy();
      client.destroy();
      this.open.delete(client);
    };
    const timer = setTimeout(() => end('time limit'), timeoutMs);
    let bytes = 0;
    let established = false;
    up.on('connect', () => {
      established = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      client.pipe(up);
    });
    up.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) return end('size limit');
      client.write(chunk);
    });
    up.on('end', () => client.end());
    up.on('error', () => {
      if (!established && !client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      end();
    });
    client.on('error', () => end());
    client.on('close', () => end());
  }
}
