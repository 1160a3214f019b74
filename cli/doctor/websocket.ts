import { randomBytes } from 'node:crypto';
import { EDITING_PATHS } from '../../daemon/server/index.ts';
import { odeError, simpleRequest } from './request.ts';
import type { CheckResult, DoctorContext } from './check.ts';

const FIX_NGINX =
  'nginx: proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection $connection_upgrade; (with the map block of docs/deploy/nginx.conf)';
const FIX_APACHE = 'Apache: a2enmod proxy_wstunnel and ProxyPass /ode/ws ws://127.0.0.1:9980/ode/ws before ProxyPass / (docs/deploy/apache.conf)';

/**
 * A WebSocket upgrade to the editor socket path (editor.md, "Transport") reaches Ode's socket handler. The request
 * carries no WOPISrc on purpose: Ode's socket handler answers that with its own 400 `bad_request` naming WOPISrc,
 * which tells "the upgrade got through" apart from Ode's plain HTTP side (a 404 `not_found`: the proxy dropped
 * the Upgrade header) and from the proxy's own error pages (not Ode's JSON).
 */
export async function checkWebSocket(ctx: DoctorContext): Promise<CheckResult> {
  const target = new URL(EDITING_PATHS[0], ctx.url);
  const headers = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': randomBytes(16).toString('base64') };
  let r: Awaited<ReturnType<typeof simpleRequest>>;
  try {
    r = await simpleRequest(target, { headers, ca: ctx.ca, timeoutMs: 30_000 });
  } catch (e) {
    return {
      name: 'websocket',
      status: 'FAIL',
      detail: `upgrade request to ${target.href} failed: ${(e as Error).message}`,
      fix: 'fix the public-url check first',
    };
  }
  if (r.upgraded) return { name: 'websocket', status: 'ok', detail: `${target.pathname} upgrades to a WebSocket (101)` };
  const err = odeError(r.body);
  if (r.status === 400 && err?.code === 'bad_request' && /WOPISrc/.test(err.message)) {
    return { name: 'websocket', status: 'ok', detail: `the upgrade of ${target.pathname} reaches Ode's editing socket (it asks for a WOPISrc, as it should)` };
  }
  if (err) {
    return {
      name: 'websocket',
      status: 'FAIL',
      detail: `the upgrade of ${target.pathname} reached Ode as a plain HTTP request (Ode answered ${r.status} ${err.code}): the proxy drops the Upgrade header, so editors never connect`,
      fix: `${FIX_NGINX}; ${FIX_APACHE}`,
    };
  }
  return {
    name: 'websocket',
    status: 'FAIL',
    detail: `the proxy answered the upgrade of ${target.pathname} itself with ${r.status} (not Ode's JSON): ${r.body.slice(0, 100).replace(/\s+/g, ' ')}`,
    fix: `${FIX_NGINX}; ${FIX_APACHE}; a 502/504 means the proxy cannot reach Ode`,
  };
}
