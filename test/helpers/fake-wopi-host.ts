import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { recordSecret } from './log-capture.ts';

/** One file the fake host stores. `info` adds or overrides CheckFileInfo properties. */
export interface FakeFile {
  name: string;
  bytes: Buffer;
  lastModifiedTime: string;
  info: Record<string, unknown>;
}

/** A request the host received, with whether its proof header verified against the given public key. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Header name/value pairs exactly as received (bytes of UTF-7 headers can be checked). */
  rawHeaders: string[];
  body: Buffer;
  /** X-WOPI-Proof verified with the current key (MS-WOPI), or undefined when no key was given. */
  proofValid?: boolean;
  operation: string;
}

/** A scripted answer for the next request(s) of an operation. */
export interface ScriptedAnswer {
  status: number;
  /** The answer's body: text, or bytes (a GetFile answered late with the file's content). */
  body?: string | Buffer;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** The RSA public key of discovery's proof-key element (base64 modulus and exponent). */
export function publicKeyFromDiscovery(xml: string): KeyObject {
  const m =
    /<proof-key\b[^>]*\smodulus="([^"]+)"[^>]*\sexponent="([^"]+)"/.exec(xml) ?? /<proof-key\b[^>]*\sexponent="([^"]+)"[^>]*\smodulus="([^"]+)"/.exec(xml);
  if (!m) throw new Error('no proof-key in discovery');
  const [modulus, exponent] = xml.indexOf('modulus=') < xml.indexOf('exponent=') ? [m[1], m[2]] : [m[2], m[1]];
  const b64url = (s: string) => Buffer.from(s, 'base64').toString('base64url');
  return createPublicKey({ key: { kty: 'RSA', n: b64url(modulus), e: b64url(exponent) }, format: 'jwk' });
}

/** MS-WOPI proof verification, written here independently of certs/: the signed bytes and RSA-SHA256 over token, upper-cased URL and ticks; true when `X-WOPI-Proof` verifies with `key`. */
export function verifyProof(key: KeyObject, token: string, url: string, headers: IncomingHttpHeaders): boolean {
  const proof = headers['x-wopi-proof'];
  const stamp = headers['x-wopi-timestamp'];
  if (typeof proof !== 'string' || typeof stamp !== 'string') return false;
  const t = Buffer.from(token, 'utf8');
  const u = Buffer.from(url.toUpperCase(), 'utf8');
  const ticks = Buffer.alloc(8);
  ticks.writeBigInt64BE(BigInt(stamp));
  const len = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return b;
  };
  const data = Buffer.concat([len(t.length), t, len(u.length), u, len(8), ticks]);
  return createVerify('RSA-SHA256').update(data).verify(key, proof, 'base64');
}

/**
 * A small real WOPI host for tests (the one part outside Ode that tests may fake): CheckFileInfo, GetFile,
 * PutFile with the spec's 409/1010 timestamp check, PutRelativeFile, RenameFile and Lock operations over files in
 * memory, one valid access token, every request recorded, and answers scriptable per operation.
 */
export class FakeWopiHost {
  readonly files = new Map<string, FakeFile>();
  readonly requests: RecordedRequest[] = [];
  readonly script = new Map<string, ScriptedAnswer[]>();
  private accepted = 'tok_123';
  /** The one access token the host accepts (recorded for the suite's log grep, test/helpers/log-capture.ts). */
  get token(): string {
    return this.accepted;
  }
  set token(value: string) {
    this.accepted = value;
    recordSecret(value, 'access token of the fake WOPI host');
  }
  proofKey: KeyObject | undefined;
  /**
   * Lock checks as MS-WOPI hosts make them (off by default): Lock with another id than the held one, Unlock,
   * RefreshLock and PutFile with a mismatching X-WOPI-Lock answer 409 with the held lock in X-WOPI-Lock (empty when
   * none); Lock with X-WOPI-OldLock is UnlockAndRelock. A PutFile to an unlocked file is taken (as richdocuments does).
   */
  enforceLocks = false;
  /** The lock held on each file id (kept whether or not enforceLocks). */
  readonly locks = new Map<string, string>();
  /** A slow host: PutFile is handled (stored and answered) this much later (ms); it is recorded in `requests` on arrival. */
  putFileDelayMs = 0;
  url = '';
  private server: Server | undefined;
  private clock = Date.parse('2026-01-01T00:00:00Z');

