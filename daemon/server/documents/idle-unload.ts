/**
 * The idle unload (issue 4: exit save on idle unload): a document that no view sent input to for
 * `documents.idle_unload_secs` is unloaded. This module only tells when; EditDocument unloads (exit save) and closes
 * the views.
 */

/** Watches one document's last input. */
export class IdleWatch {
  /** When a view last sent input or joined (ms since epoch). */
  private lastActivity = Date.now();
  private timer: NodeJS.Timeout | undefined;

  /** `live`: true while the document is live (an idle document is only unloaded then). */
  constructor(private readonly live: () => boolean) {}

  /** A view sent input or joined. */
  touch(): void {
    this.lastActivity = Date.now();
  }

  /**
   * Calls `onIdle` once, when `secs` (documents.idle_unload_secs; 0: never) passed without `touch` while the
   * document is live; checked every quarter of `secs` (1 to 60 s).
   */
  start(secs: number, onIdle: () => void): void {
    clearInterval(this.timer);
    if (secs <= 0) return;
    this.timer = setInterval(
      () => {
        if (!this.live() || Date.now() - this.lastActivity < secs * 1000) return;
        clearInterval(this.timer);
        onIdle();
      },
      Math.min(60, Math.max(1, secs / 4)) * 1000,
    );
    this.timer.unref();
  }

  /** Stops watching (the document closes). */
  stop(): void {
    clearInterval(this.timer);
  }
}
