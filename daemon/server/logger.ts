import { pino, type Logger } from 'pino';
import type { LogBuffer } from './admin/log-buffer.ts';

/**
 * Creates the daemon's logger: JSON lines on stderr (journald and `jq` friendly), at `level`.
 * Child loggers carry `{kit}`, `{doc}` or `{req}` bindings. With `buffer`, every line also goes to the admin
 * API's LogBuffer (a second pino.multistream destination); both destinations take whatever the logger's level
 * lets through, so changing `log.level` live (log_level) changes both.
 */
export function createLogger(level: string, name = 'ode', buffer?: LogBuffer): Logger {
  if (!buffer) return pino({ name, level, base: { pid: process.pid } }, pino.destination(2));
  const streams = pino.multistream([
    { level: 'trace', stream: pino.destination(2) },
    { level: 'trace', stream: buffer },
  ]);
  return pino({ name, level, base: { pid: process.pid } }, streams);
}

export type { Logger };
