import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { Duplex } from 'node:stream';

/** An HTTP answer as `ode doctor` reads it: status, headers and the first bytes of the body. */
export interface SimpleAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** A 101 Switching Protocols answer to an upgrade request. */
  upgraded: boolean;
}

/** Options of one request: method, headers, a body producer, extra CAs, and a time limit in ms. */
export interface SimpleRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Writes the body; resolves when written. `aborted()` turns true once an answer arrived (stop writing). */
  body?: (write: (chunk: Buffer) => Promise<void>, aborted: () => boolean) => Promise<void>;
  ca?: string[];
  timeoutMs?: number;
}

function readBody(res: IncomingMessage, limit = 64 * 1024): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      if (text.length < limit) text += d;
    });
    res.on('end', () => resolve(text));
    res.on('error', () => resolve(text));
    res.on('aborted', () => resolve(text));
  });
}

/**
 * One request with node:http/https (system CAs plus `ca`), answering status, headers and up to 64 KB of body;
 * an upgrade answered 101 resolves with `upgraded` and the socket is closed at once.
 * @throws Error with the OS or TLS message (ECONNREFUSED, CERT_HAS_EXPIRED, ...) or on the time limit.
 */
export function simpleRequest(url: URL, opts: SimpleRequest = {}): Promise<SimpleAnswer> {
  const tls = url.protocol === 'https:';
  const make = tls ? httpsRequest : httpRequest;
  return new Promise<SimpleAnswer>((resolve, reject) => {
    let answered = false;
    const req = make(url, {
      method: opts.method ?? 'GET',
      headers: opts.headers,
      // SNI carries names only (RFC 6066); Node still checks an IP address against the certificate's IP SANs.
      ...(tls ? { ca: [...rootCertificates, ...(opts.ca ?? [])], ...(isIP(url.hostname.replace(/^\[|\]$/g, '')) ? {} : { servername: url.hostname }) } : {}),
      agent: false,
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s`)), opts.timeoutMs ?? 30_000);
    const done = (a: SimpleAnswer) => {
      answered = true;
      clearTimeout(timer);
      resolve(a);
    };
    req.on('response', (res) => {
      answered = true;
      void readBody(res).then((body) => done({ status: res.statusCode ?? 0, headers: res.headers, body, upgraded: false }));
    });
    req.on('upgrade', (res: IncomingMessage, socket: Duplex) => {
      socket.destroy();
      done({ status: res.statusCode ?? 101, headers: res.headers, body: '', upgraded: true });
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      // Writing on after an early answer (a 413 before the whole upload) resets the connection: the answer counts.
      if (!answered) reject(e);
    });
    if (!opts.body) return void req.end();
    const write = (chunk: Buffer) =>
      new Promise<void>((res2) => {
        if (answered || req.destroyed) return res2();
        if (req.write(chunk)) res2();
        else req.once('drain', () => res2());
      });
    opts
      .body(write, () => answered || req.destroyed)
      .then(
        () => {
          if (!req.destroyed) req.end();
        },
        (e: Error) => req.destroy(e),
      );
  });
}

/** The JSON error Ode answers (`{code, message}`), or undefined when the body is something else (a proxy's page). */
export function odeError(body: string): { code: string; message: string } | undefined {
  try {
    const v = JSON.parse(body) as { code?: unknown; message?: unknown };
    if (typeof v.code === 'string' && typeof v.message === 'string') return { code: v.code, message: v.message };
  } catch {
    // not JSON
  }
  return undefined;
}
