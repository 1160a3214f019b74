/**
 * Turns a backend listener (subscribe returning unsubscribe) into an async iterable for tRPC v11 subscriptions;
 * ends when `signal` aborts (the client unsubscribed or disconnected).
 */
import type { Unsubscribe } from '../backend.ts';

/** Yields every value `subscribe` delivers until `signal` aborts; values are buffered while the consumer is busy. */
export async function* listen<T>(subscribe: (fn: (value: T) => void) => Unsubscribe, signal: AbortSignal | undefined): AsyncGenerator<T> {
  const buffer: T[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = subscribe((value) => {
    buffer.push(value);
    wake?.();
  });
  const aborted = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
  try {
    while (!signal?.aborted) {
      if (buffer.length === 0) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
      wake = undefined;
      while (buffer.length > 0) yield buffer.shift()!;
    }
  } finally {
    unsubscribe();
  }
}

/** Yields `sample()` at once and then every `intervalMs` until `signal` aborts. */
export async function* every<T>(intervalMs: number, sample: () => Promise<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  while (!signal?.aborted) {
    yield await sample();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, intervalMs);
      signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
}
