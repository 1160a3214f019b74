import { createHash, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import busboy from 'busboy';
import { verifyProof } from './fake-wopi-host.ts';

/** The two settings kinds of the spec ("Settings endpoints implemented by the host"). */
export type SettingsType = 'userconfig' | 'systemconfig';

/** A request the settings host received (every one is logged, also refused ones). */
export interface SettingsRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** List, Upload, Delete, GetSettingFile or other. */
  operation: 'List' | 'Upload' | 'Delete' | 'GetSettingFile' | 'other';
  /** The token the request carried (query access_token, else the Bearer header). */
  token: string;
  /** X-WOPI-Proof verified against `proofKey` (MS-WOPI signing), undefined when no key was set. */
  proofValid?: boolean;
  /** The HTTP status the host answered. */
  status?: number;
}

/** A scripted answer for the next request(s) of an operation (to test error display). */
export interface SettingsScriptedAnswer {
  status: number;
  body: unknown;
}

/** The setting names every listing has, even empty (spec: autotext, xcu, wordbook). */
const DEFAULT_SETTING_NAMES = ['autotext', 'wordbook', 'xcu'];
const FILE_ID = /^\/settings\/(userconfig|systemconfig)\/([A-Za-z0-9_-]+)\/([^/\\]+)$/;

/**
 * A small real WOPI host for the settings endpoints of host-integration-protocol.md ("Settings endpoints
 * implemented by the host"): GET `/wopi/settings?type&fileId=-1` lists, POST `/wopi/settings/upload?fileId=...`
 * stores (multipart field `file`, or a raw body), DELETE `/wopi/settings?fileId=...` removes, over files on disk
 * under `<root>/<TYPE>/<SETTING_NAME>/<FILE>`. Each file's `uri` is `GET /wopi/settings/file/<TYPE>/<NAME>/<FILE>`
 * (same token rules). The user token may touch userconfig only, the admin token systemconfig only (spec
 * "Security": separate tokens). The stamp is a hash of the bytes, so it changes exactly when the file does.
 */
export class SettingsHost {
  readonly requests: SettingsRequest[] = [];
  readonly script = new Map<string, SettingsScriptedAnswer[]>();
  /** HTML pages served at their path (GET, not logged): e.g. a parent page embedding the settings iframe on the host's origin. */
  readonly pages = new Map<string, string>();
  userToken = 'user_tok';
  adminToken = 'admin_tok';
  /** Set to discovery's proof key to have every request's X-WOPI-Proof checked. */
  proofKey: KeyObject | undefined;
  url = '';
  readonly root: string;
  private server: Server | undefined;

  private constructor(root: string) {
    this.root = root;
  }

