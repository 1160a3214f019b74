import type { IncomingMessage, ServerResponse } from 'node:http';
import { OdeError } from './errors.ts';
import { sendError } from './http/respond.ts';
import type { Handler, RouteContext } from './routes/context.ts';

/** One route: method, a path prefix (`exact` for whole-path matches) and its handler. */
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
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
    const run = async () => {
      if (!route) {
        if (matches.length > 0) throw new OdeError('method_not_allowed', `${req.method} is not allowed on ${path}; use ${[...new Set(matches.map((m) => m.method))].join(' or ')}.`);
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
      // Drain what the client is still sending so the error reaches it instead of a reset.
      if (!req.complete) req.resume();
      sendError(res, err, err instanceof OdeError && err.status === 413 ? { Connection: 'close' } : {});
    });
  };
}
