import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { KeyObject } from 'node:crypto';
import { checkProof, decodeUtf7, PAGE_RECORDER, proofKeysOf, readBody, send, startHostServer, wordbook, type ProofVerdict } from './collabora-host-common.ts';
import { closeServer } from './net.ts';

/** A request the host received, with its proof verdict. */
export interface RichdocumentsRequest {
  method: string;
  path: string;
  /** CheckFileInfo, GetFile, PutFile, LOCK, UNLOCK, REFRESH_LOCK, GET_LOCK, RENAME_FILE, Settings, SettingFile, Page, other. */
  operation: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The WOPI proof check's verdict (WOPI requests only). */
  proof?: ProofVerdict;
  status?: number;
}

/** The stored file: name, bytes, mtime (whole seconds, as Nextcloud's filecache keeps it). */
export interface RichdocumentsFile {
  id: string;
  name: string;
  bytes: Buffer;
  mtime: number;
}

/** richdocuments' LastModifiedTime: Helper::toISO8601, `Y-m-d\TH:i:s.u\Z` of whole seconds (`...:07.000000Z`). */
export const toIso8601Micro = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '.000000Z');

const MIME: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The Nextcloud instance id richdocuments appends to file ids (`<fileid>_<instanceid>`). */
const INSTANCE = 'ocinst1234';
const WOPI_PREFIX = '/index.php/apps/richdocuments/wopi';

/**
 * A host that behaves like Nextcloud's richdocuments app (lib/Controller/WopiController.php,
 * lib/Service/ProofKeyService.php, src/view/Office.vue, lib/Service/RemoteService.php; behaviours written down from
 * them, no code copied):
 * - every WOPI request is proof-checked (X-WOPI-Proof with the current or old discovery key, or X-WOPI-ProofOld with
 *   the current one; X-WOPI-TimeStamp at most 20 minutes old); a failed check is answered 403 here (strict);
 * - CheckFileInfo: PostMessageOrigin (the Nextcloud origin), LastModifiedTime with microseconds, SupportsRename,
 *   UserCanRename, SupportsLocks, UserSettings/SharedSettings `{uri, stamp}`;
 * - PutFile: a X-COOL-WOPI-Timestamp other than the stored mtime -> 409 `{"COOLStatusCode":1010}`; a file locked by
 *   another user -> 423; else stored, `{LastModifiedTime}`;
 * - LOCK/REFRESH_LOCK -> 423 when another user holds a lock; RENAME_FILE writes the request body into the renamed
 *   file (the name is `<X-WOPI-RequestedName, UTF-7>.<ext>`) and answers `{Name, Url}`;
 * - the page (Office.vue) posts the urlencoded form (access_token, access_token_ttl, ui_defaults, css_variables,
 *   theme, buy_product), and on every App_LoadingStatus Document_Loaded posts Host_PostmessageReady and
 *   Insert_Button; it counts what it receives (PAGE_RECORDER);
 * - previews and link targets: `preview()` posts `/cool/convert-to/<fmt>` with the file part named after the file,
 *   `linkTargets()` / `thumbnail()` PUT `/cool/extract-link-targets` / `/cool/get-thumbnail` with the file part
 *   named after the file and a `target` part.
 * Listens on 127.0.0.1; opened as `http://localhost:<port>`.
 */
export class RichdocumentsHost {
  readonly requests: RichdocumentsRequest[] = [];
  readonly files = new Map<string, RichdocumentsFile>();
  token = 'nc_wopi_token_1';
  /** Set to a user id to hold a user lock by someone else (LOCK and PutFile answer 423). */
  lockedBy: string | undefined;
  url = '';
  private keys: { current: KeyObject; old: KeyObject } | undefined;
  private urlsrc = new Map<string, string>();
  private server: Server | undefined;
  private clock = Math.floor(Date.now() / 1000) - 3600;

  private constructor(private readonly daemonUrl: string) {}

  /** Starts the host on 127.0.0.1 port 0 and reads the daemon's discovery (proof keys, urlsrc by mimetype). */
  static async start(daemonUrl: string): Promise<RichdocumentsHost> {
    const host = new RichdocumentsHost(daemonUrl);
    await host.readDiscovery();
    ({ server: host.server, url: host.url } = await startHostServer((req, res) => host.handle(req, res), 'richdocuments host'));
    return host;
  }

