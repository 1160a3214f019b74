import * as utf7 from 'utf7';
import { parseCheckFileInfo, type FileInfo } from './check-file-info.ts';
import { WopiError, errorForStatus } from './wopi-error.ts';
import type { WopiSrc } from './wopi-src.ts';
import { describeHostTlsError, type HostFetch } from '../http/host-tls.ts';
import { jsonObject } from '../http/page-form.ts';
import { fetchRetryingStale, hostFetchFailure } from './stale-connection.ts';

/** Signs one request to a host: the proof headers (X-WOPI-Proof, X-WOPI-ProofOld, X-WOPI-TimeStamp) for the absolute URL. */
export type ProofSigner = (accessToken: string, url: string) => Record<string, string>;

/** How the client talks to hosts. */
export interface WopiClientOptions {
  /** Proof headers (certs/proof-signing.ts); none when undefined. */
  sign?: ProofSigner;
  /** Time-out of each request, ms (connect to last byte). */
  timeoutMs: number;
  /** Also send the save headers as X-COOL-WOPI-* and X-LOOL-WOPI-* (hosts written for Collabora read those). */
  compatHeaders: boolean;
  /** Redirects followed per request (issue 4: up to 21). */
  maxRedirects?: number;
  userAgent?: string;
  /** The fetch requests go through: HostTls.fetch (storage.ssl: CA list, verification); default the global fetch. */
  fetch?: HostFetch;
}

/** What a PutFile says about the save (spec: PutFile request headers). */
export interface PutFileOptions {
  /** X-ODE-WOPI-Timestamp: the LastModifiedTime we know; omitted to save regardless (the "overwrite" choice). */
  timestamp?: string;
  isModifiedByUser: boolean;
  isAutosave: boolean;
  isExitSave: boolean;
  /** X-WOPI-Lock when the host supports locks. */
  lock?: string;
}

/** A finished request: status, headers and body. */
interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The WOPI client (MS-WOPI and the spec's "Endpoints implemented by the host"): CheckFileInfo, GetFile,
 * PutFile, PutRelativeFile, RenameFile, Lock/Unlock/RefreshLock. Every request to the host's own origin carries
 * `access_token` in the query, `Authorization: Bearer`, and the proof headers; redirects are followed by hand
 * (up to 21), and the token and proof go only to the host's origin, never to a redirect target elsewhere (a
 * presigned storage URL, say). Failures are WopiErrors whose `kind` tells the document logic what to do.
 */
export class WopiClient {
  private readonly opts: WopiClientOptions;

  constructor(opts: WopiClientOptions) {
    this.opts = { maxRedirects: 21, ...opts };
  }

  /**
   * CheckFileInfo: GET the file URL.
   * @param override the `checkfileinfo_override` form field.
   * @throws WopiError (see wopi-error.ts), bad_answer for a body that is not CheckFileInfo JSON.
   */
  async checkFileInfo(src: WopiSrc, token: string, override?: string): Promise<FileInfo> {
    const a = await this.request('CheckFileInfo', 'GET', src.url, token);
    return parseCheckFileInfo(json('CheckFileInfo', a), override);
  }

  /**
   * GetFile: the file's bytes, from CheckFileInfo's `FileUrl` when given and else, or when that fails, from
   * `<file URL>/contents`. A FileUrl on the host's own origin is called like any host request (token, Bearer,
   * proof); one elsewhere (a storage service) gets no credentials: it must carry its own.
   * @throws WopiError from the /contents request.
   */
  async getFile(src: WopiSrc, token: string, info?: Pick<FileInfo, 'FileUrl'>): Promise<Buffer> {
    if (info?.FileUrl) {
      try {
        const fileUrl = new URL(info.FileUrl);
        return (await this.request('GetFile', 'GET', fileUrl, fileUrl.origin === src.url.origin ? token : undefined)).body;
      } catch {
        // MS-WOPI: a client falls back to the contents endpoint when FileUrl fails.
      }
    }
    return (await this.request('GetFile', 'GET', contentsUrl(src), token)).body;
  }

  /**
   * Downloads CheckFileInfo's TemplateSource. As for FileUrl, a URL on the host's own origin is called like any host
   * request (token, Bearer, proof); one elsewhere gets no credentials.
   * @throws WopiError.
   */
  async getTemplate(url: string, src: WopiSrc, token: string): Promise<Buffer> {
    const u = new URL(url);
    return (await this.request('TemplateSource', 'GET', u, u.origin === src.url.origin ? token : undefined)).body;
  }

