import { OdeError } from '../errors.ts';
import type { ProofSigner } from '../wopi/wopi-client.ts';
import { describeHostTlsError, type HostFetch } from '../http/host-tls.ts';
import { checkWopiHost } from '../wopi/wopi-src.ts';
import { fetchRetryingStale, hostFetchFailure } from '../wopi/stale-connection.ts';
import { jsonObject } from '../http/page-form.ts';
import type { SettingFile, SettingsListing } from '../../protocol/settings.ts';
export type { SettingFile, SettingsListing };

/**
 * The WOPI-side client of the settings endpoints a host implements (host-integration protocol, "Settings endpoints
 * implemented by the host"): list (GET `{base}?access_token&type&fileId=-1`), upload (POST
 * `{base}/upload?access_token&fileId=/settings/{TYPE}/{SETTING_NAME}/{FILE}`, the file in the multipart field
 * `file`), delete (DELETE `{base}?access_token&fileId=...`) and the download of one listed file's `uri`. Every
 * request carries the token in the query, `Authorization: Bearer` and the proof headers (spec "Security" 5), as
 * the WOPI client does for WOPISrc; redirects are not followed (a settings endpoint has no reason to move, and
 * the token must not travel elsewhere). A GET (the listing, a file) that meets a kept-alive connection the host closed
 * is sent again at once, once, as the WOPI client's GETs are (stale-connection.ts).
 */

/** The two settings kinds: `userconfig` (a user iframe) and `systemconfig` (an admin iframe). */
export type SettingsType = 'userconfig' | 'systemconfig';

/** What the host answered: HTTP status, its JSON object when it sent one, and the raw bytes. */
export interface HostAnswer {
  status: number;
  json: Record<string, unknown> | undefined;
  body: Buffer;
}

/** How the client talks to hosts. */
export interface HostSettingsOptions {
  /** Proof headers for (token, absolute URL); none when undefined. */
  sign?: ProofSigner;
  /** Time-out of each request, ms. */
  timeoutMs: number;
  userAgent?: string;
  /** The fetch requests go through: HostTls.fetch (storage.ssl); default the global fetch. */
  fetch?: HostFetch;
}

/** A setting name as it may appear in a fileId: letters, digits, `_` and `-`. */
const SETTING_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** A file name: no path separators, no control characters, not `.`/`..`, at most 255 characters. */
const FILE_NAME = /^(?!\.{1,2}$)[^/\\\x00-\x1f]{1,255}$/;

/**
 * Checks `wopi_setting_base_url` (spec: "base URL of the host settings endpoints, form `<host base>/wopi/settings`"):
 * an absolute http(s) URL whose path ends in `/wopi/settings`, on a host allowed by `storage.wopi.hosts` (as
 * WOPISrc is). Returns the URL without query or fragment.
 * @throws OdeError bad_request naming the field and the expected form; forbidden_host naming the config key.
 */
