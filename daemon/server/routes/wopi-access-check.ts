import type { IncomingMessage } from 'node:http';
import { OdeError } from '../errors.ts';
import { jsonObject } from '../http/page-form.ts';
import { sendJson } from '../http/respond.ts';
import { checkWopiHost } from '../wopi/wopi-src.ts';
import type { Handler } from './context.ts';

/**
 * The answers of Collabora Online's WOPI access check (wsd/ClientRequestDispatcher.cpp `CheckStatus`), which hosts
 * map to their own messages (richdocuments' ConnectivityService): `Ok` when the callback URL answered 200.
 */
export type WopiAccessStatus =
  | 'Ok'
  | 'NotHttpSuccess'
  | 'HostNotFound'
  | 'WopiHostNotAllowed'
  | 'ConnectionAborted'
  | 'CertificateValidation'
  | 'SelfSignedCertificate'
  | 'ExpiredCertificate'
  | 'SslHandshakeFail'
  | 'NotHttps'
  | 'NoScheme'
  | 'Timeout'
  | 'UnspecifiedError';

/** How long the probe of the callback URL may take (ms), as Collabora's 2 s. */
export const PROBE_TIMEOUT_MS = 2000;
/** Largest request body (bytes): one small JSON object. */
const MAX_BODY_BYTES = 16 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new OdeError('too_large', `The WOPI access check takes a small JSON object, not more than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The status for a failed probe, from the error fetch threw (undici puts the system or TLS error in `cause`). */
function statusOfError(e: unknown): WopiAccessStatus {
  const err = e as Error & { cause?: { code?: string; name?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'Timeout';
  const code = err.cause?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'HostNotFound';
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN') return 'SelfSignedCertificate';
  if (code === 'CERT_HAS_EXPIRED') return 'ExpiredCertificate';
  if (/CERT|VERIFY|ISSUER|ALTNAME/.test(code)) return 'CertificateValidation';
  if (code === 'EPROTO' || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')) return 'SslHandshakeFail';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'ConnectionAborted';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') return 'Timeout';
  return 'UnspecifiedError';
}

/**
 * POST /hosting/wopiAccessCheck (capabilities `hasWopiAccessCheck`; Nextcloud's set-up check): the host posts
 * `{"callbackUrl": "<its URL>"}` and Ode says whether it could reach it as it would reach the WOPI host, answering
 * 200 `{"status": "<WopiAccessStatus>"}` as Collabora does: `NoScheme` for a URL without `http://`/`https://`,
 * `NotHttps` for an https host while Ode itself is served over plain HTTP (the browser would refuse the mixed
 * content), `WopiHostNotAllowed` when storage.wopi.hosts does not allow the host (editing would be refused), else the
 * outcome of a GET of the URL within 2 s with the WOPI requests' TLS settings (storage.ssl): `Ok` for 200,
 * `NotHttpSuccess` for another status, or the connection's failure.
 * @throws OdeError bad_request (400) when the body is not a JSON object with a string `callbackUrl`, or the URL's
 *   scheme is neither http nor https (Collabora answers these 400 too); too_large past 16 KB.
 */
export const wopiAccessCheck: Handler = async (req, res, ctx) => {
  const body = jsonObject(await readBody(req));
  const callback = body?.callbackUrl;
  if (typeof callback !== 'string' || !callback)
    throw new OdeError('bad_request', 'The WOPI access check takes a JSON object {"callbackUrl": "<URL the WOPI host answers 200 on>"}.');
  const cfg = ctx.config();
  const answer = (status: WopiAccessStatus, detail?: string) => {
    ctx.log[status === 'Ok' ? 'info' : 'warn']({ callbackUrl: callback.replace(/[?#].*$/, ''), status, detail }, 'WOPI access check');
    sendJson(res, 200, { status });
  };
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(callback)?.[1]?.toLowerCase();
  if (scheme === undefined) return answer('NoScheme');
  if (scheme !== 'http' && scheme !== 'https') throw new OdeError('bad_request', `The callbackUrl must be an http:// or https:// URL, not ${scheme}://.`);
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    throw new OdeError('bad_request', `The callbackUrl is not a valid URL: ${callback.slice(0, 200)}`);
  }
  if (scheme === 'https' && !cfg.ssl.enable && !cfg.ssl.termination)
    return answer('NotHttps', 'the WOPI host uses https while Ode is served over http (ssl.enable / ssl.termination)');
  try {
    checkWopiHost({ url, fileId: '', key: '' }, cfg.storage.wopi.hosts);
  } catch (e) {
    return answer('WopiHostNotAllowed', (e as Error).message);
  }
  const probe = ctx.hostTls?.fetch ?? ((u: URL, init: RequestInit) => fetch(u, init));
  try {
    const r = await probe(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await r.arrayBuffer().catch(() => undefined);
    return answer(r.status === 200 ? 'Ok' : 'NotHttpSuccess', `HTTP ${r.status}`);
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    return answer(statusOfError(e), err.cause?.code ?? err.cause?.message ?? err.message);
  }
};
