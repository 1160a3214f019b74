import { join } from 'node:path';
import { FALLBACK_SCRIPT, FALLBACK_SCRIPT_SOURCE, readBundleFile } from '../editor-page/bundle.ts';
import { editorPagePolicy } from '../editor-page/csp.ts';
import { ROOT } from '../install-paths.ts';
import { OdeError } from '../errors.ts';
import { readPageForm, scriptJson, sendPage } from '../http/page-form.ts';
import { parseCssVariables, parseUiDefaults, type HostPageConfig } from '../../protocol/host-page.ts';
import { BASE_HEADERS, sendError } from '../http/respond.ts';
import { checkWopiHost, parseWopiSrc } from '../wopi/wopi-src.ts';
import { appIcon, browserPath } from './hosting.ts';
import { baseUrl } from './context.ts';
import { settingsPage } from './settings-page.ts';
import type { Handler, RouteContext } from './context.ts';

/** The iframe query parameters of the spec that the editor reads (host-integration protocol, "Iframe query parameters"). */
const IFRAME_PARAMS = ['closebutton', 'revisionhistory', 'target', 'timestamp', 'startPresentation', 'lang', 'permission', 'debug', 'randomUser'] as const;

const EDITOR_DIST = join(ROOT, 'daemon/editor/dist/');
const ASSET_TYPES: Record<string, string> = {
  'editor.js': 'text/javascript; charset=utf-8',
  'editor.css': 'text/css; charset=utf-8',
  'editor.js.map': 'application/json',
  'settings.js': 'text/javascript; charset=utf-8',
  'settings.css': 'text/css; charset=utf-8',
  'settings.js.map': 'application/json',
};

/**
 * The browser editor's bundle (daemon/editor, built by daemon/editor/build.mjs at set-up), under the versioned
 * path, cached for good (editor-page/bundle.ts). Another version hash, or a `v` query (the content hash the page
 * links) that is not this file's, answers 404 and is never cached: the page asks again with its WOPISrc (a rolling
 * upgrade's node of the other version).
 * @throws OdeError not_found when the bundle was not built (run `npm run setup`).
 */
function sendEditorAsset(
  req: import('node:http').IncomingMessage,
  res: import('node:http').ServerResponse,
  ctx: RouteContext,
  version: string,
  name: string,
): void {
  const file = readBundleFile(`${EDITOR_DIST}${name}`);
  if (!file) throw new OdeError('not_found', `The editor bundle is not built: run \`npm run setup\` (daemon/editor/build.mjs).`);
  const wanted = new URL(req.url ?? '/', 'http://localhost').searchParams.get('v');
  if (version !== ctx.versionHash || (wanted !== null && wanted !== file.hash)) {
    sendError(res, new OdeError('not_found', `This node serves another build of ${name} (/browser/${ctx.versionHash}/${name}?v=${file.hash}).`), {
      'Cache-Control': 'no-store',
    });
    return;
  }
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': ASSET_TYPES[name],
    'Content-Length': file.body.length,
    'Cache-Control': 'public, max-age=31536000, immutable',
  });
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

/** A bundle file's URL as the page links it: versioned path and content hash (falls back to none when not built). */
function assetUrl(prefix: string, name: string): string {
  const file = readBundleFile(`${EDITOR_DIST}${name}`);
  return `${prefix}/${name}${file ? `?v=${file.hash}` : ''}`;
}

/**
 * The editor page at discovery's `urlsrc` (`/browser/<hash>/ode.html?WOPISrc=...`, issue 4 "Entry and page"):
 * the host POSTs the spec's form fields (access_token, access_token_ttl, checkfileinfo_override), urlencoded or
 * multipart (Collabora's SDK pages), with Collabora's `css_variables` and `ui_defaults` passed to the editor parsed
 * (protocol/host-page.ts), other fields ignored, and may add the iframe query parameters. WOPISrc and its host are checked (400 / 403 naming the fix); CheckFileInfo starts at
 * once so the editor's `load` finds it answered. The page carries the token, TTL and settings to the browser
 * editor, with a Content-Security-Policy whose frame-ancestors are the configured ones plus the WOPI host, and is
 * never cached (it holds a token). Other `/browser/<hash>/...` paths are the versioned resources (icons).
 */
