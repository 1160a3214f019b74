/**
 * Keeps LibreOffice's input in the order the user gave it. LibreOfficeKit posts key and mouse events and (25.2) text
 * input and UNO commands to LibreOffice's main loop, which runs them later, first-in first-out; other calls (paste,
 * getTextSelection, setTextSelection, setPart, saveAs) run at once on the calling thread. So a word pasted after
 * arrow keys could land where the cursor was before them, a copy could read the selection before the last
 * Shift+arrow, and a snapshot could miss the last keys. A synchronous call therefore waits until the input posted
 * before it has been processed, and the input after it queues behind it. Two ways to know "processed":
 *
 * - `fence` (the default): an input fence (LokDocument.postInputFence, daemon/native/src/input-fence.cc), one more
 *   event posted behind the input, which LibreOffice's main loop runs after everything posted before it. The wait
 *   is exactly as long as LibreOffice needs, loaded machine or not; FENCE_MAX_MS only bounds a main loop that
 *   never comes back. Posted input is not first-in first-out either when it queues more events as it runs: a
 *   Writer arrow key, End or Backspace runs as a key event that posts its command (the accelerator's dispatch), so
 *   text posted after the arrow runs before the cursor moved (measured: test/kit-editing/input-order-probe.ts).
 *   Such input is `deep`, and any input after it waits for a fence too.
 * - `timing` (the default for now, and when this LibreOffice has no fence): a guess from callbacks. Processed
 *   when LibreOffice has sent a callback since the last posted input and then been quiet for QUIET_MS, or after
 *   MAX_WAIT_MS without one. A loaded machine beats it (issues 16 and 17: a callback of an earlier key satisfies it
 *   while the last keys are still queued).
 */

/** How a LibreOfficeKit call waits for the posted input before it is made (see the module docstring). */
export type InputOrderMode = 'fence' | 'timing';

/**
 * Posts an input fence and calls `done` when LibreOffice's main loop ran it; false when no fence can be posted
 * (LokDocument.postInputFence).
 */
export type PostFence = (done: () => void) => boolean;

/**
 * Longest wait for an input fence (ms): only a main loop that does not come back (a LibreOffice hung in a long
 * operation) reaches it; the call then runs anyway, as the timing mode would have long before.
 */
