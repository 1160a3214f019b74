import type { IncomingMessage } from 'node:http';
import { OdeError } from '../errors.ts';
import { BASE_HEADERS, sendJson } from '../http/respond.ts';
import { HostSettingsClient, hostRefused, parseSettingsBaseUrl, parseSettingsFileId, type HostAnswer, type SettingsType } from '../settings/host-settings.ts';
import { ODE_VERSION } from '../version.ts';
import type { Handler, RouteContext } from './context.ts';

/** Largest settings file the page may upload or read back (bytes): autotext .bau files are the big ones. */
const MAX_SETTING_BYTES = 20 * 1024 * 1024;

/** The token the page sends as `Authorization: Bearer` (never in the URL, so it stays out of access logs). */
function bearer(req: IncomingMessage): string {
  const token = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1]?.trim();
  if (!token) throw new OdeError('bad_request', 'The settings proxy needs the iframe\'s access_token as "Authorization: Bearer <token>".');
  return token;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_SETTING_BYTES) throw new OdeError('too_large', `A settings file may be at most ${MAX_SETTING_BYTES / 1024 / 1024} MB.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function client(ctx: RouteContext): HostSettingsClient {
  return new HostSettingsClient({
    sign: (token, url) => ({ ...ctx.proofKeys.sign(token, url) }),
    timeoutMs: ctx.config().storage.wopi.timeout_secs * 1000,
    userAgent: `Ode/${ODE_VERSION}`,
    fetch: ctx.hostTls?.fetch,
  });
}

/** The host's answer to an upload or delete for the page: 2xx as `{hostStatus, ...host JSON}`, else an OdeError. */
function relay(operation: string, answer: HostAnswer): Record<string, unknown> {
  if (answer.status < 200 || answer.status > 299) throw hostRefused(operation, answer);
  return { hostStatus: answer.status, ...(answer.json ?? { status: 'success' }) };
}

/**
 * The settings iframe's proxy to the host's settings endpoints (docs/settings.md; spec: "Settings endpoints
 * implemented by the host"), so that every host request goes out from the daemon with Bearer and proof headers.
 * The page sends its token as `Authorization: Bearer` and `base` = its `wopi_setting_base_url` (checked as WOPISrc
 * is: /wopi/settings path, storage.wopi.hosts):
 * - `GET /ode/settings?base&type` -> `{kind, settings: {<name>: [{stamp, uri, file}]}}`
 * - `POST /ode/settings/upload?base&fileId` (body: the file's bytes) -> `{hostStatus, status, filename, details}`
 * - `DELETE /ode/settings?base&fileId` -> `{hostStatus, status, message}`
 * - `GET /ode/settings/file?base&uri` -> the listed file's bytes (the wordbook editor reads .dic files so)
 * Errors: bad_request (no token, bad base/type/fileId/uri), forbidden_host, too_large, settings_host_error (502;
 * the host's status and JSON in `hostStatus`/`host`).
 */
export const settingsProxy: Handler = async (req, res, ctx, { rest }) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const token = bearer(req);
  const base = parseSettingsBaseUrl(url.searchParams.get('base'), ctx.config().storage.wopi.hosts);
  const op = `${req.method} ${rest || '/'}`;
  const started = Date.now();
  let body: Record<string, unknown> | Buffer;
  switch (op) {
    case 'GET /':
    case 'HEAD /': {
      const type = url.searchParams.get('type');
      if (type !== 'userconfig' && type !== 'systemconfig')
        throw new OdeError('bad_request', `type must be userconfig or systemconfig, not "${String(type).slice(0, 40)}".`);
      body = { ...(await client(ctx).list(base, token, type as SettingsType)) };
      break;
    }
    case 'POST /upload': {
      const fileId = url.searchParams.get('fileId');
      parseSettingsFileId(fileId);
      const bytes = await readBody(req);
      if (bytes.length === 0) throw new OdeError('bad_request', 'The upload is empty: send the settings file as the request body.');
      body = relay('upload', await client(ctx).upload(base, token, fileId!, bytes));
      break;
    }
    case 'DELETE /': {
      body = relay('delete', await client(ctx).remove(base, token, url.searchParams.get('fileId') ?? ''));
      break;
    }
    case 'GET /file':
    case 'HEAD /file': {
      const bytes = await client(ctx).download(base, token, url.searchParams.get('uri') ?? '');
      if (bytes.length > MAX_SETTING_BYTES) throw new OdeError('too_large', `A settings file may be at most ${MAX_SETTING_BYTES / 1024 / 1024} MB.`);
      body = bytes;
      break;
    }
    default:
      throw new OdeError(
        rest === '' || rest === '/upload' || rest === '/file' ? 'method_not_allowed' : 'not_found',
        `No settings proxy endpoint for ${req.method} /ode/settings${rest}.`,
      );
  }
  ctx.log.info({ op: `settings ${op}`, host: base.host, ms: Date.now() - started }, 'settings request relayed');
  if (Buffer.isBuffer(body)) {
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'application/octet-stream', 'Content-Length': body.length, 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  sendJson(res, 200, body, { 'Cache-Control': 'no-store' });
};
