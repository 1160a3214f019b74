import { sendJson } from '../http/respond.ts';
import type { Handler } from './context.ts';

/**
 * GET /health: `{status, node, serverId, version, uptimeSecs, kits: {ready, busy, starting}, queue}`, plus
 * `certificate: {subject, notAfter, daysLeft, expiresSoon}` when the public listener serves HTTPS (ssl.enable;
 * docs/tls.md). 503 when no kit is alive (`status: degraded`) or while the node drains or is drained (`status:
 * draining` / `drained`, `node` the same; cluster/node-drain.ts): a load balancer's health check then takes the node
 * out (docs/deploy/cluster.md). A query (the editor asks `/health?WOPISrc=...` through the balancer before it
 * reconnects) does not change the answer. An expiring certificate does not make the check fail (a warning, not an
 * outage).
 */
export const health: Handler = (_req, res, ctx) => {
  const s = ctx.pool.status();
  const alive = s.ready + s.busy + s.starting > 0;
  const node = ctx.node.state;
  const ok = alive && node === 'serving';
  sendJson(res, ok ? 200 : 503, {
    status: node !== 'serving' ? node : alive ? 'ok' : 'degraded',
    node,
    serverId: ctx.serverId,
    version: ctx.version,
    uptimeSecs: Math.round((Date.now() - ctx.startedAt) / 1000),
    kits: { ready: s.ready, busy: s.busy, starting: s.starting },
    queue: s.queue,
    ...(ctx.publicTls?.status() ? { certificate: ctx.publicTls.status() } : {}),
  });
};

/** GET /: a short plain-text sign of life, when the demo host is off (demo_host.enabled; else its start page answers). */
export const root: Handler = (_req, res, ctx) => {
  const text = `Ode ${ctx.version} is running.\nDiscovery: /hosting/discovery\nCapabilities: /hosting/capabilities\nConversion: POST /ode/convert-to/<format>\n`;
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(text);
};
