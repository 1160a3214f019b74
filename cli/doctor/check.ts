import type { OdeConfig } from '../../daemon/server/index.ts';

/** A check's verdict: `ok`, `warn` (works, but look at it) or `FAIL` (something a host or user will hit). */
export type CheckStatus = 'ok' | 'warn' | 'FAIL';

/** One line of `ode doctor`: which check, its verdict, what was seen, and for warn/FAIL the fix. */
export interface CheckResult {
  /** Short stable name: libreoffice, fonts, proof-key, certificate, public-url, websocket, upload, clock. */
  name: string;
  status: CheckStatus;
  /** What was seen, with the values that matter (paths, status codes, dates). */
  detail: string;
  /** What to change, naming the config key, package or proxy directive. */
  fix?: string;
}

/** The answer of GET <url>/hosting/discovery, shared by the checks that need it (undefined when unreachable). */
export interface DiscoveryAnswer {
  status: number;
  body: string;
  /** The Date header, parsed (ms since the epoch), and the local clock at the middle of the request. */
  dateMs: number | undefined;
  localMs: number;
  elapsedMs: number;
}

/** What every check may read: the install's configuration, the public URL, extra CAs, and discovery's answer. */
export interface DoctorContext {
  config: OdeConfig;
  /** The public URL to check from outside (--url, else net.public_url, else the listener). */
  url: URL;
  /** Extra CA certificates (PEM) trusted for the public URL besides the system's (--ca). */
  ca: string[];
  discovery: DiscoveryAnswer | undefined;
  /** Why discovery could not be fetched (connection or TLS error), when it could not. */
  discoveryError: string | undefined;
}

/** Formats one result as the line `ode doctor` prints: `<status> <name> <detail>[ -> fix: <fix>]`. */
export function formatResult(r: CheckResult): string {
  return `${r.status.padEnd(4)} ${r.name.padEnd(12)} ${r.detail}${r.fix ? ` -> fix: ${r.fix}` : ''}`;
}
