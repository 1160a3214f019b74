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

/**
 * Sends a file as a download: 200, Content-Type, Content-Length (bytes), and a Content-Disposition naming
 * `filename` both as ASCII and as RFC 8187 UTF-8, plus `headers` (Server-Timing, Cache-Control, ...).
 */
export function sendAttachment(res: ServerResponse, bytes: Uint8Array, mimeType: string, filename: string, headers: Record<string, string> = {}): void {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': mimeType,
    'Content-Length': bytes.length,
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    ...headers,
  });
  res.end(bytes);
}
