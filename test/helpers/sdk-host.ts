import type { IncomingMessage, Server } from 'node:http';
import { SaxesParser } from 'saxes';
import { decodeUtf7, PAGE_RECORDER, readBody, send, startHostServer, wordbook } from './collabora-host-common.ts';
import { closeServer } from './net.ts';

/** What a test asks of the SDK-style host. */
export interface SdkHostOptions {
  /** The WOPI client's base URL (`http://127.0.0.1:<port>`), typed into the page as the examples' "server" field. */
  daemonUrl: string;
  /** The one file (id 1). The published examples serve `test.txt` holding `Hello world!` (text/plain). */
  fileName?: string;
  mimeType?: string;
  content?: Buffer;
  /** The `css_variables` and `ui_defaults` the page posts (the html example's "Branded" values by default). */
  cssVariables?: string;
  uiDefaults?: string;
  /**
   * The parts of Collabora's "advanced integration" SDK page the published examples leave out but a host built
   * from them adds: RenameFile (SupportsRename/UserCanRename) and UserSettings `{uri, stamp}`. On by default.
   */
  advanced?: boolean;
}

/** A request the host received. */
export interface SdkHostRequest {
  method: string;
  path: string;
  /** CheckFileInfo, GetFile, PutFile, RENAME_FILE (X-WOPI-Override), Settings, SettingFile, Discovery, Page, other. */
  operation: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  status?: number;
}

/** The html example's "Branded" theming values and a ui_defaults a host page would send. */
export const SDK_CSS_VARIABLES =
  '--co-primary-element=#4c566a;--co-primary-element-light=#706aab;--co-txt-accent=#2e1a47;--co-primary-text=#ffffff;--co-border-radius=3px;--co-body-bg=#ffffff;--co-color-main-text=#000000;';
export const SDK_UI_DEFAULTS = 'UIMode=compact;UITheme=dark;SavedUIState=false;TextSidebar=false;TextRuler=true;';

/**
 * The way lxml's `etree.fromstring(str)` reads a str (the Python/Django example passes `response.text`): a str
 * carrying an XML declaration with an encoding is refused ("Unicode strings with encoding declaration are not
 * supported"), the rest is parsed strictly (saxes, well-formedness errors throw). Returns the `urlsrc` of the first
 * action of `app[@name=<mimeType>]`, as the Node example's XPath `/wopi-discovery/net-zone/app[@name=...]/action`.
 * @throws Error as lxml and the examples fail: declaration, malformed XML, mimetype not handled.
 */
