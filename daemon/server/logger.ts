import { pino, type Logger } from 'pino';

/**
 * Creates the daemon's logger: JSON lines on stderr (journald and `jq` friendly), at `level`.
 * Child loggers carry `{kit}`, `{doc}` or `{req}` bindings.
 */
export function createLogger(level: string, name = 'ode'): Logger {
  return pino({ name, level, base: { pid: process.pid } }, pino.destination(2));
}

export type { Logger };
