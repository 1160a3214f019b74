/**
 * Polls GET /health every `everyMs` for the whole run (concurrently with the cases) and records each answer's
 * latency, so the suite can say /health stayed responsive throughout.
 */
export class HealthWatch {
  readonly latencies: number[] = [];
  readonly failures: string[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly everyMs = 50,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const t0 = performance.now();
        try {
          const res = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(5000) });
          await res.arrayBuffer();
          if (res.status !== 200) this.failures.push(`status ${res.status}`);
        } catch (e) {
          this.failures.push((e as Error).message);
        }
        this.latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, this.everyMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** The latency at quantile `q` (0..1), ms. */
  quantile(q: number): number {
    const s = [...this.latencies].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  }
}
