/**
 * What the host-posted pages (the editor page, the settings page) share: reading the HTML form the WOPI host posts
 * into the iframe, and putting JSON into the page safely.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import { OdeError } from '../errors.ts';
import { BASE_HEADERS } from './respond.ts';

/** Largest form a host may post to a page (bytes): tokens and a few fields. */
export const MAX_PAGE_FORM_BYTES = 64 * 1024;

/**
 * Reads the HTML form a host sends to a page as Collabora Online reads it (Poco's HTMLForm over the request): the
 * posted body, `application/x-www-form-urlencoded` as the spec shows or `multipart/form-data` as Collabora's SDK
 * example pages post it (`enctype="multipart/form-data"`), then the URL's query for the fields the body lacks. So a
 * host that opens the page with a GET form (Moodle's mod_collabora: `form.method = "get"`, which puts
 * `access_token` in the query) works as with Collabora. Unknown fields are kept and ignored by the caller; file parts
 * of a multipart form are read and dropped. For a repeated field the first value wins.
 * @param page the page's name for the error messages, e.g. `editor page`
 * @param fields the fields the page expects, named in the error message
 * @param idleMs longest silence of the body (limits.body_idle_secs), default 10 s
 * @throws OdeError bad_request for another content type or a malformed multipart body, too_large past
 *   MAX_PAGE_FORM_BYTES, body_timeout when no byte arrives for idleMs
 */
export async function readPageForm(req: IncomingMessage, page: string, fields: string, idleMs = 10_000): Promise<URLSearchParams> {
  const form = await readPostedForm(req, page, fields, idleMs);
  for (const [name, value] of new URL(req.url ?? '/', 'http://localhost').searchParams) if (!form.has(name)) form.set(name, value);
  return form;
}

/** The posted fields of readPageForm (none for a GET). */
async function readPostedForm(req: IncomingMessage, page: string, fields: string, idleMs: number): Promise<URLSearchParams> {
  if (req.method !== 'POST') return new URLSearchParams();
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) return readMultipartPageForm(req, page, idleMs);
  if (!type.startsWith('application/x-www-form-urlencoded'))
    throw new OdeError('bad_request', `The ${page} takes an HTML form post (application/x-www-form-urlencoded or multipart/form-data) with ${fields}.`);
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const idle = idleTimer(idleMs, () => fail(bodyTimeout(idleMs)));
    const fail = (e: OdeError) => {
      idle.stop();
      req.removeAllListeners('data');
      reject(e);
    };
    req.on('data', (chunk: Buffer) => {
      idle.touch();
      size += chunk.length;
      if (size > MAX_PAGE_FORM_BYTES) return fail(new OdeError('too_large', `The form posted to the ${page} is larger than ${MAX_PAGE_FORM_BYTES} bytes.`));
      chunks.push(chunk);
    });
    req.on('end', () => (idle.stop(), resolve(Buffer.concat(chunks))));
    req.on('error', () => fail(new OdeError('bad_request', `The client aborted the form post to the ${page}.`)));
  });
  return new URLSearchParams(body.toString('utf8'));
}

/** A timer that fires after `ms` without a `touch()` (started at once). */
function idleTimer(ms: number, fire: () => void): { touch(): void; stop(): void } {
  let t: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(t);
    t = setTimeout(fire, ms);
    t.unref();
  };
  touch();
  return { touch, stop: () => clearTimeout(t) };
}

function bodyTimeout(ms: number): OdeError {
  return new OdeError(
    'body_timeout',
    `No byte of the form arrived for ${Math.round(ms / 1000)} s (limits.body_idle_secs): the body is shorter than its Content-Length, or the client stalled.`,
  );
}

/** A multipart page form through busboy: text fields only (first value wins), the whole body at most MAX_PAGE_FORM_BYTES. */
function readMultipartPageForm(req: IncomingMessage, page: string, idleMs: number): Promise<URLSearchParams> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_PAGE_FORM_BYTES)
    return Promise.reject(new OdeError('too_large', `The form posted to the ${page} is larger than ${MAX_PAGE_FORM_BYTES} bytes.`));
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, limits: { fieldSize: MAX_PAGE_FORM_BYTES, fields: 64, files: 8, fileSize: MAX_PAGE_FORM_BYTES } });
  } catch (e) {
    return Promise.reject(new OdeError('bad_request', `The multipart form posted to the ${page} is malformed: ${(e as Error).message}`));
  }
  const form = new URLSearchParams();
  return new Promise<URLSearchParams>((resolve, reject) => {
    let size = 0;
    let done = false;
    const idle = idleTimer(idleMs, () => fail(bodyTimeout(idleMs)));
    const fail = (e: OdeError) => {
      if (done) return;
      done = true;
      idle.stop();
      req.unpipe(bb);
      req.resume();
      reject(e);
    };
    req.on('data', (chunk: Buffer) => {
      idle.touch();
      size += chunk.length;
      if (size > MAX_PAGE_FORM_BYTES) fail(new OdeError('too_large', `The form posted to the ${page} is larger than ${MAX_PAGE_FORM_BYTES} bytes.`));
    });
    bb.on('field', (name, value) => {
      if (!form.has(name)) form.set(name, value);
    });
    bb.on('file', (_name, stream) => stream.resume());
    bb.on('error', (e: Error) => fail(new OdeError('bad_request', `The multipart form posted to the ${page} is malformed: ${e.message}`)));
    bb.on('close', () => {
      if (done) return;
      done = true;
      idle.stop();
      resolve(form);
    });
    req.on('aborted', () => fail(new OdeError('bad_request', `The client aborted the form post to the ${page}.`)));
    req.pipe(bb);
  });
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
