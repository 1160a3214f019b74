import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import type { Logger } from 'pino';
import * as utf7 from 'utf7';
import type { OdeConfig } from '../config/schema.ts';
import { BASE_HEADERS, sendJson } from '../http/respond.ts';
import { baseUrl } from '../routes/context.ts';
import { fileIdOf, isDocumentName } from './file-id.ts';
import { selfBase } from './self-base.ts';
import { type FileStore, NameTakenError, StaleTimestampError, type StoredFile } from './file-store.ts';
import type { DemoUser, TokenStore } from './tokens.ts';

/** Path prefix of the demo host's WOPI files (spec: "File URL": a segment starting with `wopi`, then the id). */
export const DEMO_FILES_PATH = '/demo/wopi/files';

/** What the endpoints share with the rest of the demo host. */
export interface DemoWopiDeps {
  store: FileStore;
  tokens: TokenStore;
  config: () => OdeConfig;
  log: Logger;
}

/** The save headers are read under Ode's prefix first, then Collabora's and LibreOffice Online's. */
function saveHeader(req: IncomingMessage, name: string): string | undefined {
  for (const prefix of ['x-ode-wopi-', 'x-cool-wopi-', 'x-lool-wopi-']) {
    const v = req.headers[`${prefix}${name}`];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

/** Reads the request body, at most `max` bytes; undefined when it is larger (the rest is drained). */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > max) over = true;
    if (!over) chunks.push(c);
  }
  return over ? undefined : Buffer.concat(chunks);
}

/**
 * The demo host's WOPI endpoints (spec: "Endpoints implemented by the host"; MS-WOPI for what the spec leaves
 * out), under `/demo/wopi/files/<id>`:
 * - `GET <id>`: CheckFileInfo (LastModifiedTime from the file's mtime; Save As and Rename allowed);
 * - `GET <id>/contents`: GetFile;
 * - `POST <id>/contents`: PutFile; an X-ODE-WOPI-Timestamp (or X-COOL-/X-LOOL-) other than the stored
 *   LastModifiedTime -> 409 `{"ODEStatusCode":1010}`, nothing written; a body over limits.max_upload_mb -> 413;
 * - `POST <id>` with `X-WOPI-Override: PUT_RELATIVE`: PutRelativeFile (UTF-7 X-WOPI-SuggestedTarget, a free
 *   name is chosen when taken, or X-WOPI-RelativeTarget, 409 when taken without X-WOPI-OverwriteRelativeTarget);
 * - `POST <id>` with `X-WOPI-Override: RENAME_FILE`: RenameFile (UTF-7 X-WOPI-RequestedName, without the
 *   extension; 400 with X-WOPI-InvalidFileNameError for a bad or taken name).
 * Every request needs a valid, unexpired token (query `access_token`, else `Authorization: Bearer`): 401
 * otherwise; an unknown file is 404. Proof headers are not verified (a demo); a request without them is logged.
 */
export class DemoWopiEndpoints {
  private readonly d: DemoWopiDeps;

  constructor(deps: DemoWopiDeps) {
    this.d = deps;
  }

  /** Handles `<DEMO_FILES_PATH><rest>` for GET and POST. */
  async handle(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const m = /^\/([A-Za-z0-9_-]+)(\/contents)?\/?$/.exec(rest);
    if (!m) return void sendJson(res, 404, { error: 'no such WOPI endpoint' });
    const url = new URL(req.url ?? '/', 'http://x');
    const bearer = /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
    const token = url.searchParams.get('access_token') ?? bearer ?? undefined;
    const user = this.d.tokens.verify(token);
    const operation = m[2]
      ? req.method === 'POST'
        ? 'PutFile'
        : 'GetFile'
      : req.method === 'POST'
        ? (header(req, 'x-wopi-override') ?? 'POST')
        : 'CheckFileInfo';
    if (!req.headers['x-wopi-proof']) this.d.log.warn({ operation }, 'demo host: a WOPI request without proof headers (X-WOPI-Proof)');
    if (!user) {
      req.resume();
      return void sendJson(res, 401, { error: 'the access token is missing, wrong or expired: reload the start page for a new one' });
    }
    const name = this.d.store.resolve(m[1]);
    const file = name ? await this.d.store.info(name) : undefined;
    if (!file) {
      req.resume();
      return void sendJson(res, 404, { error: 'no such file' });
    }
    switch (operation) {
      case 'CheckFileInfo':
        return void sendJson(res, 200, this.checkFileInfo(file, user), { 'Cache-Control': 'no-store' });
      case 'GetFile':
        return this.getFile(res, file);
      case 'PutFile':
        return this.putFile(req, res, file);
      case 'PUT_RELATIVE':
        return this.putRelativeFile(req, res, file, token!);
      case 'RENAME_FILE':
        return this.renameFile(req, res, file);
      default:
        req.resume();
        return void sendJson(res, 501, { error: `${operation} is not supported by the demo host` });
    }
  }

