/**
 * When a document saves by itself (issue 4, "Saving"): `idle` fires `idleMs` after the last change, `auto`
 * every `autoMs` while the document stays modified. Explicit, exit and shutdown saves are the document's own.
 */
export class SaveScheduler {
  private idleTimer: NodeJS.Timeout | undefined;
  private autoTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly autoMs: number,
    private readonly fire: (kind: 'idle' | 'auto') => void,
  ) {}

  /** A change was made: restart the idle timer; start the autosave clock if it is not running. */
  changed(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.fire('idle'), this.idleMs);
    this.idleTimer.unref();
    if (!this.autoTimer) {
      this.autoTimer = setInterval(() => this.fire('auto'), this.autoMs);
      this.autoTimer.unref();
    }
  }

  /** The document was saved and is unmodified: nothing is due. */
  saved(): void {
    clearTimeout(this.idleTimer);
    clearInterval(this.autoTimer);
    this.idleTimer = undefined;
    this.autoTimer = undefined;
  }

  /** Stops every timer (the document closes). */
  stop(): void {
    this.saved();
  }
}
