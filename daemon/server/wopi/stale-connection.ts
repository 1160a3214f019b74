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

/**
 * One request to a host through `fetch`. A kept-alive connection the host closed as the request went out (its
 * keep-alive time-out racing the request: `staleConnection`) fails before any answer: a GET is then sent again at
 * once, once, on a new connection, as browsers do; never after a time-out or an HTTP answer, and never another method
 * (a POST is not idempotent; PutFile is retried by the Uploader). `init()` is called for each try (a fresh time-out
 * signal). Used by the WOPI client (CheckFileInfo, GetFile, TemplateSource) and the host settings client (the
 * settings listing and file GETs).
 * @throws what `fetch` threw on the last try.
 */
export async function fetchRetryingStale(fetch: HostFetch, url: URL, init: () => RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const req = init();
    try {
      return await fetch(url, req);
    } catch (e) {
      if (attempt === 1 && (req.method ?? 'GET') === 'GET' && staleConnection(e as Error & { cause?: { code?: string } })) continue;
      throw e;
    }
  }
}
