import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenLocal } from './net.ts';

/**
 * What the test hosts written after hosts for Collabora Online share (test/helpers/sdk-host.ts,
 * test/helpers/richdocuments-host.ts): HTTP odds and ends, the page-side message log, MS-WOPI proof checking with
 * the current and the old key, UTF-7 names. Written here from the behaviours (MS-WOPI, RFC 2152), not copied.
 */

/** Reads a request body whole. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** Answers JSON (or bytes) with a status. */
export function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(JSON.stringify(payload));
  res.writeHead(status, {
    'Content-Type': Buffer.isBuffer(payload) ? 'application/octet-stream' : 'application/json; charset=utf-8',
    'Content-Length': bytes.length,
    ...headers,
  });
  res.end(bytes);
}

/**
 * Page script: keeps every PostMessage the page receives from the editor frame in `window.hostLog` (the first 2000,
 * parsed) and their number in `window.hostCount` (all of them), so a test can read both with page.evaluate. Runs
 * before the host's own handlers, which it does not change.
 */
export const PAGE_RECORDER = `
window.hostCount = 0; window.hostLog = [];
window.addEventListener('message', function (e) {
  var frame = document.querySelector('iframe');
  if (!frame || e.source !== frame.contentWindow) return;
  window.hostCount++;
  if (window.hostLog.length < 2000) {
    var m; try { m = typeof e.data === 'string' ? JSON.parse(e.data) : e.data; } catch (err) { m = { MessageId: '(not JSON)' }; }
    window.hostLog.push({ MessageId: m && m.MessageId, Values: (m && m.Values) || {}, origin: e.origin, at: Date.now() });
  }
});`;

/** One message as the page recorder keeps it. */
export interface LoggedMessage {
  MessageId: string;
  Values: Record<string, unknown>;
  origin: string;
  at: number;
}

/** The current and old RSA public keys of discovery's `<proof-key>` (modulus/exponent, oldmodulus/oldexponent). */
export function proofKeysOf(discoveryXml: string): { current: KeyObject; old: KeyObject } {
  const tag = /<proof-key\b[^>]*>/.exec(discoveryXml)?.[0];
  if (!tag) throw new Error('discovery has no proof-key');
  const attr = (name: string) => {
    const v = new RegExp(`\\s${name}="([^"]+)"`).exec(tag)?.[1];
    if (!v) throw new Error(`proof-key has no ${name}`);
    return Buffer.from(v, 'base64').toString('base64url');
  };
  const key = (n: string, e: string) => createPublicKey({ key: { kty: 'RSA', n: attr(n), e: attr(e) }, format: 'jwk' });
  return { current: key('modulus', 'exponent'), old: key('oldmodulus', 'oldexponent') };
}

/** .NET ticks (100 ns since 0001-01-01) of the Unix epoch. */
const EPOCH_TICKS = 621355968000000000n;

/** The MS-WOPI bytes a proof signs: lengths (4 bytes, big-endian) before the token, the upper-cased URL and the ticks. */
function proofBytes(token: string, url: string, ticks: bigint): Buffer {
  const t = Buffer.from(token, 'utf8');
  const u = Buffer.from(url.toUpperCase(), 'utf8');
  const n = Buffer.alloc(8);
  n.writeBigInt64BE(ticks);
  const len = (k: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(k);
    return b;
  };
  return Buffer.concat([len(t.length), t, len(u.length), u, len(8), n]);
}

/** Why a proof check failed, or 'ok'. */
export type ProofVerdict = 'ok' | 'missing' | 'old-timestamp' | 'bad-signature';

/**
 * The proof check of a host like richdocuments (ProofKeyService): the request is good when X-WOPI-Proof verifies
 * with the current or the old key, or X-WOPI-ProofOld with the current key, and X-WOPI-TimeStamp is at most 20
 * minutes old.
 */
export function checkProof(
  keys: { current: KeyObject; old: KeyObject },
  token: string,
  url: string,
  headers: IncomingMessage['headers'],
  now = Date.now(),
): ProofVerdict {
  const proof = headers['x-wopi-proof'];
  const proofOld = headers['x-wopi-proofold'];
  const stamp = headers['x-wopi-timestamp'];
  if (typeof proof !== 'string' || typeof stamp !== 'string' || !/^\d+$/.test(stamp)) return 'missing';
  const ticks = BigInt(stamp);
  const unixMs = Number((ticks - EPOCH_TICKS) / 10000n);
  if (unixMs < now - 20 * 60_000) return 'old-timestamp';
  const data = proofBytes(token, url, ticks);
  const ok = (sig: unknown, key: KeyObject) => typeof sig === 'string' && createVerify('RSA-SHA256').update(data).verify(key, sig, 'base64');
  return ok(proof, keys.current) || ok(proof, keys.old) || ok(proofOld, keys.current) ? 'ok' : 'bad-signature';
}

/** Decodes a UTF-7 header value (RFC 2152: `+<modified base64 of UTF-16BE>-`, `+-` is `+`), as PHP's mb_convert_encoding. */
export function decodeUtf7(s: string): string {
  return s.replace(/\+([A-Za-z0-9+/]*)-?/g, (_m, b64: string) => {
    if (!b64) return '+';
    const bytes = Buffer.from(b64, 'base64');
    let out = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes.readUInt16BE(i));
    return out;
  });
}

/** A LibreOffice user dictionary (.dic, "OOoUserDict1") holding `words`: a settings file a host may offer. */
export function wordbook(words: string[]): Buffer {
  return Buffer.from(['OOoUserDict1', 'lang: <none>', 'type: positive', '---', ...words, ''].join('\n'));
}

/**
 * Starts a host's HTTP server on 127.0.0.1 at a free port: each request goes to `handle`, and one that fails is
 * answered 500 `<label>: <message>`. Resolves with the server and its URL (with localhost, as a host page's origin).
 */
export async function startHostServer(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  label: string,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void handle(req, res).catch((e: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`${label}: ${e.message}`);
    });
  });
  return { server, url: await listenLocal(server, 'localhost') };
}
