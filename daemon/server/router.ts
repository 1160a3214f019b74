import type { IncomingMessage, ServerResponse } from 'node:http';
import { OdeError } from './errors.ts';
import { sendError } from './http/respond.ts';
import type { Handler, RouteContext } from './routes/context.ts';

/** One route: method, a path prefix (`exact` for whole-path matches) and its handler. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  exact: boolean;
  handler: Handler;
}

/**
 * Dispatches a request to the first route whose path matches (exact, or as a prefix followed by `/` or the end),
 * answering 404/405 as JSON errors, and turning thrown errors into `{code, message}` bodies with a log line.
 */
export function createRouter(routes: Route[], ctx: RouteContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0];
    const matches = routes.filter((r) => (r.exact ? path === r.path : path === r.path || path.startsWith(`${r.path}/`)));
    const route = matches.find((r) => r.method === req.method || (r.method === 'GET' && req.method === 'HEAD'));
    // Which node answered, for operators and the cluster tests behind a load balancer (docs/deploy/cluster.md).
    res.setHeader('X-Ode-Server-Id', ctx.serverId);
    const run = async () => {
      if (!route) {
        if (matches.length > 0)
          throw new OdeError('method_not_allowed', `${req.method} is not allowed on ${path}; use ${[...new Set(matches.map((m) => m.method))].join(' or ')}.`);
        throw new OdeError('not_found', `No endpoint at ${path}.`);
      }
      await route.handler(req, res, ctx, { rest: path.slice(route.path.length) });
    };
    run().catch((err: unknown) => {
      if (err instanceof OdeError) {
        const level = err.status >= 500 ? 'error' : 'warn';
        ctx.log[level]({ method: req.method, path, code: err.code, status: err.status, msg2: err.message }, 'request failed');
      } else {
        ctx.log.error({ method: req.method, path, err: (err as Error)?.stack ?? String(err) }, 'request failed with an unexpected error');
      }
      // A body that stopped arriving will not drain: answer, and close the connection it left half-read.
      if (err instanceof OdeError && err.code === 'body_timeout') return answerAndClose(req, res, () => sendError(res, err, { Connection: 'close' }));
      answerAfterDrain(req, res, () => sendError(res, err));
    });
  };
}

/** Sends the answer, then destroys the connection once it is written (a request whose body will never end). */
function answerAndClose(req: IncomingMessage, res: ServerResponse, send: () => void): void {
  send();
  if (res.writableFinished) req.socket.destroy();
  else res.once('finish', () => req.socket.destroy());
}

/** How long a refused request may go on sending its body before the connection is cut (ms). */
const DRAIN_MS = 60_000;
/** How much more of a refused body is read and discarded before the connection is cut (bytes). */
const DRAIN_BYTES = 512 * 1024 * 1024;

/**
 * Sends a refused request's answer (e.g. 413 too_large) so that it reaches the client and the reverse proxy in
 * front of Ode, reading and discarding the rest of the body. Closing while they still send makes the kernel reset
 * the connection, and nginx or Apache then answer 502 instead of Ode's JSON error. On a keep-alive connection the
 * answer goes at once (Node keeps reading the body); on a connection the client asked to close (nginx sends
 * `Connection: close` upstream), Node closes as soon as the answer is sent, so the answer waits for the end of the
 * body. Past DRAIN_BYTES or DRAIN_MS the answer is sent and the connection cut.
 */
function answerAfterDrain(req: IncomingMessage, res: ServerResponse, send: () => void): void {
  if (req.complete) return send();
  let sent = false;
  const answer = () => {
    if (sent) return;
    sent = true;
    send();
  };
  if (res.shouldKeepAlive) answer();
  let seen = 0;
  const cut = () => {
    answer();
    if (res.writableFinished) req.socket.destroy();
    else res.once('finish', () => req.socket.destroy());
  };
  const timer = setTimeout(cut, DRAIN_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_BYTES) cut();
  });
  req.once('end', () => (clearTimeout(timer), answer()));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}
