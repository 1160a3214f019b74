/**
 * The kit's side of its IPC channel with the daemon (daemon/protocol/kit.md): sending a message and answering a
 * request. Shared by the LibreOffice kit (main.ts) and the fake kit (fake/main.ts).
 */
import type { KitResult, KitToDaemon } from '../protocol/kit.ts';

/** A successful result's own fields: what a request's work returns (the envelope is added by `answer`). */
export type ResultFields = Omit<Extract<KitResult, { ok: true }>, 'type' | 'id' | 'ok' | 'ms'>;

/** Sends a message to the daemon; resolves once it is handed to the IPC channel (at once without a channel). */
export function send(msg: KitToDaemon): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(msg, undefined, undefined, () => resolve());
  });
}

/**
 * Answers request `id` (kit.md `result`) with what `work` returns and its duration (`ms`, wall clock), or, when it
 * throws, with its error's `code` (`internal` without one) and message. Never throws.
 */
export async function answer(id: number, work: () => Promise<ResultFields>): Promise<void> {
  const started = performance.now();
  try {
    const result = await work();
    await send({ type: 'result', id, ok: true, ms: performance.now() - started, ...result });
  } catch (e) {
    const err = e as Error & { code?: string };
    await send({ type: 'result', id, ok: false, error: { code: err.code ?? 'internal', message: err.message } });
  }
}
