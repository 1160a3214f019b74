/**
 * The kit's side of its IPC channel with the daemon (daemon/protocol/kit.md): sending a message and answering a
 * request. Shared by the LibreOffice kit (main.ts) and the fake kit (fake/main.ts).
 */
import type { KitOk, KitRequest, KitResultMap, KitToDaemon } from '../protocol/kit.ts';

/** Sends a message to the daemon; resolves once it is handed to the IPC channel (at once without a channel). */
export function send(msg: KitToDaemon): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(msg, undefined, undefined, () => resolve());
  });
}

/**
 * Answers request `req` (kit.md `result`, its `id` echoed) with what `work` returns, typed by the request
 * (KitResultMap), and its duration (`ms`, wall clock), or, when it throws, with its error's `code` (`internal`
 * without one) and message. Never throws.
 */
export async function answer<R extends KitRequest>(req: R, work: () => Promise<KitResultMap[R['type']]>): Promise<void> {
  const started = performance.now();
  try {
    const result = await work();
    await send({ type: 'result', id: req.id, ok: true, ms: performance.now() - started, ...result } as KitOk<R['type']>);
  } catch (e) {
    const err = e as Error & { code?: string };
    await send({ type: 'result', id: req.id, ok: false, error: { code: err.code ?? 'internal', message: err.message } });
  }
}