  /** CheckFileInfo's JSON (spec: "CheckFileInfo response properties"). */
  private checkFileInfo(file: StoredFile, user: DemoUser): Record<string, unknown> {
    return {
      BaseFileName: file.name,
      OwnerId: 'ode-demo-host',
      Size: file.size,
      UserId: user.userId,
      UserFriendlyName: user.userName,
      Version: file.lastModifiedTime,
      LastModifiedTime: file.lastModifiedTime,
      UserCanWrite: file.writable,
      UserCanNotWriteRelative: false,
      SupportsUpdate: true,
      SupportsRename: true,
      UserCanRename: file.writable,
      SupportsLocks: false,
    };
  }

  private async getFile(res: ServerResponse, file: StoredFile): Promise<void> {
    let bytes: Buffer;
    try {
      bytes = await this.d.store.read(file.name);
    } catch {
      return void sendJson(res, 404, { error: 'no such file' });
    }
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': 'application/octet-stream',
      'Content-Length': bytes.length,
      'X-WOPI-ItemVersion': file.lastModifiedTime,
    });
    res.end(bytes);
  }

  private async putFile(req: IncomingMessage, res: ServerResponse, file: StoredFile): Promise<void> {
    const body = await readBody(req, this.d.config().limits.max_upload_mb * 1024 * 1024);
    if (!body) return void sendJson(res, 413, { error: 'the file is larger than limits.max_upload_mb' });
    if (!file.writable) return void sendJson(res, 403, { error: 'the file is read-only' });
    try {
      const lastModifiedTime = await this.d.store.write(file.name, body, saveHeader(req, 'timestamp'));
      this.d.log.info(
        { file: file.name, bytes: body.length, autosave: saveHeader(req, 'isautosave'), exitSave: saveHeader(req, 'isexitsave') === 'true' },
        'demo host: PutFile stored',
      );
      sendJson(res, 200, { LastModifiedTime: lastModifiedTime }, { 'X-WOPI-ItemVersion': lastModifiedTime });
    } catch (e) {
      if (e instanceof StaleTimestampError) return void sendJson(res, 409, { ODEStatusCode: 1010 });
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return void sendJson(res, 404, { error: 'no such file' });
      throw e;
    }
  }

  private async putRelativeFile(req: IncomingMessage, res: ServerResponse, file: StoredFile, token: string): Promise<void> {
    const suggested = header(req, 'x-wopi-suggestedtarget');
    const relative = header(req, 'x-wopi-relativetarget');
    const body = await readBody(req, this.d.config().limits.max_upload_mb * 1024 * 1024);
    if (!body) return void sendJson(res, 413, { error: 'the file is larger than limits.max_upload_mb' });
    // MS-WOPI: exactly one of the two targets.
    if ((suggested === undefined) === (relative === undefined))
      return void sendJson(res, 501, { error: 'give exactly one of X-WOPI-SuggestedTarget and X-WOPI-RelativeTarget' });
    let target = utf7.decode(suggested ?? relative!);
    // A suggested target that is only an extension keeps the current name's stem (MS-WOPI).
    if (suggested !== undefined && target.startsWith('.')) target = `${file.name.slice(0, file.name.length - extname(file.name).length)}${target}`;
    if (!isDocumentName(target))
      return void sendJson(res, 400, { error: 'not a valid file name' }, { 'X-WOPI-InvalidFileNameError': 'the name must be one file name with an extension' });
    let stored: string;
    try {
      stored = await this.d.store.create(target, body, {
        exact: relative !== undefined,
        overwrite: header(req, 'x-wopi-overwriterelativetarget')?.toLowerCase() === 'true',
      });
    } catch (e) {
      if (e instanceof NameTakenError) return void sendJson(res, 409, { error: `${target} exists` });
      throw e;
    }
    // Url is for the daemon (the WOPI client): loopback; the Host*Urls are pages for people: the public base.
    const base = baseUrl(req, this.d.config());
    const id = fileIdOf(stored);
    this.d.log.info({ from: file.name, to: stored }, 'demo host: PutRelativeFile stored a new file');
    sendJson(res, 200, {
      Name: stored,
      Url: `${selfBase(req, this.d.config())}${DEMO_FILES_PATH}/${id}?access_token=${token}`,
      HostEditUrl: `${base}/?open=${id}`,
      HostViewUrl: `${base}/?open=${id}`,
    });
  }

  private async renameFile(req: IncomingMessage, res: ServerResponse, file: StoredFile): Promise<void> {
    req.resume();
    const requested = header(req, 'x-wopi-requestedname');
    // The header must stay ASCII: the reasons are fixed texts.
    const invalid = (why: string) => sendJson(res, 400, { error: why }, { 'X-WOPI-InvalidFileNameError': why });
    if (requested === undefined) return void invalid('X-WOPI-RequestedName is missing');
    if (!file.writable) return void sendJson(res, 403, { error: 'the file is read-only' });
    const stem = utf7.decode(requested);
    const newName = `${stem}${extname(file.name)}`;
    if (!stem || !isDocumentName(newName)) return void invalid('not a valid file name');
    if (newName === file.name) return void sendJson(res, 200, { Name: stem });
    try {
      await this.d.store.renameTo(file.name, newName);
    } catch (e) {
      if (e instanceof NameTakenError) return void invalid('a file with that name exists');
      throw e;
    }
    this.d.log.info({ from: file.name, to: newName }, 'demo host: RenameFile');
    sendJson(res, 200, { Name: stem });
  }
}