  /** Starts on 127.0.0.1, port 0; over HTTPS with `tls` (PEM certificate and key), e.g. a self-signed host. */
  static async start(tls?: { cert: string; key: string }): Promise<FakeWopiHost> {
    const host = new FakeWopiHost();
    recordSecret(host.token, 'access token of the fake WOPI host');
    const onRequest = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void host.handle(req.method ?? 'GET', req.url ?? '/', req.headers, req.rawHeaders, Buffer.concat(chunks), res));
    };
    host.server = tls ? createHttpsServer(tls, onRequest) : createServer(onRequest);
    await new Promise<void>((r) => host.server!.listen(0, '127.0.0.1', r));
    host.url = `${tls ? 'https' : 'http'}://127.0.0.1:${(host.server!.address() as AddressInfo).port}`;
    return host;
  }

  /** The WOPISrc of a file id. */
  fileUrl(id: string): string {
    return `${this.url}/wopi/files/${id}`;
  }

  /** Stores a file; returns its WOPISrc. */
  addFile(id: string, name: string, bytes: Buffer, info: Record<string, unknown> = {}): string {
    this.files.set(id, { name, bytes, lastModifiedTime: this.tick(), info });
    return this.fileUrl(id);
  }

  /** Simulates another client saving the file in storage (a new LastModifiedTime). */
  touch(id: string, bytes?: Buffer): void {
    const f = this.files.get(id)!;
    if (bytes) f.bytes = bytes;
    f.lastModifiedTime = this.tick();
  }

  /** Answers the next request(s) of `operation` (CheckFileInfo, GetFile, PutFile, PUT_RELATIVE, ...) as scripted, in order. */
  answer(operation: string, ...answers: ScriptedAnswer[]): void {
    this.script.set(operation, [...(this.script.get(operation) ?? []), ...answers]);
  }

  /** The requests of one operation. */
  of(operation: string): RecordedRequest[] {
    return this.requests.filter((r) => r.operation === operation);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private tick(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  /** Lock, UnlockAndRelock, Unlock, RefreshLock of file `id` (MS-WOPI); every request succeeds unless enforceLocks. */
  private lockOperation(
    operation: string,
    id: string,
    headers: IncomingHttpHeaders,
    send: (status: number, payload: unknown, extra?: Record<string, string>) => void,
  ): void {
    const lock = String(headers['x-wopi-lock'] ?? '');
    const old = headers['x-wopi-oldlock'];
    const held = this.locks.get(id);
    const conflict = () => send(409, '', { 'X-WOPI-Lock': held ?? '' });
    if (operation === 'LOCK' && typeof old === 'string') {
      if (this.enforceLocks && held !== old) return conflict();
      this.locks.set(id, lock);
    } else if (operation === 'LOCK') {
      if (this.enforceLocks && held !== undefined && held !== lock) return conflict();
      this.locks.set(id, lock);
    } else if (operation === 'UNLOCK') {
      if (this.enforceLocks && held !== lock) return conflict();
      this.locks.delete(id);
    } else if (this.enforceLocks && held !== lock) return conflict();
    send(200, {});
  }

  private async handle(
    method: string,
    rawUrl: string,
    headers: IncomingHttpHeaders,
    rawHeaders: string[],
    body: Buffer,
    res: import('node:http').ServerResponse,
  ): Promise<void> {
    const url = new URL(rawUrl, this.url);
    const m = /^\/wopi\/files\/([^/]+)(\/contents)?$/.exec(url.pathname);
    const override = String(headers['x-wopi-override'] ?? '');
    const operation = !m ? 'other' : m[2] ? (method === 'GET' ? 'GetFile' : 'PutFile') : method === 'GET' ? 'CheckFileInfo' : override || 'POST';
    const token = url.searchParams.get('access_token') ?? '';
    const rec: RecordedRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers,
      rawHeaders,
      body,
      operation,
      proofValid: this.proofKey ? verifyProof(this.proofKey, token, `${this.url}${rawUrl}`, headers) : undefined,
    };
    this.requests.push(rec);
    const send = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      const text = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
      res.writeHead(status, { 'Content-Type': Buffer.isBuffer(payload) ? 'application/octet-stream' : 'application/json', ...extra });
      res.end(text);
    };
    const scripted = this.script.get(operation)?.shift();
    if (scripted) {
      if (scripted.delayMs) await new Promise((r) => setTimeout(r, scripted.delayMs));
      return send(scripted.status, scripted.body ?? '', scripted.headers);
    }
    if (!m) return send(404, { error: 'no such endpoint' });
    // Hosts read access_token from the query (MS-WOPI); the Bearer header is the same token again.
    if (token !== this.token && headers.authorization !== `Bearer ${this.token}`) return send(401, { error: 'bad token' });
    const file = this.files.get(m[1]);
    if (!file) return send(404, { error: 'no such file' });
    switch (operation) {
      case 'CheckFileInfo':
        return send(200, {
          BaseFileName: file.name,
          OwnerId: 'owner',
          UserId: 'user-1',
          UserFriendlyName: 'Test User',
          Size: file.bytes.length,
          UserCanWrite: true,
          LastModifiedTime: file.lastModifiedTime,
          ...file.info,
        });
      case 'GetFile':
        return send(200, file.bytes);
      case 'PutFile': {
        if (this.putFileDelayMs) await new Promise((r) => setTimeout(r, this.putFileDelayMs));
        const held = this.locks.get(m[1]);
        if (this.enforceLocks && held !== undefined && held !== headers['x-wopi-lock']) return send(409, '', { 'X-WOPI-Lock': held });
        const stamp = headers['x-ode-wopi-timestamp'];
        if (typeof stamp === 'string' && stamp !== file.lastModifiedTime) return send(409, { ODEStatusCode: 1010 });
        file.bytes = body;
        file.lastModifiedTime = this.tick();
        return send(200, { LastModifiedTime: file.lastModifiedTime });
      }
      case 'PUT_RELATIVE': {
        const id = `new${this.files.size}`;
        this.files.set(id, { name: String(headers['x-wopi-suggestedtarget']), bytes: body, lastModifiedTime: this.tick(), info: {} });
        return send(200, { Name: String(headers['x-wopi-suggestedtarget']), Url: `${this.fileUrl(id)}?access_token=${this.token}` });
      }
      case 'RENAME_FILE': {
        // As richdocuments: the file is moved to the requested name (plus its extension) and the request body is
        // written into it (WopiController::postFile), so its time changes; the answer has no LastModifiedTime.
        const requested = String(headers['x-wopi-requestedname']);
        file.name = `${requested}${/\.[^.]*$/.exec(file.name)?.[0] ?? ''}`;
        file.bytes = body;
        file.lastModifiedTime = this.tick();
        return send(200, { Name: requested });
      }
      case 'LOCK':
      case 'UNLOCK':
      case 'REFRESH_LOCK':
        return this.lockOperation(operation, m[1], headers, send);
      default:
        return send(501, { error: `unsupported ${operation}` });
    }
  }
}
