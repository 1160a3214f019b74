import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import busboy from 'busboy';
import { OdeError } from '../errors.ts';

/** An uploaded multipart form: the `data` file on disk (in `dir`, which the caller removes) and the text fields. */
export interface UploadedForm {
  dir: string;
  file?: { path: string; filename: string; size: number };
  fields: Record<string, string>;
}

/**
 * Streams a multipart/form-data request to disk: the file field `data` goes to `<tmpRoot>/<uuid>/upload`,
 * other fields are collected as strings (first value wins). Nothing is kept on failure.
 * @param maxBytes upload limit in bytes (limits.max_upload_mb)
 * @throws OdeError bad_request (not multipart / malformed), too_large (past maxBytes)
 */
export function receiveForm(req: IncomingMessage, tmpRoot: string, maxBytes: number): Promise<UploadedForm> {
  const dir = join(tmpRoot, randomUUID());
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes + 64 * 1024) {
    return Promise.reject(new OdeError('too_large', `The upload is ${declared} bytes; the limit is ${maxBytes} bytes (limits.max_upload_mb).`));
  }
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, limits: { fileSize: maxBytes, files: 4, fields: 32, fieldSize: 1024 * 1024 } });
  } catch {
    return Promise.reject(new OdeError('bad_request', 'Expected a multipart/form-data body.'));
  }
  mkdirSync(dir, { recursive: true });
  const form: UploadedForm = { dir, fields: {} };
  return new Promise<UploadedForm>((resolve, reject) => {
    let failed: OdeError | undefined;
    let writing: Promise<void> = Promise.resolve();
    const fail = (e: OdeError) => {
      if (failed) return;
      failed = e;
      req.unpipe(bb);
      req.resume();
      rmSync(dir, { recursive: true, force: true });
      reject(e);
    };
    bb.on('file', (name, stream, info) => {
      if (name !== 'data' || form.file) {
        stream.resume();
        return;
      }
      const path = join(dir, 'upload');
      const out = createWriteStream(path);
      let size = 0;
      stream.on('data', (chunk: Buffer) => (size += chunk.length));
      stream.on('limit', () => fail(new OdeError('too_large', `The upload exceeds ${maxBytes} bytes (limits.max_upload_mb).`)));
      writing = new Promise<void>((res, rej) => {
        out.on('finish', () => res());
        out.on('error', rej);
      });
      stream.pipe(out);
      form.file = { path, filename: info.filename ?? '', size: 0 };
      stream.on('end', () => {
        if (form.file) form.file.size = size;
      });
    });
    bb.on('field', (name, value) => {
      if (!(name in form.fields)) form.fields[name] = value;
    });
    bb.on('error', (e: Error) => fail(new OdeError('bad_request', `Malformed multipart body: ${e.message}`)));
    bb.on('close', () => {
      if (failed) return;
      writing.then(
        () => resolve(form),
        (e: Error) => fail(new OdeError('internal', `Could not store the upload: ${e.message}`)),
      );
    });
    req.on('aborted', () => fail(new OdeError('bad_request', 'The client aborted the upload.')));
    req.pipe(bb);
  });
}
