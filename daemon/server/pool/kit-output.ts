/**
 * The last lines a kit wrote to its stdout and stderr (issue 17, item 3): a bounded ring, so that when a kit exits
 * unexpectedly its own last words are logged with the exit code or signal (kit-process.ts), while its output is
 * otherwise logged at debug level only. Lines are kept as written; the daemon's logger redacts secrets in every
 * line it writes (logger.ts `redactSecrets`), and a kit is never given an access token.
 */

/** How much of a kit's output is kept: the last `lines` lines, at most `bytes` characters in all. */
export interface KitOutputLimits {
  lines: number;
  bytes: number;
}

/** Defaults: 50 lines, 8 kB. */
export const KIT_OUTPUT_LIMITS: KitOutputLimits = { lines: 50, bytes: 8192 };

/** Longest line kept, characters (a longer one keeps its start and says it was cut). */
const MAX_LINE = 1000;

/** The last lines of a kit's output (see the module docstring). */
export class KitOutputTail {
  private readonly kept: string[] = [];
  private size = 0;
  /** A line not ended yet, per stream. */
  private readonly partial = new Map<string, string>();

  constructor(private readonly limits: KitOutputLimits = KIT_OUTPUT_LIMITS) {}

  /** A chunk of `stream` ('out' or 'err'); returns the complete lines it ended (for the debug log). */
  add(stream: 'out' | 'err', chunk: string): string[] {
    const text = (this.partial.get(stream) ?? '') + chunk;
    const parts = text.split('\n');
    const rest = parts.pop() ?? '';
    // An unended line longer than a kept line is flushed as it is.
    if (rest.length > MAX_LINE) {
      parts.push(rest);
      this.partial.delete(stream);
    } else this.partial.set(stream, rest);
    const lines = parts.filter((l) => l.trim());
    for (const l of lines) this.keep(stream === 'err' ? l : `[out] ${l}`);
    return lines;
  }

  private keep(line: string): void {
    const l = line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}... (${line.length} characters)` : line;
    this.kept.push(l);
    this.size += l.length;
    while (this.kept.length > this.limits.lines || (this.size > this.limits.bytes && this.kept.length > 1)) this.size -= this.kept.shift()!.length;
  }

  /** The kept lines, oldest first, with any unended line last. */
  lines(): string[] {
    const out = [...this.kept];
    for (const [stream, rest] of this.partial) if (rest.trim()) out.push(stream === 'err' ? rest : `[out] ${rest}`);
    return out;
  }
}
