/**
 * One request of the update check (spec: Update check, the asking side):
 * `GET {url}/UpdateCheck?product=<productName>&version=<productVersion>`, answered `{"odewsd_version": "..."}`.
 */
import { z } from 'zod';
import { parseVersion } from './versions.ts';

/** The answer the spec defines; extra fields are allowed and ignored. */
const UpdateAnswer = z.object({
  odewsd_version: z
    .string()
    .trim()
    .refine((v) => parseVersion(v) !== undefined, 'is not a version (dotted numbers such as 24.04.5.2)'),
});

/** Largest answer read, bytes: the real one is a few dozen. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The address asked: `{url}/UpdateCheck?product=&version=` (a trailing `/` of `url` is dropped). */
export function updateCheckUrl(url: string, product: string, version: string): string {
  const u = new URL(`${url.replace(/\/+$/, '')}/UpdateCheck`);
  u.searchParams.set('product', product);
  u.searchParams.set('version', version);
  return u.toString();
}

/**
 * Asks the update server once and returns its `odewsd_version` (trimmed).
 * @param timeoutMs the whole request's time-out (ms).
 * @throws Error whose message says what went wrong, for the admin to read: the server was unreachable or slow, it
 *   answered another status than 200, its answer was not JSON, or had no `odewsd_version` that is a version.
 */
export async function requestUpdateVersion(url: string, product: string, version: string, timeoutMs: number, userAgent: string): Promise<string> {
  const address = updateCheckUrl(url, product, version);
  let text: string;
  let status: number;
  try {
    const res = await fetch(address, { signal: AbortSignal.timeout(timeoutMs), headers: { Accept: 'application/json', 'User-Agent': userAgent } });
    status = res.status;
    text = await res.text();
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err.name === 'TimeoutError') throw new Error(`the update server did not answer within ${timeoutMs / 1000} s (${address})`);
    throw new Error(`could not reach the update server (${address}): ${err.cause?.code ?? err.cause?.message ?? err.message}`);
  }
  if (status !== 200) throw new Error(`the update server answered HTTP ${status} instead of 200 (${address})`);
  if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) throw new Error(`the update server's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`the update server's answer is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
  const parsed = UpdateAnswer.safeParse(json);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => (i.path.length > 0 ? `"${i.path.join('.')}" ${i.message}` : i.message)).join('; ');
    throw new Error(`the update server's answer is not {"odewsd_version": "<version>"}: ${why}`);
  }
  return parsed.data.odewsd_version;
}
