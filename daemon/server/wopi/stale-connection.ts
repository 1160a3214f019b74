import type { HostFetch } from '../http/host-tls.ts';

/**
 * Connection errors that mean the host closed or reset the connection before answering: undici's `UND_ERR_SOCKET`
 * ("other side closed") on a reused keep-alive socket, ECONNRESET, EPIPE. Not ECONNREFUSED (a host that is down) and
 * not time-outs.
 */
const STALE_CONNECTION = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** True when `err` (what fetch threw) is a connection the host closed or reset before answering (see STALE_CONNECTION). */
export function staleConnection(err: Error & { cause?: { code?: string } }): boolean {
  return err.name !== 'TimeoutError' && err.name !== 'AbortError' && STALE_CONNECTION.has(err.cause?.code ?? '');
}

/** One request to a host: its method, headers and body, and how long it may take (ms) before it is aborted. */
export interface HostRequest {
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: RequestInit['body'];
  timeoutMs: number;
}

/**
 * One request to a host through `fetch`, a redirect being an answer (`redirect: 'manual'`) and each try aborted after
 * `req.timeoutMs`. A kept-alive connection the host closed as the request went out (its keep-alive time-out racing
 * the request: `staleConnection`) fails before any answer: a GET is then sent again at once, once, on a new
 * connection, as browsers do; never after a time-out or an HTTP answer, and never another method (a POST is not
 * idempotent; PutFile is retried by the Uploader). Used by the WOPI client (CheckFileInfo, GetFile, TemplateSource)
 * and the host settings client (the settings listing and file GETs).
 * @throws what `fetch` threw on the last try (`hostFetchFailure` says why).
 */
export async function fetchRetryingStale(fetch: HostFetch, url: URL, req: HostRequest): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(req.timeoutMs),
      });
    } catch (e) {
      if (attempt === 1 && req.method === 'GET' && staleConnection(e as Error & { cause?: { code?: string } })) continue;
      throw e;
    }
  }
}

/**
 * Why a request to a host failed, for an error message: `no answer within <timeoutMs> ms` for a time-out, else
 * `detail` when given (e.g. the TLS problem), else the connection error's code (ECONNREFUSED...) or message.
 */
export function hostFetchFailure(e: unknown, timeoutMs: number, detail?: string): string {
  const err = e as Error & { cause?: { code?: string } };
  if (err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return detail ?? err.cause?.code ?? err.message;
}