  /**
   * PutFile: POST the bytes to `<file URL>/contents` with X-WOPI-Override PUT and the save headers under
   * X-ODE-WOPI- (and X-COOL-/X-LOOL- when compatHeaders).
   *
   * The stored file's new LastModifiedTime is the answer's. A host that gives LastModifiedTime in CheckFileInfo but
   * answers PutFile without it (Moodle's mod_collabora: an empty 200; the spec says the host "should" send it) has
   * still changed it: when `o.timestamp` was sent (so the host has times) and the answer has none, a CheckFileInfo
   * right after asks for it. Without that, the next comparison with CheckFileInfo (a view joining, the periodic
   * check) took Ode's own save for a change made elsewhere. A change stored by someone else between the PutFile and
   * that CheckFileInfo is then not seen as a conflict (the same window as after a rename, docs/hosts.md).
   * @returns the host's new LastModifiedTime when it sent one, or CheckFileInfo's as above; undefined when neither
   *   says (or that CheckFileInfo failed).
   * @throws WopiError; `document_changed` for 409/1010.
   */
  async putFile(src: WopiSrc, token: string, body: Uint8Array, o: PutFileOptions): Promise<{ lastModifiedTime?: string }> {
    const headers: Record<string, string> = { 'X-WOPI-Override': 'PUT', 'Content-Type': 'application/octet-stream' };
    if (o.lock) headers['X-WOPI-Lock'] = o.lock;
    for (const prefix of this.opts.compatHeaders ? ['X-ODE', 'X-COOL', 'X-LOOL'] : ['X-ODE']) {
      if (o.timestamp) headers[`${prefix}-WOPI-Timestamp`] = o.timestamp;
      headers[`${prefix}-WOPI-IsModifiedByUser`] = String(o.isModifiedByUser);
      headers[`${prefix}-WOPI-IsAutosave`] = String(o.isAutosave);
      if (o.isExitSave) headers[`${prefix}-WOPI-IsExitSave`] = 'true';
    }
    const a = await this.request('PutFile', 'POST', contentsUrl(src), token, headers, body);
    const j = a.body.length > 0 ? jsonObject(a.body) : undefined;
    if (typeof j?.LastModifiedTime === 'string') return { lastModifiedTime: j.LastModifiedTime };
    if (!o.timestamp) return { lastModifiedTime: undefined };
    return this.checkFileInfo(src, token).then(
      (info) => ({ lastModifiedTime: info.LastModifiedTime }),
      () => ({ lastModifiedTime: undefined }),
    );
  }

  /**
   * PutRelativeFile (Save As): POST to the file URL with X-WOPI-Override PUT_RELATIVE, X-WOPI-SuggestedTarget
   * (the full new name, UTF-7) and X-WOPI-Size (bytes).
   * @returns the host's JSON answer (MS-WOPI: Name, Url, HostEditUrl, ...).
   * @throws WopiError.
   */
  async putRelativeFile(src: WopiSrc, token: string, body: Uint8Array, suggestedTarget: string): Promise<Record<string, unknown>> {
    const headers = {
      'X-WOPI-Override': 'PUT_RELATIVE',
      'X-WOPI-SuggestedTarget': utf7.encode(suggestedTarget),
      'X-WOPI-Size': String(body.length),
      'Content-Type': 'application/octet-stream',
    };
    return json('PutRelativeFile', await this.request('PutRelativeFile', 'POST', src.url, token, headers, body));
  }

