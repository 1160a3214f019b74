import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test asks of the host page. */
export interface HostPageOptions {
  /** The daemon's base URL (`http://127.0.0.1:<port>`): its discovery gives the editor's urlsrc. */
  daemonUrl: string;
  /** The file's real WOPISrc (a FakeWopiHost, the demo host, ...): the host page's WOPI proxy forwards to it. */
  wopiSrc: string;
  /** The access token posted in the form (and forwarded by the proxy). */
  token: string;
  /** Iframe query parameters added to the editor's address (closebutton, permission, lang, debug, ...). */
  params?: Record<string, string>;
  /**
   * CheckFileInfo properties merged over the real host's answer by the proxy. PostMessageOrigin defaults to the
   * host page's own origin (set it to something else to see the editor refuse to talk).
   */
  fileInfo?: Record<string, unknown>;
  /** access_token_ttl posted in the form (ms since the epoch). */
  tokenTtl?: number;
  /** checkfileinfo_override posted in the form, e.g. `DownloadAsPostMessage=true`. */
  checkFileInfoOverride?: string;
  /** Files the host page serves at `/<name>` with `Access-Control-Allow-Origin: *` (images for Action_InsertGraphic). */
  assets?: Record<string, { type: string; body: Buffer }>;
}

/** One PostMessage the host page received from the editor, as the host page saw it. */
export interface HostMessage {
  MessageId: string;
  SendTime?: number;
  Values: Record<string, unknown>;
  /** The message as it was posted (the editor posts JSON strings, as Collabora does). */
  raw: unknown;
  /** event.origin of the message. */
  origin: string;
  /** Date.now() in the host page when it arrived. */
  receivedAt: number;
}

/** A message for the host page to post into the editor frame. A string is posted as is. */
export type HostPost = { MessageId: string; SendTime?: number; Values?: Record<string, unknown> } | string;

/** A request the editor's daemon made to the host page's WOPI proxy. */
export interface ProxiedRequest {
  method: string;
  path: string;
  /** CheckFileInfo, GetFile, PutFile, or the X-WOPI-Override of a POST. */
  operation: string;
  status: number;
}

export interface HostPage {
  /** The host page to open in the browser (`http://localhost:<port>/host.html`). */
  url: string;
  /** The host page's origin (the PostMessageOrigin the proxy gives the editor). */
  origin: string;
  /** The WOPISrc the iframe was given (the proxy's). */
  wopiSrc: string;
  /** Every PostMessage received from the editor so far, in arrival order. */
  messages(): HostMessage[];
  /** Waits for the first message `messageId` (after `since` messages) that `match` accepts. @throws Error after `timeoutMs`. */
  waitFor(messageId: string, match?: (m: HostMessage) => boolean, timeoutMs?: number, since?: number): Promise<HostMessage>;
  /**
   * Has the open host page post `msg` into the editor frame; resolves once it was posted. `from: 'other'` posts it
   * from a frame of another origin (a sibling iframe at `http://127.0.0.1:<port>`), which the editor must ignore.
   */
  post(msg: HostPost, opts?: { from?: 'host' | 'other' }): Promise<void>;
  /** The WOPI requests proxied so far. */
  requests(): ProxiedRequest[];
  /**
   * The same host page for another user of the same file, for co-editing tests: its own page address
   * (`/host.html?user=<key>`) on the same origin and WOPISrc (so the daemon opens one document for both), its own
   * access token (`<token>~<key>`, which the proxy forwards as the real token) and CheckFileInfo (`fileInfo` merged
   * over this page's), its own messages and outbox. It shares this page's server: its stop() does nothing.
   */
  forUser(key: string, fileInfo: Record<string, unknown>): HostPage;
  stop(): Promise<void>;
}

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
};