export const editorPage: Handler = async (req, res, ctx, params) => {
  // The settings iframe (Settings app of discovery) shares the versioned prefix: routes/settings-page.ts.
  if (/^\/[^/]+\/settings\.html$/.test(params.rest)) return settingsPage(req, res, ctx, params);
  if (!/^\/[^/]+\/ode\.html$/.test(params.rest)) {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new OdeError('method_not_allowed', `${req.method} is not allowed on ${req.url}.`);
    const asset = /^\/([^/]+)\/(editor\.js|editor\.css|editor\.js\.map|settings\.js|settings\.css|settings\.js\.map)$/.exec(params.rest);
    if (asset) return sendEditorAsset(req, res, ctx, asset[1], asset[2]);
    return appIcon(req, res, ctx, params);
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const src = parseWopiSrc(url.searchParams.get('WOPISrc') ?? undefined);
  const cfg = ctx.config();
  checkWopiHost(src, cfg.storage.wopi.hosts);
  ctx.node.refuseNew('a new editor page');
  const form = await readPageForm(req, 'editor page', 'access_token and access_token_ttl', cfg.limits.body_idle_secs * 1000);
  const token = form.get('access_token') ?? '';
  if (!token) throw new OdeError('bad_request', 'No access_token was posted: the host must POST the form field access_token to the editor page.');
  const ttl = Number(form.get('access_token_ttl') ?? 0);
  const override = form.get('checkfileinfo_override') ?? undefined;
  const prefetch = ctx.prefetch.start(src.key, token, override, () => ctx.wopi.checkFileInfo(src, token, override));
  const prefix = browserPath(ctx);
  const settings = Object.fromEntries(IFRAME_PARAMS.flatMap((p) => (url.searchParams.has(p) ? [[p, url.searchParams.get(p)]] : [])));
  // Collabora's SDK pages post these too (protocol/host-page.ts); other unknown fields are ignored.
  const look: HostPageConfig = {
    cssVariables: form.has('css_variables') ? parseCssVariables(form.get('css_variables') ?? '') : undefined,
    uiDefaults: form.has('ui_defaults') ? parseUiDefaults(form.get('ui_defaults') ?? '') : undefined,
    requirePostMessageOrigin: (cfg.net as { post_message_origin_required?: boolean }).post_message_origin_required ?? false,
  };
  const config = {
    ...look,
    wopiSrc: src.url.href,
    accessToken: token,
    accessTokenTtl: Number.isFinite(ttl) && ttl > 0 ? ttl : undefined,
    checkFileInfoOverride: override,
    // The editor sends it back in `load`: that load, and no other, uses the CheckFileInfo started here.
    prefetch,
    socketPath: '/ode/ws',
    // Absolute, for the scheme the client sees: wss:// over TLS, with ssl.termination or a trusted proxy's X-Forwarded-Proto.
    socketUrl: `${baseUrl(req, cfg, ctx.log).replace(/^http/, 'ws')}/ode/ws`,
    settings,
    version: ctx.version,
    resources: prefix,
    // The editor compares it with the node that serves it after a dropped connection (host/reconnect.ts).
    serverId: ctx.serverId,
  };
  const lang = (typeof settings.lang === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(settings.lang) ? settings.lang : 'en').replace(/"/g, '');
  // The bundle is linked without the WOPISrc, so the browser caches it once for every document; a node of another
  // version (rolling upgrade) answers 404 and the inline fallback asks again with the WOPISrc, which the balancer
  // sends to this node (editor-page/bundle.ts, docs/deploy/cluster.md).
  const css = assetUrl(prefix, 'editor.css');
  const js = assetUrl(prefix, 'editor.js');
  const routed = (url: string) => `${url}${url.includes('?') ? '&amp;' : '?'}WOPISrc=${encodeURIComponent(src.url.href)}`;
  const html = `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ode</title>
<script>${FALLBACK_SCRIPT}</script>
<link rel="stylesheet" href="${css}" data-fallback="${routed(css)}">
</head>
<body>
<div id="ode-app" aria-busy="true"><p class="ode-loading">Loading the document…</p></div>
<noscript>Ode's editor needs JavaScript.</noscript>
<script type="application/json" id="ode-config">${scriptJson(config)}</script>
<script type="module" src="${js}" data-fallback="${routed(js)}"></script>
</body>
</html>
`;
  sendPage(req, res, html, editorPagePolicy(cfg.net.content_security_policy, src.url.origin, [FALLBACK_SCRIPT_SOURCE]));
};
