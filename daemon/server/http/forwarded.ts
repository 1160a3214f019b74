/**
 * The scheme and host Ode is reached at, for the absolute URLs it writes (discovery's urlsrc, the editor page's
 * socket URL): issue 8, "ssl.termination" (docs/tls.md). The scheme is https when the request came over TLS or
 * ssl.termination is set; X-Forwarded-Proto and X-Forwarded-Host override scheme and host only when the
 * connecting address matches net.proxy_addresses (anyone else could otherwise make discovery point elsewhere).
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import type { OdeConfig } from '../config/schema.ts';
import { compileAllowList, normaliseAddress } from './post-allow.ts';

/** Where a request says Ode is: `scheme` for pages, `host` with an optional port (`office.example.org:8443`). */
export interface PublicOrigin {
  scheme: 'http' | 'https';
  host: string;
}

/** A Host header value we are willing to write into URLs: name or [v6], optional port; nothing else. */
const HOST_VALUE = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/** The first element of a possibly repeated, comma-separated header, trimmed (the client-most proxy's value). */
function firstValue(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  const first = s?.split(',')[0]?.trim();
  return first || undefined;
}

/**
 * The scheme and host of `req` as the client saw them (see the file comment).
 * @param log debug line when X-Forwarded-* is ignored because the peer is not a configured proxy.
 */
export function publicOrigin(req: IncomingMessage, cfg: OdeConfig, log?: Logger): PublicOrigin {
  const tls = (req.socket as Partial<TLSSocket>).encrypted === true;
  let scheme: PublicOrigin['scheme'] = tls || cfg.ssl.termination ? 'https' : 'http';
  const hostHeader = req.headers.host;
  let host =
    hostHeader && HOST_VALUE.test(hostHeader) ? hostHeader : `${cfg.net.listen.includes(':') ? `[${cfg.net.listen}]` : cfg.net.listen}:${cfg.net.port}`;
  const fProto = firstValue(req.headers['x-forwarded-proto'])?.toLowerCase();
  const fHost = firstValue(req.headers['x-forwarded-host']);
  if (fProto === undefined && fHost === undefined) return { scheme, host };
  const peer = normaliseAddress(req.socket.remoteAddress ?? '');
  if (!compileAllowList(cfg.net.proxy_addresses)(peer)) {
    log?.debug(
      { peer, xForwardedProto: fProto, xForwardedHost: fHost },
      'X-Forwarded-Proto/-Host ignored: the connecting address is not in net.proxy_addresses',
    );
    return { scheme, host };
  }
  if (fProto === 'https' || fProto === 'http') scheme = fProto;
  else if (fProto !== undefined) log?.debug({ peer, xForwardedProto: fProto }, 'X-Forwarded-Proto ignored: neither http nor https');
  if (fHost !== undefined) {
    if (HOST_VALUE.test(fHost)) host = fHost;
    else log?.debug({ peer, xForwardedHost: fHost }, 'X-Forwarded-Host ignored: not a host[:port]');
  }
  return { scheme, host };
}

/** The WebSocket scheme matching a page scheme: wss for https, ws for http. */
export function socketScheme(scheme: PublicOrigin['scheme']): 'ws' | 'wss' {
  return scheme === 'https' ? 'wss' : 'ws';
}
