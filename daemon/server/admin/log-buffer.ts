/**
 * The daemon's recent log lines in memory, for the admin API's `logs.recent` and `logs.follow`. pino writes each
 * JSON line to it as one more destination (daemon/server/logger.ts puts it next to stderr in a pino.multistream);
 * it parses the line once, keeps the last `capacity` lines in a ring and hands each new line to its listeners.
 */
import type { LogLevel, LogLine, Unsubscribe } from '../../../admin-api/backend.ts';

/** pino's numeric levels, by name (pino.levels.values; fixed by pino). */
const LEVEL_NUMBERS: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/** The fields every pino line carries that LogLine has in its own fields or drops. */
const OMITTED = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'name', 'v']);

/** The level name of a pino level number (custom levels round down to the nearest standard one). */
function levelName(n: number): LogLevel {
  let name: LogLevel = 'trace';
  for (const [k, v] of Object.entries(LEVEL_NUMBERS) as Array<[LogLevel, number]>) if (n >= v) name = k;
  return name;
}

/**
 * A ring buffer of the last `capacity` log lines (default 5000) and listeners of new ones. Use it as a pino
 * destination (`write(jsonLine)`). A line that is not JSON is kept as an `info` line with the text as msg.
 */
export class LogBuffer {
  private readonly ring: LogLine[] = [];
  /** Index in `ring` of the oldest line once the ring is full. */
  private head = 0;
  private seq = 0;
  private readonly listeners = new Set<(line: LogLine) => void>();

  constructor(readonly capacity = 5000) {}

  /** pino destination entry point: one or more serialized JSON lines. */
  write(chunk: string): boolean {
    for (const text of chunk.split('\n')) if (text.trim()) this.push(this.parse(text));
    return true;
  }

  private parse(text: string): LogLine {
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { seq: ++this.seq, time: Date.now(), level: 'info', msg: text, fields: {} };
    }
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) if (!OMITTED.has(k)) fields[k] = v;
    return {
      seq: ++this.seq,
      time: typeof obj.time === 'number' ? obj.time : Date.now(),
      level: levelName(typeof obj.level === 'number' ? obj.level : LEVEL_NUMBERS.info),
      msg: typeof obj.msg === 'string' ? obj.msg : '',
      fields,
    };
  }

  private push(line: LogLine): void {
    if (this.ring.length < this.capacity) this.ring.push(line);
    else {
      this.ring[this.head] = line;
      this.head = (this.head + 1) % this.capacity;
    }
    for (const fn of this.listeners) {
      try {
        fn(line);
      } catch {
        // A listener is an admin client's subscription; its failure must not reach the logger (nor loop back into it).
      }
    }
  }

  /** The most recent lines at or above `level`, oldest first, at most `limit`. */
  recent(limit: number, level: LogLevel): LogLine[] {
    const min = LEVEL_NUMBERS[level];
    const out: LogLine[] = [];
    for (let i = this.ring.length - 1; i >= 0 && out.length < limit; i--) {
      const line = this.ring[(this.head + i) % this.ring.length];
      if (LEVEL_NUMBERS[line.level] >= min) out.push(line);
    }
    return out.reverse();
  }

  /** Calls `fn` with every new line (all levels the logger emits); returns the unsubscribe function. */
  subscribe(fn: (line: LogLine) => void): Unsubscribe {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }
}