/** The editor's urlsrc from discovery, on the daemon's own origin (discovery may name another host). */
async function editorUrl(daemonUrl: string): Promise<string> {
  const xml = await (await fetch(`${daemonUrl}/hosting/discovery`)).text();
  const m = /<action\b[^>]*\bname="edit"[^>]*\burlsrc="([^"]+)"/.exec(xml) ?? /<action\b[^>]*\burlsrc="([^"]+)"[^>]*\bname="edit"/.exec(xml);
  if (!m) throw new Error('host-page: no edit action in discovery');
  const u = new URL(m[1].replace(/&amp;/g, '&'));
  return `${daemonUrl}${u.pathname}`;
}

const hostHtml = (o: { action: string; token: string; ttl?: number; override?: string; editorOrigin: string; otherOrigin: string; user: string }) => {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Test host page</title>
<style>body{margin:0;font:13px sans-serif} iframe#ode{border:0;width:100vw;height:calc(100vh - 4px);display:block}</style></head>
<body>
<form id="f" action="${esc(o.action)}" method="post" target="ode">
<input type="hidden" name="access_token" value="${esc(o.token)}">
${o.ttl ? `<input type="hidden" name="access_token_ttl" value="${o.ttl}">` : ''}
${o.override ? `<input type="hidden" name="checkfileinfo_override" value="${esc(o.override)}">` : ''}
</form>
<iframe id="ode" name="ode" title="Document editor" allow="clipboard-read *; clipboard-write *; fullscreen"></iframe>
<iframe id="other" src="${o.otherOrigin}/other.html" style="display:none" title="another origin"></iframe>
<script>
const editorOrigin = ${JSON.stringify(o.editorOrigin)};
const otherOrigin = ${JSON.stringify(o.otherOrigin)};
let seq = 0;
window.addEventListener('message', (e) => {
  if (e.origin !== editorOrigin) return;
  fetch('/record?user=${encodeURIComponent(o.user)}', { method: 'POST', body: JSON.stringify({ seq: seq++, origin: e.origin, data: e.data, receivedAt: Date.now() }) });
});
const outbox = new EventSource('/outbox?user=${encodeURIComponent(o.user)}');
outbox.onmessage = (e) => {
  const { id, message, from } = JSON.parse(e.data);
  const data = typeof message === 'string' ? message : JSON.stringify(message);
  if (from === 'other') document.getElementById('other').contentWindow.postMessage(data, otherOrigin);
  else document.getElementById('ode').contentWindow.postMessage(data, editorOrigin);
  fetch('/delivered?id=' + id, { method: 'POST' });
};
document.getElementById('f').submit();
</script>
</body></html>
`;
};

// The frame of another origin: posts what its parent gives it to the editor frame (frames[0] of the parent).
const OTHER_HTML = `<!doctype html><meta charset="utf-8"><script>
window.addEventListener('message', (e) => { if (e.source === parent) parent.frames[0].postMessage(e.data, '*'); });
</script>`;

/**
 * A host page on another origin than the daemon, for browser tests (spec: "Iframe form-post fields", PostMessage
 * API): a node:http server on 127.0.0.1, opened as `http://localhost:<port>/host.html` (the daemon is on
 * 127.0.0.1: another origin). The page posts the form (access_token, access_token_ttl, checkfileinfo_override)
 * into an iframe with `allow="clipboard-read *; clipboard-write *; fullscreen"`, records every PostMessage the
 * editor sends (reported to this server, so `messages()` needs no browser handle), and posts what `post()` is
 * given (relayed through an EventSource). It is also the WOPI host the daemon talks to: a proxy to `wopiSrc` that
 * merges `fileInfo` (and PostMessageOrigin = this page's origin) into CheckFileInfo, so the page's origin is the
 * WOPI host's and the editor page's frame-ancestors let it embed the editor.
 */
export async function startHostPage(opts: HostPageOptions): Promise<HostPage> {
  // Per user of the page ('' is the page's own user; others come from forUser).
  const received = new Map<string, Array<HostMessage & { seq: number }>>([['', []]]);
  const proxied: ProxiedRequest[] = [];
  const outboxClients = new Map<string, Set<ServerResponse>>([['', new Set()]]);
  const queued = new Map<string, string[]>([['', []]]);
  const users = new Map<string, Record<string, unknown>>();
  const delivered = new Map<number, () => void>();
  let nextId = 0;
  const target = new URL(opts.wopiSrc);
  const fileId = target.pathname.split('/').filter(Boolean).at(-1)!;
  const action = await editorUrl(opts.daemonUrl);
  let origin = '';
  let otherOrigin = '';

  const proxy = async (req: IncomingMessage, res: ServerResponse, url: URL, contents: boolean) => {
    const upstream = new URL(target.href + (contents ? '/contents' : ''));
    upstream.search = url.search;
    // Another user's token (`<token>~<key>`): the real token goes upstream, the user's CheckFileInfo comes back.
    const user = /~([\w-]+)$/.exec(url.searchParams.get('access_token') ?? '')?.[1];
    const userInfo = user !== undefined ? users.get(user) : undefined;
    if (userInfo) upstream.searchParams.set('access_token', opts.token);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
    if (userInfo && headers.authorization) headers.authorization = `Bearer ${opts.token}`;
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
    const r = await fetch(upstream, { method: req.method, headers, body });
    let payload = Buffer.from(await r.arrayBuffer());
    const operation = contents
      ? req.method === 'GET'
        ? 'GetFile'
        : 'PutFile'
      : req.method === 'GET'
        ? 'CheckFileInfo'
        : String(req.headers['x-wopi-override'] ?? 'POST');
    if (operation === 'CheckFileInfo' && r.ok)
      payload = Buffer.from(JSON.stringify({ ...(JSON.parse(payload.toString('utf8')) as object), PostMessageOrigin: origin, ...opts.fileInfo, ...userInfo }));
    proxied.push({ method: req.method ?? 'GET', path: url.pathname, operation, status: r.status });
    const out: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    res.writeHead(r.status, { ...out, 'Content-Length': payload.length });
    res.end(payload);
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const wopi = /^\/wopi\/files\/([^/]+)(\/contents)?$/.exec(url.pathname);
      if (wopi && wopi[1] === fileId) return proxy(req, res, url, !!wopi[2]);
      if (url.pathname === '/host.html') {
        const params = new URLSearchParams({ WOPISrc: `${origin}/wopi/files/${fileId}`, ...opts.params });
        const user = url.searchParams.get('user') ?? '';
        const token = user && users.has(user) ? `${opts.token}~${user}` : opts.token;
        const html = hostHtml({
          action: `${action}?${params}`,
          token,
          ttl: opts.tokenTtl,
          override: opts.checkFileInfoOverride,
          editorOrigin: new URL(opts.daemonUrl).origin,
          otherOrigin,
          user,
        });
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        return res.end(html);
      }
      const asset = opts.assets?.[url.pathname.slice(1)];
      if (asset) {
        res.writeHead(200, { 'Content-Type': asset.type, 'Content-Length': asset.body.length, 'Access-Control-Allow-Origin': '*' });
        return res.end(asset.body);
      }
      if (url.pathname === '/other.html') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end(OTHER_HTML);
      }
      if (url.pathname === '/record' && req.method === 'POST') {
        const r = JSON.parse((await readBody(req)).toString('utf8')) as { seq: number; origin: string; data: unknown; receivedAt: number };
        let env: Record<string, unknown> = {};
        try {
          env = (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>;
        } catch {
          env = { MessageId: '(not JSON)' };
        }
        const list = received.get(url.searchParams.get('user') ?? '') ?? received.get('')!;
        list.push({
          seq: r.seq,
          MessageId: String(env.MessageId),
          SendTime: typeof env.SendTime === 'number' ? env.SendTime : undefined,
          Values: (env.Values ?? {}) as Record<string, unknown>,
          raw: r.data,
          origin: r.origin,
          receivedAt: r.receivedAt,
        });
        list.sort((a, b) => a.seq - b.seq);
        res.writeHead(204);
        return res.end();
      }
      if (url.pathname === '/outbox') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
        res.write(': open\n\n');
        const user = url.searchParams.get('user') ?? '';
        const clients = outboxClients.get(user) ?? outboxClients.get('')!;
        clients.add(res);
        req.on('close', () => clients.delete(res));
        for (const q of (queued.get(user) ?? queued.get('')!).splice(0)) res.write(q);
        return;
      }
      if (url.pathname === '/delivered' && req.method === 'POST') {
        const id = Number(url.searchParams.get('id'));
        delivered.get(id)?.();
        delivered.delete(id);
        res.writeHead(204);
        return res.end();
      }
      res.writeHead(404);
      res.end();
    })().catch((e: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`host page: ${e.message}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  origin = `http://localhost:${port}`;
  otherOrigin = `http://127.0.0.1:${port}`;

  /** The HostPage of user `user` ('' the page's own) on this server; `stop` stops the server for '' only. */
  const pageOf = (user: string): HostPage => {
    const messages = () => received.get(user)!.map(({ seq: _seq, ...m }) => m);
    return {
      url: `${origin}/host.html${user ? `?user=${encodeURIComponent(user)}` : ''}`,
      origin,
      wopiSrc: `${origin}/wopi/files/${fileId}`,
      messages,
      async waitFor(messageId, match = () => true, timeoutMs = 30_000, since = 0) {
        const until = Date.now() + timeoutMs;
        for (;;) {
          const hit = messages()
            .slice(since)
            .find((m) => m.MessageId === messageId && match(m));
          if (hit) return hit;
          if (Date.now() > until)
            throw new Error(
              `host page: no ${messageId} within ${timeoutMs} ms; got ${messages()
                .map((m) => m.MessageId)
                .join(', ')}`,
            );
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      post(msg, o = {}) {
        const id = nextId++;
        const frame = `data: ${JSON.stringify({ id, message: msg, from: o.from ?? 'host' })}\n\n`;
        return new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => (delivered.delete(id), reject(new Error('host page: the page did not post the message within 10 s (is it open?)'))),
            10_000,
          );
          delivered.set(id, () => (clearTimeout(timer), resolve()));
          const clients = outboxClients.get(user)!;
          if (clients.size === 0) queued.get(user)!.push(frame);
          else for (const c of clients) c.write(frame);
        });
      },
      requests: () => [...proxied],
      forUser(key, fileInfo) {
        if (!/^[\w-]+$/.test(key)) throw new Error(`host page: user key ${key} is not a word`);
        users.set(key, fileInfo);
        if (!received.has(key)) received.set(key, []), outboxClients.set(key, new Set()), queued.set(key, []);
        return pageOf(key);
      },
      async stop() {
        if (user) return;
        for (const clients of outboxClients.values()) for (const c of clients) c.end();
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      },
    };
  };
  return pageOf('');
}

/** The spec's name for it: `start({daemonUrl, wopiSrc, token, params, fileInfo?})`. */
export const start = startHostPage;