export function parseSettingsBaseUrl(text: string | null | undefined, allowedHosts: readonly string[]): URL {
  if (!text)
    throw new OdeError('bad_request', 'wopi_setting_base_url is missing: the host must post it (form <host base>/wopi/settings) to the settings iframe.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OdeError('bad_request', `wopi_setting_base_url is not an absolute URL: ${text.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OdeError('bad_request', `wopi_setting_base_url must be an http or https URL, not ${url.protocol}`);
  url.pathname = url.pathname.replace(/\/+$/, '');
  if (!/\/wopi\/settings$/i.test(url.pathname))
    throw new OdeError(
      'bad_request',
      `wopi_setting_base_url's path must end in /wopi/settings (form <host base>/wopi/settings): ${url.pathname.slice(0, 200)}`,
    );
  checkWopiHost({ url, fileId: '', key: url.origin }, allowedHosts);
  url.search = '';
  url.hash = '';
  return url;
}

/**
 * Checks a settings fileId (spec: `/settings/{TYPE}/{SETTING_NAME}/{FILE_NAME}.{FILE_EXTENSION}`) and returns its
 * parts.
 * @throws OdeError bad_request naming the expected form.
 */
export function parseSettingsFileId(fileId: string | null | undefined): { type: SettingsType; name: string; file: string } {
  const parts = (fileId ?? '').split('/');
  const [empty, settings, type, name, file] = parts;
  if (
    parts.length !== 5 ||
    empty !== '' ||
    settings !== 'settings' ||
    (type !== 'userconfig' && type !== 'systemconfig') ||
    !SETTING_NAME.test(name) ||
    !FILE_NAME.test(file)
  ) {
    throw new OdeError(
      'bad_request',
      `fileId must be /settings/{userconfig|systemconfig}/{SETTING_NAME}/{FILE} (SETTING_NAME: letters, digits, _ or -; FILE: a plain file name): ${String(fileId).slice(0, 200)}`,
    );
  }
  return { type, name, file };
}

/**
 * Checks the settings fetch JSON (spec "Settings fetch response"): an object with a string `kind` and, for every
 * other key, an array of `{stamp, uri}` strings. Keys holding `null` (some hosts send it for an empty setting) are
 * taken as empty.
 * @throws OdeError settings_host_error naming what is wrong.
 */
export function parseSettingsListing(json: unknown): SettingsListing {
  const bad = (why: string) => new OdeError('settings_host_error', `The settings host's listing is not the settings fetch JSON: ${why}.`);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw bad('not a JSON object');
  const { kind, ...rest } = json as Record<string, unknown>;
  if (typeof kind !== 'string') throw bad('no string "kind"');
  const settings: Record<string, SettingFile[]> = {};
  for (const [name, value] of Object.entries(rest)) {
    if (value === null) {
      settings[name] = [];
      continue;
    }
    if (!Array.isArray(value)) throw bad(`"${name}" is not an array`);
    settings[name] = value.map((item, i) => {
      const it = item as Record<string, unknown> | null;
      if (typeof it?.stamp !== 'string' || typeof it.uri !== 'string') throw bad(`"${name}"[${i}] is not {stamp, uri}`);
      return { stamp: it.stamp, uri: it.uri, file: fileOfUri(it.uri) };
    });
  }
  return { kind, settings };
}

/** The file name a listed uri ends with (decoded), or the uri itself when it has no path. */
function fileOfUri(uri: string): string {
  try {
    const last = new URL(uri, 'http://x').pathname.split('/').filter(Boolean).at(-1);
    return last ? decodeURIComponent(last) : uri;
  } catch {
    return uri;
  }
}

/** Client of one host's settings endpoints; see the file comment. Failures to reach the host are OdeErrors. */
export class HostSettingsClient {
  private readonly opts: HostSettingsOptions;

  constructor(opts: HostSettingsOptions) {
    this.opts = opts;
  }

  /**
   * GET `{base}?access_token&type&fileId=-1`: the settings of one kind.
   * @throws OdeError settings_host_error when the host is unreachable, answers non-2xx (`hostStatus`, `host` in the
   * details) or sends something other than the settings fetch JSON.
   */
  async list(base: URL, token: string, type: SettingsType): Promise<SettingsListing> {
    const url = new URL(base);
    url.searchParams.set('type', type);
    url.searchParams.set('fileId', '-1');
    const answer = await this.request('list', 'GET', url, token);
    if (answer.status < 200 || answer.status > 299) throw hostRefused('list', answer);
    return parseSettingsListing(answer.json);
  }

  /**
   * POST `{base}/upload?access_token&fileId`: stores `bytes` as `fileId`'s file (the multipart field `file`, named
   * by the fileId's last segment). Returns the host's answer whatever its status (the page shows it).
   * @throws OdeError settings_host_error when the host is unreachable.
   */
  async upload(base: URL, token: string, fileId: string, bytes: Uint8Array): Promise<HostAnswer> {
    const { file } = parseSettingsFileId(fileId);
    const url = new URL(base);
    url.pathname = `${url.pathname}/upload`;
    url.searchParams.set('fileId', fileId);
    const form = new FormData();
    form.append('file', new Blob([bytes]), file);
    return this.request('upload', 'POST', url, token, form);
  }

  /**
   * DELETE `{base}?access_token&fileId`. Returns the host's answer whatever its status.
   * @throws OdeError settings_host_error when the host is unreachable.
   */
  async remove(base: URL, token: string, fileId: string): Promise<HostAnswer> {
    parseSettingsFileId(fileId);
    const url = new URL(base);
    url.searchParams.set('fileId', fileId);
    return this.request('delete', 'DELETE', url, token);
  }

  /**
   * GET one listed file's `uri`, which must be on the base URL's origin (the token and proof go nowhere else).
   * @throws OdeError bad_request for a uri elsewhere; settings_host_error when unreachable or non-2xx.
   */
  async download(base: URL, token: string, uri: string): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new OdeError('bad_request', `The settings file uri is not an absolute URL: ${uri.slice(0, 200)}`);
    }
    if (url.origin !== base.origin)
      throw new OdeError('bad_request', `The settings file uri must be on the settings host (${base.origin}), not ${url.origin}.`);
    const answer = await this.request('download', 'GET', url, token);
    if (answer.status < 200 || answer.status > 299) throw hostRefused('download', answer);
    return answer.body;
  }

  /** One request with token, Bearer, proof and time-out; redirects are answers, not followed. */
  private async request(operation: string, method: 'GET' | 'POST' | 'DELETE', url: URL, token: string, body?: FormData): Promise<HostAnswer> {
    url.searchParams.set('access_token', token);
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...this.opts.sign?.(token, url.href) };
    if (this.opts.userAgent) headers['User-Agent'] = this.opts.userAgent;
    let res: Response;
    try {
      // A GET on a kept-alive connection the host closed as it went out is sent again at once, once (stale-connection.ts).
      res = await fetchRetryingStale(this.opts.fetch ?? fetch, url, { method, headers, body, timeoutMs: this.opts.timeoutMs });
    } catch (e) {
      const why = hostFetchFailure(e, this.opts.timeoutMs, describeHostTlsError(e, url.host));
      throw new OdeError('settings_host_error', `The settings ${operation} request to ${url.host} failed: ${why}.`);
    }
    const buf = Buffer.from(await res.arrayBuffer());
    return { status: res.status, json: jsonObject(buf), body: buf };
  }
}

/** The OdeError for a host's non-2xx answer, carrying its status and JSON for the page. */
export function hostRefused(operation: string, answer: HostAnswer): OdeError {
  const said = typeof answer.json?.message === 'string' ? `: ${answer.json.message}` : '';
  return new OdeError('settings_host_error', `The settings host answered the ${operation} request with ${answer.status}${said}.`, {
    hostStatus: answer.status,
    host: answer.json ?? null,
  });
}
