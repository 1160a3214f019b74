import type { IncomingMessage } from 'node:http';
import type { OdeConfig } from '../config/schema.ts';
import { isLoopbackHost } from '../wopi/wopi-src.ts';

/**
 * The base URL the daemon reaches itself at for a request that arrived on `req`'s socket: loopback, so the
 * WOPISrc passes the allowed-host check whatever Host header or public_url the browser used (issue 4: "loopback
 * is always an allowed host"). A listener on one non-loopback address is reached at that address.
 */
export function selfBase(req: IncomingMessage, cfg: OdeConfig): string {
  const local = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const port = req.socket.localPort ?? cfg.net.port;
  const wildcard = cfg.net.listen === '0.0.0.0' || cfg.net.listen === '::';
  const addr = isLoopbackHost(local) || wildcard ? (local === '::1' ? '[::1]' : '127.0.0.1') : local.includes(':') ? `[${local}]` : local;
  return `http://${addr}:${port}`;
}