  /**
   * RenameFile: POST to the file URL with X-WOPI-Override RENAME_FILE, X-WOPI-RequestedName (the new name without
   * extension, UTF-7), X-WOPI-Lock when locked, and the document in the body (application/octet-stream), as
   * Collabora Online sends it (wsd/wopi/WopiStorage.cpp uploads the saved file for a rename): richdocuments writes
   * the request body into the renamed file, so an empty body would empty it (issue 14, item 7).
   * @param body the document as stored (bytes)
   * @returns the host's JSON answer (MS-WOPI: Name; Collabora also reads Url and LastModifiedTime). An answer without
   *   `Name` but with `BaseFileName` is a CheckFileInfo: a host that answers every POST it does not know that way
   *   (EGroupware's collabora app has no RENAME_FILE though it says SupportsRename) renamed nothing, so `Name` is
   *   its BaseFileName without the extension, the name the file still has.
   * @throws WopiError.
   */
  async renameFile(src: WopiSrc, token: string, requestedName: string, body: Uint8Array, lock?: string): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = {
      'X-WOPI-Override': 'RENAME_FILE',
      'X-WOPI-RequestedName': utf7.encode(requestedName),
      'Content-Type': 'application/octet-stream',
    };
    if (lock) headers['X-WOPI-Lock'] = lock;
    const a = await this.request('RenameFile', 'POST', src.url, token, headers, body);
    const j = a.body.length > 0 ? (jsonObject(a.body) ?? {}) : {};
    if (typeof j.Name !== 'string' && typeof j.BaseFileName === 'string') return { ...j, Name: j.BaseFileName.replace(/\.[^.]*$/, '') };
    return j;
  }

  /**
   * Lock, Unlock or RefreshLock (MS-WOPI; only when CheckFileInfo says SupportsLocks). With `oldLock`, LOCK is
   * MS-WOPI's UnlockAndRelock: the host replaces `oldLock` by `lockId` when `oldLock` is the lock it holds.
   * @throws WopiError `conflict` with the host's lock when another lock is held.
   */
  async lock(src: WopiSrc, token: string, operation: 'LOCK' | 'UNLOCK' | 'REFRESH_LOCK', lockId: string, oldLock?: string): Promise<void> {
    const headers: Record<string, string> = { 'X-WOPI-Override': operation, 'X-WOPI-Lock': lockId };
    if (oldLock !== undefined && operation === 'LOCK') headers['X-WOPI-OldLock'] = oldLock;
    await this.request(operation, 'POST', src.url, token, headers);
  }

  /**
   * One HTTP request with the time-out. A kept-alive connection the host closed as the request went out (its
   * keep-alive time-out; `staleConnection`) fails before any answer: a GET is then sent again at once, once, on a new
   * connection, as browsers do; never after a time-out or an HTTP error, and never a POST (not idempotent):
   * stale-connection.ts `fetchRetryingStale`.
   * @throws WopiError unavailable (connection, time-out), failed (the host's TLS certificate).
   */
  private async send(operation: string, url: URL, method: 'GET' | 'POST', headers: Record<string, string>, body: Uint8Array | undefined): Promise<Response> {
    try {
      return await fetchRetryingStale(this.opts.fetch ?? fetch, url, { method, headers, body, timeoutMs: this.opts.timeoutMs });
    } catch (e) {
      // A certificate problem is the operator's to fix, not a passing outage: not retried, and the message says what to do.
      const tls = describeHostTlsError(e, url.host);
      if (tls) throw new WopiError('failed', `${operation} to ${url.host} failed: ${tls}`);
      const why = hostFetchFailure(e, this.opts.timeoutMs);
      throw new WopiError('unavailable', `${operation} to ${url.host} failed: ${why}`);
    }
  }

  /** One request with the token, proof, time-out and redirects; a non-2xx answer becomes a WopiError. */
  private async request(
    operation: string,
    method: 'GET' | 'POST',
    start: URL,
    token: string | undefined,
    headers: Record<string, string> = {},
    body?: Uint8Array,
  ): Promise<Answer> {
    let url = new URL(start);
    let currentMethod = method;
    let currentBody = body;
    for (let hop = 0; ; hop++) {
      const own = token !== undefined && url.origin === start.origin;
      if (own) url.searchParams.set('access_token', token);
      const h: Record<string, string> = { ...headers };
      if (this.opts.userAgent) h['User-Agent'] = this.opts.userAgent;
      if (own) {
        h.Authorization = `Bearer ${token}`;
        Object.assign(h, this.opts.sign?.(token, url.href));
      }
      const res = await this.send(operation, url, currentMethod, h, currentBody);
      if (REDIRECTS.has(res.status)) {
        await res.arrayBuffer();
        const location = res.headers.get('location');
        if (!location) throw new WopiError('bad_answer', `${operation} answered ${res.status} without a Location`, res.status);
        if (hop >= this.opts.maxRedirects!)
          throw new WopiError('bad_answer', `${operation} was redirected more than ${this.opts.maxRedirects} times`, res.status);
        url = new URL(location, url);
        if (res.status === 303) {
          currentMethod = 'GET';
          currentBody = undefined;
        }
        continue;
      }
      const buf = Buffer.from(await res.arrayBuffer());
      if (res.status < 200 || res.status > 299)
        throw errorForStatus(operation, res.status, buf.toString('utf8').slice(0, 4096), res.headers.get('x-wopi-lock'));
      return { status: res.status, headers: res.headers, body: buf };
    }
  }
}

/** `<file URL>/contents`, keeping the file URL's query (hosts put their own parameters there). */
export function contentsUrl(src: WopiSrc): URL {
  const u = new URL(src.url);
  u.pathname = `${u.pathname.replace(/\/$/, '')}/contents`;
  return u;
}

function json(operation: string, a: Answer): Record<string, unknown> {
  const j = jsonObject(a.body);
  if (!j) throw new WopiError('bad_answer', `${operation} answered ${a.status} without a JSON object`, a.status);
  return j;
}
