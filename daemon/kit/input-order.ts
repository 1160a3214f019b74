/**
 * Keeps LibreOffice's input in the order the user gave it. LibreOfficeKit 7.4 posts key and mouse events to
 * LibreOffice's main loop (postKeyEventAsync, postMouseEventAsync: they run later), while text input
 * (postWindowExtTextInputEvent), postUnoCommand, paste, getTextSelection and `.uno:Save` run at once on the calling
 * thread. So a word typed after arrow keys could land in the cell the cursor left, Ctrl+B sent as `.uno:Bold`
 * after Shift+Ctrl+Left could bold nothing, a save could store the document without the last keys, and a copy
 * could read the selection before the last Shift+arrow. This orders them: a synchronous call waits until the
 * posted input has been processed, which is taken to be when LibreOffice has sent a callback since the last input
 * (it invalidates, moves the cursor or the selection) and then been quiet for QUIET_MS, or, for input without a visible effect, after MAX_WAIT_MS.
 */

/**
 * Longest wait for posted input without any callback (ms): keys with no visible effect (an arrow at the end of the
 * text). 60 ms was beaten on a loaded machine (load 10+ on 2 cores): an End key was still queued when the text typed
 * after it ran, so the text landed at the line start. Named keys nearly always call back at once (the cursor moves),
 * so the longer limit costs only after keys that change nothing.
 */
export const MAX_WAIT_MS = 200;
/**
 * How long LibreOffice's callbacks must have been quiet (ms) before posted input counts as processed: the first
 * callback may come while the rest of the posted events are still running (and they switch LibreOffice's current
 * view back to the view that posted them).
 */
const QUIET_MS = 8;
/**
 * Saves and snapshots (`run(fn, 'barrier')`) wait longer: the file must hold every key sent before it, and on a
 * loaded machine LibreOffice's main loop can be descheduled for longer than MAX_WAIT_MS or QUIET_MS while posted
 * keys are still queued (a drain's save lost the last word that way). A save is rare, so up to BARRIER_MAX_WAIT_MS
 * without any callback, and BARRIER_QUIET_MS of quiet after one, cost nothing a user notices.
 */
export const BARRIER_MAX_WAIT_MS = 1000;
const BARRIER_QUIET_MS = 50;
/** How often a waiting call checks again (ms). */
const POLL_MS = 2;

/** Posted-input bookkeeping and a FIFO of the calls that wait for it (one per document). */
export class InputOrder {
  #lastInputAt = Number.NEGATIVE_INFINITY;
  #callbackSinceInput = true;
  #lastCallbackAt = Number.NEGATIVE_INFINITY;
  #queue: Array<() => void> = [];
  /** Per queued call: does it run synchronously in LibreOffice (and so wait for posted input), or is it a barrier? */
  #queueSync: Array<boolean | 'barrier'> = [];
  #timer: NodeJS.Timeout | undefined;
  /** Holds in force (`hold`): nothing queued runs and every call queues. */
  #held = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** An asynchronous input (key, mouse) was just posted to LibreOffice. */
  posted(): void {
    this.#lastInputAt = this.now();
    this.#callbackSinceInput = false;
  }

  /** LibreOffice sent a callback (of any view). */
  callbackArrived(): void {
    this.#callbackSinceInput = true;
    this.#lastCallbackAt = this.now();
  }

  /** True while posted input may still be waiting in LibreOffice's main loop. */
  get pending(): boolean {
    return this.#pendingFor(false);
  }

  /** `pending`, with a barrier's longer limits when `barrier`. */
  #pendingFor(barrier: boolean): boolean {
    const now = this.now();
    const [maxWait, quiet] = barrier ? [BARRIER_MAX_WAIT_MS, BARRIER_QUIET_MS] : [MAX_WAIT_MS, QUIET_MS];
    return now - this.#lastInputAt < maxWait && (!this.#callbackSinceInput || now - this.#lastCallbackAt < quiet);
  }

  #mustWait(kind: boolean | 'barrier'): boolean {
    return kind !== false && this.#pendingFor(kind === 'barrier');
  }

  /**
   * Runs `fn` now when nothing waits and `synchronous` calls need no wait; otherwise queues it behind the calls
   * already waiting (queued input keeps its place too, so the order the user gave is the order LibreOffice sees).
   * `'barrier'`: a synchronous call that must follow every posted input (a save, a snapshot), with longer limits.
   */
  run(fn: () => void, synchronous: boolean | 'barrier'): void {
    if (this.#queue.length === 0 && this.#held === 0 && !this.#mustWait(synchronous)) return fn();
    this.#queue.push(fn);
    this.#queueSync.push(synchronous);
    this.#arm();
  }

  /**
   * Holds every later call (input included) until the returned release is called: a snapshot (EditSession
   * `exportDoc` with `inOrder`) is written while no input can reach LibreOffice, so it holds exactly the input
   * given before it. Releasing twice is harmless.
   */
  hold(): () => void {
    this.#held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held--;
      if (this.#held === 0 && this.#queue.length > 0) this.#arm();
    };
  }

  /** Drops every waiting call (the document closes). */
  clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
    this.#queueSync = [];
  }

  #arm(): void {
    if (!this.#timer) this.#timer = setTimeout(() => this.#drain(), POLL_MS);
  }

  #drain(): void {
    this.#timer = undefined;
    while (this.#queue.length > 0) {
      if (this.#held > 0) return;
      if (this.#mustWait(this.#queueSync[0])) return this.#arm();
      this.#queueSync.shift();
      const fn = this.#queue.shift()!;
      try {
        fn();
      } catch {
        // The call's own error handling is in `fn`; a failed input must not stop the ones behind it.
      }
    }
  }
}
