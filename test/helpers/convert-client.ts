import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** Where the shared corpus lives (read-only; never edited). */
export const CORPUS = new URL('../../../shared/corpus/', import.meta.url).pathname;

/** The answer of a convert-to call: status, headers, body bytes, and the parsed JSON error when not 200. */
export interface ConvertAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
  error?: { code: string; message: string; [k: string]: unknown };
}

/**
 * POSTs a file to `<url><path>` as the multipart field `data` (named `filename`, default the file's own name),
 * with extra form `fields` and request `headers`. Uses the platform fetch (a real HTTP client).
 */
export async function postConvert(
  url: string,
  path: string,
  file: string | { bytes: Buffer; filename: string },
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<ConvertAnswer> {
  const form = new FormData();
  const bytes = typeof file === 'string' ? readFileSync(file) : file.bytes;
  const name = typeof file === 'string' ? basename(file) : file.filename;
  form.append('data', new Blob([new Uint8Array(bytes)]), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${url}${path}`, { method: 'POST', body: form, headers });
  const body = Buffer.from(await res.arrayBuffer());
  const answer: ConvertAnswer = { status: res.status, headers: res.headers, body };
  if (res.status !== 200) {
    try {
      answer.error = JSON.parse(body.toString('utf8'));
    } catch {
      // Not JSON: the assertion on `error` will show it.
    }
  }
  return answer;
}
