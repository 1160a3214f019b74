import { OdeError } from '../errors.ts';

/** A validated WOPISrc: the file URL, its file id, and the document key (the URL without its query). */
export interface WopiSrc {
  url: URL;
  fileId: string;
  /** Identifies the document: one kit per key (issue 4: "keyed by WOPISrc without its query"). */
  key: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Validates a WOPISrc (spec: Resources, "File URL"): an absolute http(s) URL whose path has a segment starting
 * with `wopi` followed, later in the path, by the file id, which is base64url (A-Z, a-z, 0-9, `-`, `_`).
 * @throws OdeError bad_request naming what is wrong.
 */
export function parseWopiSrc(text: string | undefined): WopiSrc {
  if (!text) throw new OdeError('bad_request', 'WOPISrc is missing: the host must append WOPISrc=<file URL> to the editor URL.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not echoed: a malformed WOPISrc may hold a token or a password in any shape, and this message is logged.
    throw new OdeError('bad_request', `WOPISrc is not an absolute URL (${text.length} characters): the host must append the file URL, URL-encoded.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OdeError('bad_request', `WOPISrc must be an http or https URL, not ${url.protocol}`);
  const segments = url.pathname.split('/').filter(Boolean);
  const wopiAt = segments.findIndex((s) => s.toLowerCase().startsWith('wopi'));
  const fileId = segments.at(-1) ?? '';
  if (wopiAt < 0 || wopiAt === segments.length - 1)
    throw new OdeError(
      'bad_request',
      `WOPISrc's path must contain a segment starting with "wopi" followed by the file id, as in /wopi/files/<id>: ${url.pathname}`,
    );
  if (!BASE64URL.test(fileId)) throw new OdeError('bad_request', `WOPISrc's file id "${fileId.slice(0, 80)}" is not base64url (A-Z, a-z, 0-9, -, _).`);
  return { url, fileId, key: `${url.origin}${url.pathname}` };
}

/** True for loopback host names and addresses (always allowed, as the built-in demo host lives there). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Checks a WOPISrc's host against `storage.wopi.hosts` (regular expressions matching the whole host name, case
 * insensitive); loopback hosts are always allowed.
 * @throws OdeError forbidden_host naming the host and the config key to add it to.
 */
export function checkWopiHost(src: WopiSrc, patterns: readonly string[]): void {
  const host = src.url.hostname;
  if (isLoopbackHost(host)) return;
  if (patterns.some((p) => new RegExp(`^(?:${p})$`, 'i').test(host))) return;
  throw new OdeError(
    'forbidden_host',
    `The WOPI host "${host}" is not allowed: add a pattern for it (e.g. "${host.replace(/\./g, '\\.')}") to storage.wopi.hosts.`,
  );
}
