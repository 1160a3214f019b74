import type { ServerResponse } from 'node:http';
import { OdeError } from '../errors.ts';

/** Headers every response carries (nosniff; no referrer leaks of tokens in URLs). */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** Sends `body` as JSON with `status`. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Sends an OdeError (or any error, as `internal`) as `{code, message, ...}` with its catalogue status. */
export function sendError(res: ServerResponse, err: unknown, headers: Record<string, string> = {}): void {
  const e = err instanceof OdeError ? err : new OdeError('internal');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, e.status, e.toJSON(), headers);
}
