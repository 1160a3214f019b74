import { createHash } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { SaxesParser } from 'saxes';
import { PAGE_RECORDER, readBody, startHostServer } from './collabora-host-common.ts';
import { closeServer } from './net.ts';

/** A request the Moodle-style host received. */
export interface MoodleHostRequest {
  method: string;
  path: string;
  /** CheckFileInfo, GetFile, PutFile (told apart as mod_collabora does: by the path and a non-empty body), Page, other. */
  operation: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  status?: number;
}

/**
 * The urlsrc of discovery's `app[@name=<mimetype>]` as mod_collabora reads it (base_filesystem::get_url_from_mimetype:
 * SimpleXMLElement, XPath `//app[@name='<mimetype>']`, the first app's first `action` child's `urlsrc`). Parsed
 * strictly (saxes: well-formedness errors throw, as SimpleXMLElement's constructor does).
 * @throws Error `unsupportedtype` when no app is named after the mimetype or its first action has no urlsrc.
 */
export function moodleUrlsrc(discoveryXml: string, mimeType: string): string {
  const parser = new SaxesParser();
  let inApp = false;
  let found: string | undefined;
  let done = false;
  parser.on('opentag', (tag) => {
    if (done) return;
    if (tag.name === 'app' && tag.attributes.name === mimeType) inApp = true;
    else if (inApp && tag.name === 'action') {
      found = String(tag.attributes.urlsrc ?? '');
      done = true;
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'app' && inApp) done = true;
  });
  parser.write(discoveryXml).close();
  if (!found) throw new Error(`unsupportedtype: ${mimeType}`);
  return found;
}

/** PHP's date('c') in UTC: `2026-11-26T23:00:00+00:00` (seconds, a numeric offset, no fraction). */
export const phpDateC = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** What a test asks of the Moodle-style host. */
export interface MoodleHostOptions {
  /** The Collabora server URL of the plugin's settings (`url`): here Ode's. */
  daemonUrl: string;
  fileName: string;
  mimeType: string;
  content: Buffer;
  /** The Moodle user's language as the plugin passes it (`lang`, `en`). */
  lang?: string;
}

/**
 * A WOPI host and page built like Moodle's mod_collabora (learnweb/moodle-mod_collabora; behaviours written down from
 * classes/api/api.php, base_filesystem.php, collabora_fs.php, callback.php and amd/src/postmessage.js, no code copied):
 *
 * - discovery fetched as a string and read with an XPath on the MIME type (moodleUrlsrc);
 * - the page loads the editor with a **GET** form (`form.method = "get"`, action = the urlsrc), so the browser replaces
 *   the urlsrc's query with the form's fields: `WOPISrc`, `access_token`, `lang`, `closebutton=1`; no POST, no
 *   `access_token_ttl`;
 * - the WOPISrc is `<wwwroot>/mod/collabora/callback.php/wopi/files/<contextid>_<groupid>_<repaircount>_<version>`,
 *   the token 12 alphanumeric characters (PARAM_ALPHANUMEXT), taken from the query only;
 * - CheckFileInfo as api.php answers it (sent by PHP's die(): Content-Type text/html): LastModifiedTime as PHP's
 *   date('c') (`+00:00`, whole seconds), PostMessageOrigin the Moodle origin, UserId a sha1, SupportsRename and
 *   UserCanRename false, UserCanNotWriteRelative true, EnableShare false, UserExtraInfo.avatar '';
 * - the request is told apart by the path and the body: `/contents` with a body is a PutFile (X-WOPI-Override is not
 *   read), without one a GetFile; PutFile stores the body (unchanged bytes are not stored again), makes the file's
 *   timemodified now, and answers 200 with an empty body: no LastModifiedTime;
 * - the page script (postmessage.js): takes messages only from the editor's or Moodle's origin and only as strings,
 *   answers App_LoadingStatus Document_Loaded with Host_PostmessageReady, Disable_Default_UIAction {action: UI_Save,
 *   disable: true} and Action_ChangeUIMode; answers UI_Save with Action_Save {DontTerminateEdit, DontSaveIfUnmodified};
 *   leaves for the course page on UI_Close. Every message carries SendTime and goes to the editor's origin.
 *
 * One difference, for the tests: the plugin builds both origins from scheme and host without the port (Moodle and
 * Collabora on port 443); here both run on ports of 127.0.0.1, so the port is kept.
 */
export class MoodleHost {
  readonly requests: MoodleHostRequest[] = [];
  /** The stored file: its bytes and timemodified (Unix seconds). */
  file: { name: string; bytes: Buffer; timemodified: number };
  url = '';
  readonly fileId = '12_0_0_0';
  readonly token = 'Mdl4wopi9Tok';
  private server: Server | undefined;
  private urlsrc = '';

  private constructor(private readonly opts: MoodleHostOptions) {
    this.file = { name: opts.fileName, bytes: opts.content, timemodified: Math.floor(Date.now() / 1000) - 3600 };
  }

  /** Starts the host on 127.0.0.1 port 0 and reads Ode's discovery as the plugin does. */
  static async start(opts: MoodleHostOptions): Promise<MoodleHost> {
    const host = new MoodleHost(opts);
    ({ server: host.server, url: host.url } = await startHostServer((req, res) => host.handle(req, res), 'moodle host'));
    const r = await fetch(`${opts.daemonUrl.replace(/\/$/, '')}/hosting/discovery`);
    host.urlsrc = moodleUrlsrc(await r.text(), opts.mimeType);
    return host;
  }