export function urlsrcFromDiscoveryString(text: string, mimeType: string): string {
  if (/^<\?xml[^>]*\sencoding\s*=/.test(text))
    throw new Error('ValueError: Unicode strings with encoding declaration are not supported. Please use bytes input or XML fragments without declaration.');
  const parser = new SaxesParser();
  const stack: string[] = [];
  let app: string | undefined;
  let found: string | undefined;
  parser.on('opentag', (tag) => {
    stack.push(tag.name);
    if (tag.name === 'app' && stack.join('/') === 'wopi-discovery/net-zone/app') app = String(tag.attributes.name ?? '');
    if (tag.name === 'action' && app === mimeType && found === undefined) found = String(tag.attributes.urlsrc ?? '');
  });
  parser.on('closetag', (tag) => {
    stack.pop();
    if (tag.name === 'app') app = undefined;
  });
  parser.write(text).close();
  if (!found) throw new Error('The requested mime type is not handled');
  return found;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The host page: the examples' multipart form, iframe and PostMessage handlers (wopi.js), and the message recorder. */
function pageHtml(o: { server: string; origin: string; css: string; ui: string; settingsBase: string }): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Collabora Online Integration</title>
<style>body{margin:0} iframe{border:0;width:100vw;height:calc(100vh - 4px);display:block}</style></head>
<body>
<div style="display: none">
  <form action="" enctype="multipart/form-data" method="post" target="collabora-online-viewer" id="collabora-submit-form">
    <input name="access_token" value="" type="hidden" id="access-token"/>
    <input name="access_token_ttl" value="0" type="hidden"/>
    <input name="css_variables" value="${esc(o.css)}" type="hidden" id="css-variables"/>
    <input name="ui_defaults" value="${esc(o.ui)}" type="hidden" id="ui-defaults"/>
    <input name="wopi_setting_base_url" value="${esc(o.settingsBase)}" type="hidden"/>
    <input type="submit" value="" />
  </form>
</div>
<iframe id="collabora-online-viewer" name="collabora-online-viewer" allow="clipboard-read *; clipboard-write *"></iframe>
<script>${PAGE_RECORDER}</script>
<script>
function post(msg) {
  document.querySelector('#collabora-online-viewer').contentWindow.postMessage(JSON.stringify(msg), '*');
}
function receiveMessage(event) {
  var msg = JSON.parse(event.data);
  if (!msg) return;
  if (msg.MessageId == 'App_LoadingStatus') {
    if (msg.Values && msg.Values.Status == 'Document_Loaded') post({ MessageId: 'Host_PostmessageReady' });
  } else if (msg.MessageId === 'UI_InsertGraphic') {
    post({ MessageId: 'Action_InsertGraphic', Values: { url: ${JSON.stringify(`${o.origin}/images/one.png`)} } });
  }
}
window.addEventListener('message', receiveMessage, false);
fetch('/collaboraUrl?server=' + ${JSON.stringify(o.server)}).then(function (r) {
  if (!r.ok) throw new Error('collaboraUrl ' + r.status);
  return r.json();
}).then(function (resp) {
  var wopiSrc = window.location.origin + '/wopi/files/1';
  var form = document.getElementById('collabora-submit-form');
  form.action = resp.url + 'WOPISrc=' + encodeURIComponent(wopiSrc);
  document.getElementById('access-token').value = resp.token;
  form.submit();
}).catch(function (e) { document.title = 'failed: ' + e.message; });
</script>
</body></html>
`;
}

/**
 * A host page and WOPI host built like Collabora's SDK examples (collabora-online-sdk-examples, webapp/nodejs,
 * nodejs-esm, python; behaviours written down from them, no code copied): the page fetches `/collaboraUrl`, whose
 * server side reads discovery as a string with a strict parser (lxml-like, urlsrcFromDiscoveryString) and picks the
 * urlsrc by mimetype; the page posts the iframe form as `multipart/form-data` with `access_token` (`test`),
 * `access_token_ttl`, `css_variables`, `ui_defaults`, `wopi_setting_base_url`; its PostMessage handlers post with
 * targetOrigin `'*'` and answer Document_Loaded with Host_PostmessageReady. CheckFileInfo has no PostMessageOrigin
 * and no LastModifiedTime, UserId is the number 1; PutFile stores the body and answers 200 without a body. With
 * `advanced` (default): RenameFile as MS-WOPI says (the new name, the stored content kept), UserSettings `{uri,
 * stamp}` with one wordbook. Listens on 127.0.0.1, its page is opened as `http://localhost:<port>/`.
 */
export class SdkHost {
  readonly requests: SdkHostRequest[] = [];
  /** The stored file (id 1). */
  file: { name: string; bytes: Buffer };
  url = '';
  private server: Server | undefined;
  private readonly opts: Required<Omit<SdkHostOptions, 'content'>>;

  private constructor(o: SdkHostOptions) {
    this.file = { name: o.fileName ?? 'test.txt', bytes: o.content ?? Buffer.from('Hello world!') };
    this.opts = {
      daemonUrl: o.daemonUrl,
      fileName: this.file.name,
      mimeType: o.mimeType ?? 'text/plain',
      cssVariables: o.cssVariables ?? SDK_CSS_VARIABLES,
      uiDefaults: o.uiDefaults ?? SDK_UI_DEFAULTS,
      advanced: o.advanced ?? true,
    };
  }

  /** Starts the host on 127.0.0.1 port 0. */
  static async start(o: SdkHostOptions): Promise<SdkHost> {
    const host = new SdkHost(o);
    ({ server: host.server, url: host.url } = await startHostServer((req, res) => host.handle(req, res), 'sdk host'));
    return host;
  }

  /** The page to open in the browser. */
  get pageUrl(): string {
    return `${this.url}/`;
  }

  /** The requests of one operation. */
  of(operation: string): SdkHostRequest[] {
    return this.requests.filter((r) => r.operation === operation);
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = req.method === 'GET' || req.method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
    const override = String(req.headers['x-wopi-override'] ?? '');
    const op =
      url.pathname === '/'
        ? 'Page'
        : url.pathname === '/collaboraUrl'
          ? 'Discovery'
          : url.pathname === '/wopi/files/1'
            ? req.method === 'GET'
              ? 'CheckFileInfo'
              : override || 'POST'
            : url.pathname === '/wopi/files/1/contents'
              ? req.method === 'GET'
                ? 'GetFile'
                : 'PutFile'
              : url.pathname === '/wopi/settings'
                ? 'Settings'
                : url.pathname.startsWith('/wopi/settings/file/')
                  ? 'SettingFile'
                  : 'other';
    const rec: SdkHostRequest = { method: req.method ?? 'GET', path: url.pathname, operation: op, headers: req.headers, body };
    this.requests.push(rec);
    const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      rec.status = status;
      send(res, status, payload, headers);
    };
    const ext = this.file.name.split('.').pop() ?? '';
    switch (op) {
      case 'Page': {
        rec.status = 200;
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        return void res.end(
          pageHtml({
            server: this.opts.daemonUrl,
            origin: this.url,
            css: this.opts.cssVariables,
            ui: this.opts.uiDefaults,
            settingsBase: `${this.url}/wopi/settings`,
          }),
        );
      }
      case 'Discovery': {
        const server = url.searchParams.get('server') ?? '';
        const r = await fetch(`${server}/hosting/discovery`);
        if (r.status !== 200) return answer(r.status, `Request failed. Status Code: ${r.status}`);
        const text = await r.text();
        try {
          return answer(200, { url: urlsrcFromDiscoveryString(text, this.opts.mimeType), token: 'test' });
        } catch (e) {
          // The Django example lets lxml's ValueError out: a 500.
          return answer(500, { error: (e as Error).message });
        }
      }
      case 'CheckFileInfo':
        return answer(200, {
          BaseFileName: this.file.name,
          Size: this.file.bytes.length,
          UserId: 1,
          UserCanWrite: true,
          EnableInsertRemoteImage: true,
          ...(this.opts.advanced
            ? {
                SupportsRename: true,
                UserCanRename: true,
                UserSettings: { uri: `${this.url}/wopi/settings?type=userconfig&access_token=test&fileId=-1`, stamp: 'user-1' },
              }
            : {}),
        });
      case 'GetFile':
        return answer(200, this.file.bytes);
      case 'PutFile':
        this.file.bytes = body;
        rec.status = 200;
        res.writeHead(200);
        return void res.end();
      case 'RENAME_FILE': {
        if (!this.opts.advanced) return answer(501, {});
        const requested = decodeUtf7(String(req.headers['x-wopi-requestedname'] ?? ''));
        if (!requested) return answer(400, {});
        // MS-WOPI: RenameFile changes the name only; what is stored stays.
        this.file.name = `${requested}.${ext}`;
        return answer(200, { Name: requested });
      }
      case 'Settings':
        return answer(200, {
          kind: 'user',
          autotext: [],
          wordbook: [{ stamp: 'wb-1', uri: `${this.url}/wopi/settings/file/userconfig/wordbook/sdk.dic?access_token=test` }],
          xcu: [],
        });
      case 'SettingFile':
        return answer(200, wordbook(['Odeword', 'Sdkword']));
      default:
        return answer(404, {});
    }
  }
}