export const FENCE_MAX_MS = 10_000;

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
  readonly mode: InputOrderMode;
  readonly #now: () => number;
  readonly #postFence: PostFence | undefined;
  #lastInputAt = Number.NEGATIVE_INFINITY;
  #callbackSinceInput = true;
  #lastCallbackAt = Number.NEGATIVE_INFINITY;
  /** Fence mode: inputs posted so far, how many of them a fence has seen processed, and the last deep one. */
  #postedCount = 0;
  #processedCount = 0;
  #lastDeep = 0;
  /** Fence mode: the fence in flight, if any (the count of posted inputs it follows). */
  #fenceFor: number | undefined;
  #fenceTimer: NodeJS.Timeout | undefined;
  #queue: Array<() => void> = [];
  /** Per queued call: does it run synchronously in LibreOffice (and so wait for posted input), or is it a barrier? */
  #queueSync: Array<boolean | 'barrier'> = [];
  #timer: NodeJS.Timeout | undefined;
  /** Holds in force (`hold`): nothing queued runs and every call queues. */
  #held = 0;

  /**
   * `postFence` given: the fence mode; without it the timing mode. `now` is the clock of the timing mode (ms).
   */
  constructor(now: () => number = () => performance.now(), postFence?: PostFence) {
    this.#now = now;
    this.#postFence = postFence;
    this.mode = postFence ? 'fence' : 'timing';
  }

  /**
   * An input LibreOffice queues on its main loop (key, mouse; in the fence mode also text and UNO commands) was just
   * made. `deep` (the fence mode): running it may queue more events (a named key's accelerator, a UNO command's
   * dispatch), so even posted input after it waits for a fence; text and character keys are shallow.
   */
  posted(deep = true): void {
    this.#lastInputAt = this.#now();
    this.#callbackSinceInput = false;
    this.#postedCount++;
    if (deep) this.#lastDeep = this.#postedCount;
  }

  /** LibreOffice sent a callback (of any view). */
  callbackArrived(): void {
    this.#callbackSinceInput = true;
    this.#lastCallbackAt = this.#now();
  }

  /** True while posted input may still be waiting in LibreOffice's main loop. */
  get pending(): boolean {
    return this.#pendingFor(false);
  }

  /** `pending`, with a barrier's longer limits when `barrier` (timing mode). */
  #pendingFor(barrier: boolean): boolean {
    if (this.#postFence) return this.#postedCount > this.#processedCount;
    const now = this.#now();
    const [maxWait, quiet] = barrier ? [BARRIER_MAX_WAIT_MS, BARRIER_QUIET_MS] : [MAX_WAIT_MS, QUIET_MS];
    return now - this.#lastInputAt < maxWait && (!this.#callbackSinceInput || now - this.#lastCallbackAt < quiet);
  }

  #mustWait(kind: boolean | 'barrier'): boolean {
    // Fence mode: posted input waits only behind deep input (whose follow-up events it would overtake).
    if (kind === false) return this.#postFence !== undefined && this.#lastDeep > this.#processedCount;
    return this.#pendingFor(kind === 'barrier');
  }

  /**
   * Runs `fn` now when nothing waits and `synchronous` calls need no wait; otherwise queues it behind the calls
   * already waiting (queued input keeps its place too, so the order the user gave is the order LibreOffice sees).
   * `synchronous` false is posted input: it never waits in the timing mode, and waits behind deep input in the
   * fence mode.
   * `'barrier'`: a synchronous call that must follow every posted input (a save, a snapshot), with longer limits
   * in the timing mode (the fence mode waits the same for every synchronous call).
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
    clearTimeout(this.#fenceTimer);
    this.#timer = undefined;
    this.#fenceTimer = undefined;
    this.#queue = [];
    this.#queueSync = [];
  }

  #arm(): void {
    if (this.#postFence) {
      // Fence mode: the drain runs when a fence comes back (or on release), not on a clock.
      if (this.#held === 0 && !this.#timer) this.#timer = setTimeout(() => this.#drain(), 0);
      return;
    }
    if (!this.#timer) this.#timer = setTimeout(() => this.#drain(), POLL_MS);
  }

  /** Fence mode: posts a fence behind the input posted so far, unless one for all of it is in flight. */
  #fence(): void {
    if (this.#fenceFor === this.#postedCount) return;
    const upTo = this.#postedCount;
    const settle = () => {
      if (this.#fenceFor !== upTo) return; // a later fence took over
      clearTimeout(this.#fenceTimer);
      this.#fenceTimer = undefined;
      this.#fenceFor = undefined;
      this.#processedCount = Math.max(this.#processedCount, upTo);
      this.#drain();
    };
    this.#fenceFor = upTo;
    if (!this.#postFence!(settle)) {
      // No fence in this LibreOffice after all: nothing posted can be confirmed, so do not wait on it.
      this.#fenceFor = undefined;
      this.#processedCount = upTo;
      queueMicrotask(() => this.#drain());
      return;
    }
    clearTimeout(this.#fenceTimer);
    this.#fenceTimer = setTimeout(() => {
      process.stderr.write(`kit: input fence not back after ${FENCE_MAX_MS} ms: running the waiting call anyway\n`);
      settle();
    }, FENCE_MAX_MS);
  }

  #drain(): void {
    this.#timer = undefined;
    while (this.#queue.length > 0) {
      if (this.#held > 0) return;
      if (this.#mustWait(this.#queueSync[0])) {
        if (this.#postFence) return this.#fence();
        return this.#arm();
      }
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
