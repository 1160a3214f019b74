/**
 * The admin API's request context, split as the tRPC examples do: `createContextInner` builds what procedures
 * use (tests call procedures through `createCaller` with it, no HTTP); the listener's adapter context adds
 * nothing else, because authentication happens before a request reaches tRPC.
 */
import type { AdminBackend } from './backend.ts';

/** What every procedure sees. */
export interface AdminContext {
  backend: AdminBackend;
}

/** The context for `backend` (used by both the HTTP/WebSocket adapters and `createCaller`). */
export function createContextInner(backend: AdminBackend): AdminContext {
  return { backend };
}