  /** Starts on 127.0.0.1 port 0 with a fresh temp root (removed by stop()). */
  static async start(): Promise<SettingsHost> {
    const host = new SettingsHost(mkdtempSync(join(tmpdir(), 'ode-settings-host-')));
    host.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void host.handle(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks), res));
    });
    await new Promise<void>((r) => host.server!.listen(0, '127.0.0.1', r));
    host.url = `http://127.0.0.1:${(host.server!.address() as AddressInfo).port}`;
    return host;
  }

  /** The `wopi_setting_base_url` of the iframe form: `<host base>/wopi/settings`. */
  get baseUrl(): string {
    return `${this.url}/wopi/settings`;
  }

  /** The CheckFileInfo `UserSettings`/`SharedSettings` `url` for a type, with the matching token. */
  settingsUrl(type: SettingsType): string {
    return `${this.baseUrl}?access_token=${type === 'userconfig' ? this.userToken : this.adminToken}&type=${type}&fileId=-1`;
  }

  /** Writes a file on disk directly (setup); returns its path. */
  put(type: SettingsType, name: string, file: string, bytes: Buffer | string): string {
    mkdirSync(join(this.root, type, name), { recursive: true });
    const path = join(this.root, type, name, file);
    writeFileSync(path, bytes);
    return path;
  }

  /** The bytes of a stored file, or undefined. */
  read(type: SettingsType, name: string, file: string): Buffer | undefined {
    const path = join(this.root, type, name, file);
    return existsSync(path) ? readFileSync(path) : undefined;
  }

  /** The stored files as `<TYPE>/<SETTING_NAME>/<FILE>` paths, sorted. */
  storedPaths(): string[] {
    const out: string[] = [];
    for (const type of readdirIfAny(this.root))
      for (const name of readdirIfAny(join(this.root, type))) for (const f of readdirIfAny(join(this.root, type, name))) out.push(`${type}/${name}/${f}`);
    return out.sort();
  }

  /** The stamp the host gives a file's bytes (first 16 hex digits of SHA-256). */
  static stampOf(bytes: Buffer | string): string {
    return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  }

  /** The settings fetch JSON the host would answer for a type (spec "Settings fetch response"). */
  listing(type: SettingsType): Record<string, unknown> {
    const out: Record<string, unknown> = { kind: type === 'userconfig' ? 'user' : 'shared' };
    const names = new Set([...DEFAULT_SETTING_NAMES, ...readdirIfAny(join(this.root, type))]);
    for (const name of [...names].sort()) {
      out[name] = readdirIfAny(join(this.root, type, name)).map((f) => ({
        stamp: SettingsHost.stampOf(readFileSync(join(this.root, type, name, f))),
        uri: `${this.url}/wopi/settings/file/${type}/${name}/${encodeURIComponent(f)}`,
      }));
    }
    return out;
  }

  /** Answers the next request(s) of an operation (List, Upload, Delete, GetSettingFile) as scripted, in order. */
  answer(operation: SettingsRequest['operation'], ...answers: SettingsScriptedAnswer[]): void {
    this.script.set(operation, [...(this.script.get(operation) ?? []), ...answers]);
  }

  /** The requests of one operation. */
  of(operation: SettingsRequest['operation']): SettingsRequest[] {
    return this.requests.filter((r) => r.operation === operation);
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    rmSync(this.root, { recursive: true, force: true });
  }

  private allowed(token: string, type: string): boolean {
    return (type === 'userconfig' && token === this.userToken) || (type === 'systemconfig' && token === this.adminToken);
  }

  private async handle(method: string, rawUrl: string, headers: IncomingHttpHeaders, body: Buffer, res: ServerResponse): Promise<void> {
    const url = new URL(rawUrl, this.url);
    const p = url.pathname;
    const page = method === 'GET' ? this.pages.get(p) : undefined;
    if (page !== undefined) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return void res.end(page);
    }
    const operation: SettingsRequest['operation'] =
      p === '/wopi/settings' && method === 'GET'
        ? 'List'
        : p === '/wopi/settings/upload' && method === 'POST'
          ? 'Upload'
          : p === '/wopi/settings' && method === 'DELETE'
            ? 'Delete'
            : p.startsWith('/wopi/settings/file/') && method === 'GET'
              ? 'GetSettingFile'
              : 'other';
    const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1] ?? '';
    const token = url.searchParams.get('access_token') ?? bearer;
    const rec: SettingsRequest = {
      method,
      path: p,
      query: url.searchParams,
      headers,
      body,
      operation,
      token,
      proofValid: this.proofKey ? verifyProof(this.proofKey, token, `${this.url}${rawUrl}`, headers) : undefined,
    };
    this.requests.push(rec);
    const send = (status: number, payload: unknown) => {
      rec.status = status;
      const isBytes = Buffer.isBuffer(payload);
      res.writeHead(status, { 'Content-Type': isBytes ? 'application/octet-stream' : 'application/json' });
      res.end(isBytes ? payload : JSON.stringify(payload));
    };
    const scripted = this.script.get(operation)?.shift();
    if (scripted) return send(scripted.status, scripted.body);
    switch (operation) {
      case 'List': {
        const type = url.searchParams.get('type') ?? '';
        if (type !== 'userconfig' && type !== 'systemconfig') return send(400, { status: 'error', message: `bad type '${type}'` });
        if (!this.allowed(token, type)) return send(401, { status: 'error', message: 'bad token' });
        return send(200, this.listing(type));
      }
      case 'Upload':
      case 'Delete': {
        const fileId = url.searchParams.get('fileId') ?? '';
        const m = FILE_ID.exec(fileId);
        if (!m || m[3] === '.' || m[3] === '..') return send(400, { status: 'error', message: `bad fileId '${fileId}'` });
        const [, type, name, file] = m;
        if (!this.allowed(token, type)) return send(401, { status: 'error', message: 'bad token' });
        const path = join(this.root, type, name, file);
        if (operation === 'Delete') {
          if (!existsSync(path)) return send(404, { status: 'error', message: `${fileId} not found` });
          unlinkSync(path);
          return send(200, { status: 'success', message: `${file} deleted` });
        }
        const bytes = await fileBytes(headers, body);
        if (!bytes) return send(400, { status: 'error', message: 'no file in the request' });
        this.put(type as SettingsType, name, file, bytes);
        return send(200, {
          status: 'success',
          filename: file,
          details: { stamp: SettingsHost.stampOf(bytes), uri: `${this.url}/wopi/settings/file/${type}/${name}/${encodeURIComponent(file)}` },
        });
      }
      case 'GetSettingFile': {
        const m = /^\/wopi\/settings\/file\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(p);
        if (!m) return send(404, { status: 'error', message: 'no such file' });
        const [type, name, file] = [m[1], m[2], decodeURIComponent(m[3])];
        if (!this.allowed(token, type)) return send(401, { status: 'error', message: 'bad token' });
        const bytes = FILE_ID.test(`/settings/${type}/${name}/${file}`) ? this.read(type as SettingsType, name, file) : undefined;
        return bytes ? send(200, bytes) : send(404, { status: 'error', message: 'no such file' });
      }
      default:
        return send(404, { status: 'error', message: 'no such endpoint' });
    }
  }
}

function readdirIfAny(dir: string): string[] {
  return existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).sort() : [];
}

/** The uploaded file: the multipart field `file` (first file part), else the raw body; undefined when empty. */
async function fileBytes(headers: IncomingHttpHeaders, body: Buffer): Promise<Buffer | undefined> {
  if (!String(headers['content-type'] ?? '').startsWith('multipart/form-data')) return body.length ? body : undefined;
  return new Promise((resolve) => {
    let found: Buffer | undefined;
    const bb = busboy({ headers });
    bb.on('file', (_field, stream) => {
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('end', () => (found ??= Buffer.concat(parts)));
    });
    bb.on('close', () => resolve(found));
    bb.on('error', () => resolve(undefined));
    bb.end(body);
  });
}
