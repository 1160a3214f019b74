import { createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import busboy from 'busboy';
import { OdeError } from '../errors.ts';

/** An uploaded multipart form: the first file part on disk (in `dir`, which the caller removes) and the text fields. */
export interface UploadedForm {
  dir: string;
  file?: { path: string; filename: string; size: number };
  fields: Record<string, string>;
}

/** Longest text field (bytes): a recipe, PDF options. Past it the request is refused with too_large, not cut. */
export const MAX_FIELD_BYTES = 1024 * 1024;

/** Default longest silence of a request body (ms) when the caller gives none (limits.body_idle_secs). */
const DEFAULT_IDLE_MS = 10_000;

/**
 * Streams a multipart/form-data request to disk: the first file part (`data` in the spec, any name with a file name
 * as Collabora takes it) goes to `<tmpRoot>/<uuid>/upload`,
 * other fields are collected as strings (first value wins). Nothing is kept on failure: the folder is removed
 * and the promise rejects; every error of the request, the multipart parser, the file part and the file on disk
 * is handled here, so a malformed or cut body can never surface as an unhandled 'error' (issue 17, item 1).
 * @param maxBytes upload limit in bytes (limits.max_upload_mb)
 * @param idleMs longest time without a byte of body (limits.body_idle_secs): a body shorter than its
 *   Content-Length, or a stalled client, is refused with body_timeout after it
 * @throws OdeError bad_request (not multipart / malformed / truncated / aborted), too_large (past maxBytes or a
 *   text field past MAX_FIELD_BYTES), body_timeout (no byte for idleMs)
 */
export function receiveForm(req: IncomingMessage, tmpRoot: string, maxBytes: number, idleMs = DEFAULT_IDLE_MS): Promise<UploadedForm> {
  const dir = join(tmpRoot, randomUUID());
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes + 64 * 1024) {
    return Promise.reject(new OdeError('too_large', `The upload is ${declared} bytes; the limit is ${maxBytes} bytes (limits.max_upload_mb).`));
  }
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, limits: { fileSize: maxBytes, files: 4, fields: 32, fieldSize: MAX_FIELD_BYTES, parts: 64, headerPairs: 32 } });
  } catch (e) {
    return Promise.reject(new OdeError('bad_request', `Expected a multipart/form-data body with a boundary: ${(e as Error).message}.`));
  }
  mkdirSync(dir, { recursive: true });
  const form: UploadedForm = { dir, fields: {} };
  return new Promise<UploadedForm>((resolve, reject) => {
    let failed: OdeError | undefined;
    let done = false;
    let out: WriteStream | undefined;
    let writing: Promise<void> = Promise.resolve();
    let idle: NodeJS.Timeout | undefined;
    const stopIdle = () => idle && clearTimeout(idle);
    const armIdle = () => {
      stopIdle();
      idle = setTimeout(
        () =>
          fail(
            new OdeError(
              'body_timeout',
              `No byte of the request body arrived for ${Math.round(idleMs / 1000)} s (limits.body_idle_secs): the body is shorter than its Content-Length, or the client stalled.`,
            ),
          ),
        idleMs,
      );
      idle.unref();
    };
    const fail = (e: OdeError) => {
      if (failed || done) return;
      failed = e;
      stopIdle();
      req.unpipe(bb);
      bb.removeAllListeners('file');
      bb.removeAllListeners('field');
      bb.on('error', () => {});
      out?.destroy();
      req.resume();
      rmSync(dir, { recursive: true, force: true });
      reject(e);
    };
    bb.on('file', (name, stream, info) => {
      // A second error on a part after the form failed (busboy destroys the part stream with it) is expected.
      stream.on('error', (e: Error) => fail(new OdeError('bad_request', `Malformed multipart body: ${e.message}`)));
      // The first file part, whatever its name (Collabora takes any part with a file name; richdocuments names the
      // part after the file, not `data`); a part with an empty file name (an empty file input) is no file.
      if (failed || form.file || (name !== 'data' && !info.filename)) {
        stream.resume();
        return;
      }
      const path = join(dir, 'upload');
      const file = createWriteStream(path);
      out = file;
      let size = 0;
      stream.on('data', (chunk: Buffer) => (size += chunk.length));
      stream.on('limit', () => fail(new OdeError('too_large', `The upload exceeds ${maxBytes} bytes (limits.max_upload_mb).`)));
      writing = new Promise<void>((res, rej) => {
        file.on('finish', () => res());
        file.on('error', rej);
      });
      // Awaited on 'close'; a failure before that is reported through fail() already.
      writing.catch(() => {});
      stream.pipe(file);
      form.file = { path, filename: info.filename ?? '', size: 0 };
      stream.on('end', () => {
        if (form.file) form.file.size = size;
      });
    });
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new OdeError('too_large', `The field "${name.slice(0, 64)}" is larger than ${MAX_FIELD_BYTES} bytes.`));
      if (!(name in form.fields)) form.fields[name] = value;
    });
    bb.on('partsLimit', () => fail(new OdeError('bad_request', 'The form has more than 64 parts.')));
    bb.on('error', (e: Error) => fail(new OdeError('bad_request', `Malformed multipart body: ${e.message}`)));
    bb.on('close', () => {
      if (failed) return;
      stopIdle();
      writing.then(
        () => {
          if (failed) return;
          done = true;
          resolve(form);
        },
        (e: Error) => fail(new OdeError('internal', `The upload could not be stored: ${e.message}`)),
      );
    });
    req.on('data', armIdle);
    req.on('aborted', () => fail(new OdeError('bad_request', 'The client aborted the upload.')));
    req.on('error', (e: Error) => fail(new OdeError('bad_request', `The upload failed: ${e.message}`)));
    req.on('close', () => {
      if (!req.complete) fail(new OdeError('bad_request', 'The connection closed before the body was complete.'));
    });
    armIdle();
    req.pipe(bb);
  });
}
