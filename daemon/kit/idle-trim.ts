/**
 * Gives memory back while the kit is idle, as Collabora's kit does for an inactive document: after `idleMs`
 * without a message from the daemon, LibreOffice drops the caches it can rebuild and returns freed heap to the
 * system (lok::Office::trimMemory with target 4000, Collabora's value: at 1000 and above it also malloc_trims).
 * Once per idle period: the next message starts a new one. A LibreOffice without trimMemory (an optional call) is
 * left alone.
 */
import type { OfficeHandle } from './office.ts';

/** trimMemory's target: caches, then malloc_trim (LibreOffice: >= 1000). */
export const TRIM_TARGET = 4000;

/** The kit's idle time before a trim when ODE_KIT_TRIM_IDLE_MS is not set (ms). */
export const DEFAULT_TRIM_IDLE_MS = 30_000;

/** Resident set size of this process in bytes (Linux /proc; 0 elsewhere). */
function rssBytes(): number {
  return process.memoryUsage.rss();
}

/** The idle timer of one kit; `touch` on every message from the daemon. */
export class IdleTrim {
  #timer: NodeJS.Timeout | undefined;
  #trimmed = 0;

  /**
   * @param office the kit's LibreOffice (trimMemory is skipped when it lacks the call)
   * @param idleMs idle time before a trim (ms); 0 turns trimming off
   * @param log where a trim is reported (RSS before and after, MB)
   * @param busy true while a job runs or a document is open: the trim waits for another idle period
   */
  constructor(
    private readonly office: OfficeHandle,
    private readonly idleMs: number,
    private readonly log: (line: string) => void,
    private readonly busy: () => boolean = () => false,
  ) {}

  /** How many trims ran so far. */
  get trims(): number {
    return this.#trimmed;
  }

  /** Activity: restarts the idle period. */
  touch(): void {
    if (this.idleMs <= 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => (this.busy() ? this.touch() : void this.trimNow()), this.idleMs);
    this.#timer.unref();
  }

  /** Trims at once (the timer's action); false when this LibreOffice has no trimMemory. */
  trimNow(): boolean {
    let has = false;
    try {
      has = this.office.office.optionalCalls().includes('trimMemory');
    } catch {
      // An addon without optional calls.
    }
    if (!has) return false;
    const before = rssBytes();
    this.office.office.trimMemory(TRIM_TARGET);
    this.#trimmed++;
    this.log(
      `kit: idle for ${Math.round(this.idleMs / 1000)} s, trimmed memory: RSS ${(before / 2 ** 20).toFixed(0)} -> ${(rssBytes() / 2 ** 20).toFixed(0)} MB`,
    );
    return true;
  }

  /** Stops the timer (the kit is leaving). */
  stop(): void {
    clearTimeout(this.#timer);
  }
}

/**
 * An editing kit's idle time before a trim when ODE_KIT_TRIM_EDIT_IDLE_MS is not set (ms): a document with no input
 * or request for a minute gives back what LibreOffice can rebuild, as Collabora's kit does for an inactive
 * document (measured: about 7 MB of a kit with one small docx, and the next keys as quick as before;
 * docs/benchmarks.md, "Footprint").
 */
export const DEFAULT_TRIM_EDIT_IDLE_MS = 60_000;

/** The idle time of an editing kit from ODE_KIT_TRIM_EDIT_IDLE_MS (ms, 0 = off), or {@link DEFAULT_TRIM_EDIT_IDLE_MS}. */
export function trimEditIdleMs(env: NodeJS.ProcessEnv): number {
  return msFrom(env.ODE_KIT_TRIM_EDIT_IDLE_MS, DEFAULT_TRIM_EDIT_IDLE_MS);
}

function msFrom(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** The idle time from ODE_KIT_TRIM_IDLE_MS (ms, 0 = off), or {@link DEFAULT_TRIM_IDLE_MS}. */
export function trimIdleMs(env: NodeJS.ProcessEnv): number {
  return msFrom(env.ODE_KIT_TRIM_IDLE_MS, DEFAULT_TRIM_IDLE_MS);
}