  /** The activity's view page (mod/collabora/view.php). */
  get pageUrl(): string {
    return `${this.url}/mod/collabora/view.php?id=7`;
  }

  get wopiSrc(): string {
    return `${this.url}/mod/collabora/callback.php/wopi/files/${this.fileId}`;
  }

  /** The requests of one operation. */
  of(operation: string): MoodleHostRequest[] {
    return this.requests.filter((r) => r.operation === operation);
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }

  private page(): string {
    const params = { WOPISrc: this.wopiSrc, access_token: this.token, lang: this.opts.lang ?? 'en', closebutton: 1 };
    const collaboraOrigin = new URL(this.urlsrc).origin;
    return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Collabora activity</title>
<style>body{margin:0} iframe{border:0;width:100vw;height:calc(100vh - 4px);display:block}</style></head>
<body>
<iframe class="collabora-iframe" id="collaboraiframe_1" name="collaboraiframe_1" src="about:blank" allowFullscreen></iframe>
<script>${PAGE_RECORDER}</script>
<script>
var originCollabora = ${JSON.stringify(collaboraOrigin)};
var originMoodle = window.location.origin;
function post(o) {
  o.SendTime = Date.now();
  document.querySelector('#collaboraiframe_1').contentWindow.postMessage(JSON.stringify(o), originCollabora);
}
window.addEventListener('message', function (event) {
  if (event.origin != originCollabora && event.origin != originMoodle) return;
  if (typeof event.data !== 'string' && !(event.data instanceof String)) return;
  var msg = JSON.parse(event.data);
  if (!msg) return;
  switch (msg.MessageId) {
    case 'UI_Close': window.location.href = '/course/view.php?id=2'; break;
    case 'App_LoadingStatus':
      if (msg.Values && msg.Values.Status == 'Document_Loaded') {
        post({ MessageId: 'Host_PostmessageReady' });
        post({ MessageId: 'Disable_Default_UIAction', Values: { action: 'UI_Save', disable: true } });
        post({ MessageId: 'Action_ChangeUIMode', Values: { Mode: 'classic' } });
      }
      break;
    case 'UI_Save': post({ MessageId: 'Action_Save', Values: { DontTerminateEdit: true, DontSaveIfUnmodified: true } }); break;
  }
});
// setFrameData(): a temporary GET form aimed at the iframe.
var params = ${JSON.stringify(params)};
var form = document.createElement('form');
form.method = 'get';
form.action = ${JSON.stringify(this.urlsrc)};
form.target = 'collaboraiframe_1';
for (var key in params) {
  var el = document.createElement('input');
  el.type = 'hidden'; el.name = key; el.value = params[key];
  form.appendChild(el);
}
document.body.appendChild(form);
form.submit();
</script>
</body></html>
`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = req.method === 'GET' || req.method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
    const m = /\/wopi\/files\/([^/]*)(\/contents)?/.exec(url.pathname);
    const callback = url.pathname.startsWith('/mod/collabora/callback.php/');
    // api::get_request_and_fileid_from_path: the path and whether there is post data.
    const operation =
      url.pathname === '/mod/collabora/view.php'
        ? 'Page'
        : callback && m
          ? m[2]
            ? body.length > 0
              ? 'PutFile'
              : 'GetFile'
            : body.length > 0
              ? 'invalid'
              : 'CheckFileInfo'
          : 'other';
    const rec: MoodleHostRequest = { method: req.method ?? 'GET', path: url.pathname, operation, query: url.searchParams, headers: req.headers, body };
    this.requests.push(rec);
    // PHP's default content type, as api.php's die(json_encode(...)) and an empty PutFile answer carry.
    const php = (status: number, text: string) => {
      rec.status = status;
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (operation === 'Page') {
      rec.status = 200;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      return void res.end(this.page());
    }
    if (operation === 'other' || operation === 'invalid') return php(404, 'invalidrequest');
    // required_param('access_token', PARAM_ALPHANUMEXT): from the query; a Moodle exception page otherwise.
    if (url.searchParams.get('access_token') !== this.token || m?.[1] !== this.fileId) return php(500, 'invalidtoken');
    switch (operation) {
      case 'CheckFileInfo':
        return php(
          200,
          JSON.stringify({
            BaseFileName: this.file.name,
            EnableShare: false,
            LastModifiedTime: phpDateC(this.file.timemodified),
            OwnerId: 2,
            PostMessageOrigin: new URL(this.url).origin,
            Size: this.file.bytes.length,
            SupportsRename: false,
            UserCanNotWriteRelative: true,
            UserCanRename: false,
            UserCanWrite: true,
            UserFriendlyName: 'Ada Teacher',
            UserId: createHash('sha1').update('2_user_3').digest('hex'),
            UserExtraInfo: { avatar: '' },
          }),
        );
      case 'GetFile':
        rec.status = 200;
        res.writeHead(200, { 'Content-Type': this.opts.mimeType, 'Content-Length': this.file.bytes.length });
        return void res.end(this.file.bytes);
      case 'PutFile':
        // base_filesystem::update_file: the same content is not stored again; a new file is timemodified now.
        if (!this.file.bytes.equals(body)) this.file = { ...this.file, bytes: body, timemodified: Math.floor(Date.now() / 1000) };
        return php(200, '');
    }
  }
}
