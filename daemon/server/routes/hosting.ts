import { buildCapabilities } from '../discovery/capabilities.ts';
import { buildDiscoveryXml } from '../discovery/discovery-xml.ts';
import { OdeError } from '../errors.ts';
import { checkPostAllow } from '../http/post-allow.ts';
import { BASE_HEADERS, sendJson } from '../http/respond.ts';
import { APP_ICONS } from './app-icons.ts';
import { baseUrl, type Handler, type RouteContext } from './context.ts';
import { HOST_ICONS, sendHostIcon } from './host-icons.ts';

/** Path prefix of the versioned browser resources (the editor, the settings page, icons). */
export function browserPath(ctx: RouteContext): string {
  return `/browser/${ctx.versionHash}`;
}

/** GET /hosting/discovery: the discovery XML (spec: Discovery document) for the requesting base URL. */
export const discovery: Handler = (req, res, ctx) => {
  const prefix = browserPath(ctx);
  const xml = buildDiscoveryXml({
    baseUrl: baseUrl(req, ctx.config(), ctx.log),
    editorPath: `${prefix}/ode.html?`,
    settingsPath: `${prefix}/settings.html?`,
    iconPath: `${prefix}/images`,
    proofKey: ctx.proofKeys.discoveryValues(),
  });
  res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': Buffer.byteLength(xml), 'Cache-Control': 'no-cache' });
  res.end(xml);
};

/**
 * GET /hosting/capabilities: the capabilities JSON; `convert-to.available` is decided for the requesting address,
 * `productVersion` is hosting.collabora_version (the Collabora level hosts gate features on).
 */
export const capabilities: Handler = (req, res, ctx) => {
  const cfg = ctx.config();
  const available = checkPostAllow(req, cfg.net.post_allow.host).allowed;
  sendJson(
    res,
    200,
    buildCapabilities({
      convertToAvailable: available,
      productVersion: cfg.hosting.collabora_version,
      odeVersion: ctx.version,
      productVersionHash: ctx.versionHash,
      serverId: ctx.serverId,
    }),
  );
};

/**
 * GET /browser/<hash>/images/<icon>.svg: the app icons discovery links to; under `/browser/<hash>/images/` and
 * Collabora's `/browser/dist/images/`, also the icons hosts take from Collabora's image set (host-icons.ts).
 */
export const appIcon: Handler = (req, res, ctx, { rest }) => {
  const m = /^\/([^/]+)\/images\/([A-Za-z0-9_.-]+)$/.exec(rest);
  if (m && (m[1] === ctx.versionHash || m[1] === 'dist') && Object.hasOwn(HOST_ICONS, m[2])) return sendHostIcon(req, res, m[2]);
  const svg = m && m[1] === ctx.versionHash && Object.hasOwn(APP_ICONS, m[2]) ? APP_ICONS[m[2]] : undefined;
  if (!svg) throw new OdeError('not_found', `No resource at ${req.url}.`);
  res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=31536000, immutable' });
  res.end(svg);
};
