import type { LogLevel, LogLine, Unsubscribe } from '../../../admin-api/backend.ts';

/** The recent log lines in memory, and listeners of new ones: TODO (issue 6) */
export class LogBuffer {
  /** The most recent lines, oldest first. */
  recent(_limit: number, _level: LogLevel): LogLine[] {
    return [];
  }

  /** Calls `fn` with every new line. */
  subscribe(_fn: (line: LogLine) => void): Unsubscribe {
    return () => {};
  }
}
