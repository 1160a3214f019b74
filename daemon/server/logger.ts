import { pino, type Logger, type LoggerOptions } from 'pino';
import type { LogBuffer } from './admin/log-buffer.ts';

/** Keys whose values never reach a log line (compared case-insensitively). */
const SECRET_KEYS = 'access_token|token|authorization|password|secret|cookie|x-wopi-proof|x-wopi-proofold';
/** What `redactSecrets` puts in place of a secret. */
export const REDACTED = '[redacted]';

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // URL user info: scheme://user:password@host (also inside an error message or a path).
  [/([a-z][\w+.-]*:\/\/)[^/?#\s"'<>@\\]+@/gi, `$1${REDACTED}@`],
  // The same URL percent-encoded, as in a logged query (WOPISrc=http%3A%2F%2Fuser%3Apw%40host).
  [/(%3A%2F%2F)(?:(?!%2F|%3F|%23)[^/?#&\s"'<>\\])+%40/gi, `$1${REDACTED}%40`],
  // access_token in a query, plain or percent-encoded (access_token_ttl is not a secret: `=` must follow).
  [/(access_token(?:=|%3D))(?:(?!%26)[^&#\s"'<>\\])+/gi, `$1${REDACTED}`],
  // Authorization schemes.
  [/\b((?:Bearer|Basic)\s+)[\w\-.~+/]+=*/g, `$1${REDACTED}`],
  // JSON fields named like a secret, at any depth, and the same inside a JSON string logged as text (\"token\":\"...\").
  [new RegExp(`("(?:${SECRET_KEYS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REDACTED}"`],
  [new RegExp(`(\\\\"(?:${SECRET_KEYS})\\\\"\\s*:\\s*)\\\\"(?:[^"\\\\]|\\\\[^"])*\\\\"`, 'gi'), `$1\\"${REDACTED}\\"`],
];
/** Cheap pre-check: a line without any of these cannot hold what PATTERNS remove. */
const TRIGGER = /@|access_token|bearer|basic|token|authorization|password|secret|cookie|proof/i;

/**
 * Removes secrets from one serialized log line (issue 17, item 10: no token or user info in any log line): the
 * user info of URLs (plain or percent-encoded), `access_token` query values, Bearer/Basic credentials, and the values
 * of fields named token, access_token, authorization, password, secret, cookie or X-WOPI-Proof, wherever they are in
 * the line. Used as pino's `streamWrite` hook, so every destination (stderr, the admin API's LogBuffer, a test's
 * file) gets the redacted line, whatever the call site logged.
 */
export function redactSecrets(line: string): string {
  if (!TRIGGER.test(line)) return line;
  let out = line;
  for (const [re, to] of PATTERNS) out = out.replace(re, to);
  return out;
}

/** pino options every daemon logger uses (createLogger, and loggers tests build): the secret redaction hook. */
export const LOG_OPTIONS: LoggerOptions = { hooks: { streamWrite: redactSecrets } };

/**
 * Creates the daemon's logger: JSON lines on stderr (journald and `jq` friendly), at `level`, with secrets redacted
 * (`redactSecrets`). Child loggers carry `{kit}`, `{doc}` or `{req}` bindings. With `buffer`, every line also goes
 * to the admin API's LogBuffer (a second pino.multistream destination); both destinations take whatever the
 * logger's level lets through, so changing `log.level` live (log_level) changes both.
 */
export function createLogger(level: string, name = 'ode', buffer?: LogBuffer): Logger {
  if (!buffer) return pino({ ...LOG_OPTIONS, name, level, base: { pid: process.pid } }, pino.destination(2));
  const streams = pino.multistream([
    { level: 'trace', stream: pino.destination(2) },
    { level: 'trace', stream: buffer },
  ]);
  return pino({ ...LOG_OPTIONS, name, level, base: { pid: process.pid } }, streams);
}

export type { Logger };
