import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Polls GET /health every `everyMs` for the whole run (concurrently with the cases) and records each answer's
 * latency, so the suite can say /health stayed responsive throughout.
 *
 * The test process is also the daemon's, so a slow poll has two possible causes: the event loop was blocked (work
 * of the daemon or the test ran synchronously for that long: a defect) or the process was not scheduled (the
 * machine: on the 2-core CI machines at load 20 stalls of 6-13 s were measured with the engine idle,
 * docs/reliability.md). The event loop's delay is recorded beside the latencies to tell them apart.
 */
export class HealthWatch {
  readonly latencies: number[] = [];
  readonly failures: string[] = [];
  /** Polls slower than 1 s: when (ms since start) and how long (ms). */
  readonly stalls: Array<{ atMs: number; ms: number }> = [];
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly loopDelay: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  private readonly t0 = performance.now();

  /**
   * @param url the daemon's base URL.
   * @param everyMs pause between polls, ms.
   * @param timeoutMs a poll with no answer by then is a failure, ms: longer than the scheduler's stalls measured on
   *   the CI machines (13 s), so a failure means the daemon stopped answering, not that the machine was busy.
   */
  constructor(
    private readonly url: string,
    private readonly everyMs = 50,
    private readonly timeoutMs = 20_000,
  ) {}

  start(): void {
    this.loopDelay.enable();
    this.loop = (async () => {
      while (!this.stopped) {
        const t0 = performance.now();
        try {
          const res = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(this.timeoutMs) });
          await res.arrayBuffer();
          if (res.status !== 200) this.failures.push(`status ${res.status}`);
        } catch (e) {
          this.failures.push(`${(e as Error).message} at ${Math.round(t0 - this.t0)} ms`);
        }
        const ms = performance.now() - t0;
        this.latencies.push(ms);
        if (ms > 1000) this.stalls.push({ atMs: Math.round(t0 - this.t0), ms: Math.round(ms) });
        await new Promise((r) => setTimeout(r, this.everyMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    this.loopDelay.disable();
  }

  /** The latency at quantile `q` (0..1), ms. */
  quantile(q: number): number {
    const s = [...this.latencies].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  }

  /** The longest the process's event loop was late over the run, ms (a blocked loop, or the process not scheduled). */
  get loopDelayMaxMs(): number {
    return this.loopDelay.max / 1e6;
  }
}