  /** Re-reads discovery (richdocuments caches it; after a proof-key rotation it fetches it again). */
  async readDiscovery(): Promise<void> {
    const xml = await (await fetch(`${this.daemonUrl}/hosting/discovery`)).text();
    this.keys = proofKeysOf(xml);
    for (const m of xml.matchAll(/<app\s+name="([^"]+)"[^>]*>\s*<action\b([^>]*)>/g)) {
      const src = /\surlsrc="([^"]+)"/.exec(m[2])?.[1];
      if (src && !this.urlsrc.has(m[1])) this.urlsrc.set(m[1], src.replace(/&amp;/g, '&'));
    }
  }

  /** Stores a file; returns its id (`<n>_<instance>`). */
  addFile(n: number, name: string, bytes: Buffer): string {
    const id = `${n}_${INSTANCE}`;
    this.files.set(id, { id, name, bytes, mtime: this.tick() });
    return id;
  }

  /** Someone else saves the file in Nextcloud (a new mtime; new bytes if given). */
  touch(id: string, bytes?: Buffer): void {
    const f = this.files.get(id)!;
    if (bytes) f.bytes = bytes;
    f.mtime = this.tick();
  }

  /** The WOPISrc of a file. */
  wopiSrc(id: string): string {
    return `${this.url}${WOPI_PREFIX}/files/${id}`;
  }

  /** The page that opens file `id` in the editor (Office.vue). */
  pageUrl(id: string): string {
    return `${this.url}/apps/richdocuments/open?fileId=${encodeURIComponent(id)}`;
  }

  /** The requests of one operation. */
  of(operation: string): RichdocumentsRequest[] {
    return this.requests.filter((r) => r.operation === operation);
  }

  /** Preview (lib/Preview/*, RemoteService::convertTo): POST /cool/convert-to/<format>, the file part named after the file. */
  async preview(id: string, format = 'png'): Promise<Response> {
    const f = this.files.get(id)!;
    const form = new FormData();
    form.append(f.name, new Blob([new Uint8Array(f.bytes)]), f.name);
    return fetch(`${this.daemonUrl}/cool/convert-to/${format}`, { method: 'POST', body: form });
  }

  /** RemoteService::fetchTargets: PUT /cool/extract-link-targets with the file part named after the file and an empty `target`. */
  async linkTargets(id: string): Promise<Response> {
    return this.putWithTarget(id, '/cool/extract-link-targets', '');
  }

  /** RemoteService::fetchTargetThumbnail: PUT /cool/get-thumbnail with the file part and `target`. */
  async thumbnail(id: string, target: string): Promise<Response> {
    return this.putWithTarget(id, '/cool/get-thumbnail', target);
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }

  private putWithTarget(id: string, path: string, target: string): Promise<Response> {
    const f = this.files.get(id)!;
    const form = new FormData();
    // Guzzle names a stream part's file after the stream's local path: the file's basename.
    form.append(f.name, new Blob([new Uint8Array(f.bytes)]), f.name);
    form.append('target', target);
    return fetch(`${this.daemonUrl}${path}`, {
      method: 'PUT',
      body: form,
      headers: { 'User-Agent': 'Nextcloud Server / richdocuments', Accept: 'application/json' },
    });
  }

  /** Whole seconds, strictly increasing (two saves in one second still differ). */
  private tick(): number {
    this.clock = Math.max(this.clock + 1, Math.floor(Date.now() / 1000));
    return this.clock;
  }

  private page(id: string): string {
    const f = this.files.get(id)!;
    const ext = f.name.split('.').pop() ?? '';
    const src = this.urlsrc.get(MIME[ext] ?? '') ?? '';
    const daemonOrigin = new URL(this.daemonUrl).origin;
    // Office.vue's getWopiUrl: urlsrc + WOPISrc (+ title, closebutton, revisionhistory); the urlsrc on the daemon's origin.
    const action = `${daemonOrigin}${new URL(src).pathname}?WOPISrc=${encodeURIComponent(this.wopiSrc(id))}&title=${encodeURIComponent(f.name)}&lang=en&closebutton=1&revisionhistory=1`;
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Nextcloud Office</title>
<style>body{margin:0} iframe{border:0;width:100vw;height:calc(100vh - 4px);display:block}</style></head>
<body>
<form id="form" target="collaboraframe_1" action="${esc(action)}" method="post">
  <input name="access_token" value="${esc(this.token)}" type="hidden">
  <input name="access_token_ttl" value="${Date.now() + 10 * 3600_000}" type="hidden">
  <input name="ui_defaults" value="UIMode=notebookbar;TextSidebar=false;PresentationStatusbar=false;SpreadsheetSidebar=false;SavedUIState=true;UITheme=light;" type="hidden">
  <input name="css_variables" value="--co-color-main-text=#222222;--co-body-bg=#ffffff;--co-color-main-background=#ffffff;--co-primary-element=#00679e;--co-primary-text=#ffffff;--co-primary-light=#e5eff5;--co-text-accent=#00679e;--co-border-radius=3px;" type="hidden">
  <input name="theme" value="nextcloud" type="hidden">
  <input name="buy_product" value="https://nextcloud.com/pricing" type="hidden">
</form>
<iframe id="collaboraframe_1" name="collaboraframe_1" data-cy="coolframe" allowfullscreen></iframe>
<script>${PAGE_RECORDER}</script>
<script>
var FRAME_ORIGIN = ${JSON.stringify(daemonOrigin)};
function sendPostMessage(msgId, values) {
  document.getElementById('collaboraframe_1').contentWindow.postMessage(JSON.stringify({ MessageId: msgId, SendTime: Date.now(), Values: values || {} }), FRAME_ORIGIN);
}
window.loadingState = 'loading';
window.addEventListener('message', function (e) {
  if (e.origin !== FRAME_ORIGIN) return;
  var parsed; try { parsed = JSON.parse(e.data); } catch (err) { return; }
  var args = parsed.Values || {};
  switch (parsed.MessageId) {
  case 'App_LoadingStatus':
    if (args.Status === 'Frame_Ready') window.loadingState = 'frame_ready';
    else if (args.Status === 'Document_Loaded') {
      // documentReady(): on every Document_Loaded
      window.loadingState = 'document_ready';
      sendPostMessage('Host_PostmessageReady');
      sendPostMessage('Insert_Button', { id: 'Open_Local_Editor', imgurl: location.origin + '/apps/richdocuments/img/launch.svg', mobile: false, label: 'Open in local editor', hint: 'Open in local editor', insertBefore: 'print' });
    } else if (args.Status === 'Failed') window.loadingState = 'failed';
    break;
  case 'File_Rename': window.renamedTo = decodeURIComponent(args.NewName); break;
  case 'Doc_ModifiedStatus': window.modified = args.Modified; break;
  }
});
document.getElementById('form').submit();
</script>
</body></html>
`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = req.method === 'GET' || req.method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
    const m = new RegExp(`^${WOPI_PREFIX}/files/([^/]+?)(/contents)?$`).exec(url.pathname);
    const override = String(req.headers['x-wopi-override'] ?? '');
    const op =
      url.pathname === '/apps/richdocuments/open'
        ? 'Page'
        : m
          ? m[2]
            ? req.method === 'GET'
              ? 'GetFile'
              : 'PutFile'
            : req.method === 'GET'
              ? 'CheckFileInfo'
              : override || 'POST'
          : url.pathname === `${WOPI_PREFIX}/settings`
            ? 'Settings'
            : url.pathname === `${WOPI_PREFIX}/settings/file`
              ? 'SettingFile'
              : 'other';
    const rec: RichdocumentsRequest = { method: req.method ?? 'GET', path: url.pathname, operation: op, headers: req.headers, body };
    this.requests.push(rec);
    const answer = (status: number, payload: unknown) => {
      rec.status = status;
      send(res, status, payload);
    };
    if (op === 'Page') {
      const id = url.searchParams.get('fileId') ?? '';
      if (!this.files.has(id)) return answer(404, {});
      rec.status = 200;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      return void res.end(this.page(id));
    }
    if (op === 'other') return answer(404, {});
    const token = url.searchParams.get('access_token') ?? '';
    rec.proof = checkProof(this.keys!, token, `${this.url}${req.url}`, req.headers);
    // The files endpoints are refused without a good proof; the settings ones are only recorded.
    if (rec.proof !== 'ok' && m) return answer(403, {});
    if (token !== this.token) return answer(403, {});
    if (op === 'Settings') {
      const type = url.searchParams.get('type');
      if (type !== 'userconfig' && type !== 'systemconfig') return answer(400, { error: 'Invalid type parameter' });
      const file = `${this.url}${WOPI_PREFIX}/settings/file?fileId=${encodeURIComponent(`/settings/${type}/wordbook/nextcloud.dic`)}&access_token=${this.token}`;
      return answer(200, { kind: type === 'userconfig' ? 'user' : 'shared', autotext: [], wordbook: [{ uri: file, stamp: `${type}-wb-1` }], xcu: [] });
    }
    if (op === 'SettingFile') return answer(200, wordbook(['Nextcloudword']));
    const f = this.files.get(m![1]);
    if (!f) return answer(404, {});
    const ext = f.name.split('.').pop() ?? '';
    switch (op) {
      case 'CheckFileInfo': {
        const settings = (type: string) => ({
          uri: `${this.url}${WOPI_PREFIX}/settings?type=${type}&access_token=${this.token}&fileId=-1`,
          stamp: `${type}-etag-1`,
        });
        return answer(200, {
          BaseFileName: f.name,
          Size: f.bytes.length,
          Version: '0',
          UserId: 'alice',
          OwnerId: 'alice',
          UserFriendlyName: 'Alice Nextcloud',
          UserExtraInfo: { avatar: `${this.url}/index.php/avatar/alice/64`, is_admin: false },
          UserPrivateInfo: {},
          UserCanWrite: true,
          UserCanNotWriteRelative: false,
          PostMessageOrigin: this.url,
          LastModifiedTime: toIso8601Micro(f.mtime),
          SupportsRename: true,
          UserCanRename: true,
          EnableInsertRemoteImage: true,
          EnableInsertRemoteFile: true,
          EnableShare: true,
          HideUserList: '',
          EnableOwnerTermination: true,
          DisablePrint: false,
          DisableExport: false,
          DisableCopy: false,
          HideExportOption: false,
          HidePrintOption: false,
          DownloadAsPostMessage: false,
          SupportsLocks: true,
          IsUserLocked: false,
          EnableRemoteLinkPicker: true,
          EnableRemoteAIContent: false,
          HasContentRange: true,
          ServerPrivateInfo: [],
          UserSettings: settings('userconfig'),
          SharedSettings: settings('systemconfig'),
          IsAdminUser: false,
          IsAnonymousUser: false,
        });
      }
      case 'GetFile':
        return answer(200, f.bytes);
      case 'PutFile': {
        const stamp = req.headers['x-cool-wopi-timestamp'];
        if (typeof stamp === 'string' && stamp !== '' && stamp !== toIso8601Micro(f.mtime)) return answer(409, { COOLStatusCode: 1010 });
        if (this.lockedBy) return answer(423, { message: 'File locked' });
        f.bytes = body;
        f.mtime = this.tick();
        return answer(200, { LastModifiedTime: toIso8601Micro(f.mtime) });
      }
      case 'LOCK':
      case 'REFRESH_LOCK':
        return answer(this.lockedBy ? 423 : 200, {});
      case 'UNLOCK':
      case 'GET_LOCK':
        return answer(200, {});
      case 'RENAME_FILE': {
        const requested = decodeUtf7(String(req.headers['x-wopi-requestedname'] ?? ''));
        if (!requested) return answer(200, { status: 'error', message: 'Cannot rename the file' });
        f.name = `${requested}.${ext}`;
        // richdocuments writes the request body into the renamed file ($file->putContent(php://input)).
        f.bytes = body;
        f.mtime = this.tick();
        return answer(200, { Name: f.name, Url: `${this.wopiSrc(f.id)}?access_token=${this.token}` });
      }
      default:
        return answer(400, {});
    }
  }
}
