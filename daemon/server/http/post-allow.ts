import { isIPv4 } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * Strips an IPv4-mapped IPv6 prefix (`::ffff:10.0.0.1` -> `10.0.0.1`) and brackets, so one IPv4 pattern covers
 * both socket forms.
 */
export function normaliseAddress(address: string): string {
  let a = address.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) a = mapped[1];
  return a;
}

/** Parses one X-Forwarded-For element: `1.2.3.4`, `1.2.3.4:5678`, `[::1]:443` or `::1`. */
function forwardedAddress(part: string): string {
  const p = part.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(p);
  if (bracketed) return normaliseAddress(bracketed[1]);
  const v4port = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(p);
  if (v4port && isIPv4(v4port[1])) return v4port[1];
  return normaliseAddress(p);
}

/**
 * The addresses a request speaks for: the socket's peer, then every address in X-Forwarded-For (spec:
 * Authentication; each one must be allowed, so a proxy cannot launder a denied client).
 */
export function requestAddresses(req: IncomingMessage): string[] {
  const out = [normaliseAddress(req.socket.remoteAddress ?? '')];
  const xff = req.headers['x-forwarded-for'];
  const values = Array.isArray(xff) ? xff : xff ? [xff] : [];
  for (const v of values) for (const part of v.split(',')) if (part.trim()) out.push(forwardedAddress(part));
  return out;
}

/**
 * Compiles `net.post_allow.host` (dot-escaped regular expressions, spec: Authentication) into a matcher; each
 * pattern must match a whole address, case-insensitively.
 */
export function compileAllowList(patterns: readonly string[]): (address: string) => boolean {
  const res = patterns.map((p) => new RegExp(`^(?:${p})$`, 'i'));
  return (address) => res.some((r) => r.test(address));
}

/** The outcome of an allow-list check: `denied` names the first address that failed. */
export interface AllowDecision {
  allowed: boolean;
  denied?: string;
  viaForwardedFor?: boolean;
}

/** Checks every address of `req` against the allow-list. */
export function checkPostAllow(req: IncomingMessage, patterns: readonly string[]): AllowDecision {
  const allowed = compileAllowList(patterns);
  const addresses = requestAddresses(req);
  for (let i = 0; i < addresses.length; i++) {
    if (!allowed(addresses[i])) return { allowed: false, denied: addresses[i], viaForwardedFor: i > 0 };
  }
  return { allowed: true };
}
