/**
 * What the host-posted pages (the editor page, the settings page) share: reading the HTML form the WOPI host posts
 * into the iframe, and putting JSON into the page safely.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OdeError } from '../errors.ts';
import { BASE_HEADERS } from './respond.ts';

/** Largest form a host may post to a page (bytes): tokens and a few fields. */
export const MAX_PAGE_FORM_BYTES = 64 * 1024;

/**
 * Reads an `application/x-www-form-urlencoded` POST body (a GET has none: empty fields).
 * @param page the page's name for the error messages, e.g. `editor page`
 * @param fields the fields the page expects, named in the error message
 * @throws OdeError bad_request for another content type, too_large past MAX_PAGE_FORM_BYTES
 */
export async function readPageForm(req: IncomingMessage, page: string, fields: string): Promise<URLSearchParams> {
  if (req.method !== 'POST') return new URLSearchParams();
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('application/x-www-form-urlencoded')) throw new OdeError('bad_request', `The ${page} takes an HTML form post (application/x-www-form-urlencoded) with ${fields}.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PAGE_FORM_BYTES) throw new OdeError('too_large', `The form posted to the ${page} is larger than ${MAX_PAGE_FORM_BYTES} bytes.`);
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** JSON safe inside a `<script>` element (no `</script>`, no HTML comment openers). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** Parses a body as a JSON object; undefined when it is not JSON or not an object. */
export function jsonObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body.toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends a host-posted page: 200, HTML, never cached (it carries the access token), with its
 * Content-Security-Policy (spec: Authentication 6); a HEAD gets the headers only.
 */
export function sendPage(req: IncomingMessage, res: ServerResponse, html: string, contentSecurityPolicy: string): void {
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': contentSecurityPolicy,
  });
  res.end(req.method === 'HEAD' ? undefined : html);
}
