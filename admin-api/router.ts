/**
 * The admin API: one tRPC v11 router, one file per domain (routers/). The daemon mounts it on the admin
 * listener with its AdminBackend; the TUI imports only `type AppRouter`. docs/admin-api.md lists the procedures.
 */
import { router } from './trpc.ts';
import { statusRouter } from './routers/status.ts';
import { documentsRouter } from './routers/documents.ts';
import { configRouter } from './routers/config.ts';
import { proofKeyRouter } from './routers/proof-key.ts';
import { updatesRouter } from './routers/updates.ts';
import { logsRouter } from './routers/logs.ts';
import { nodeRouter } from './routers/node.ts';

/** The admin API's root router: status, documents, config, proofKey, updates, logs, node (docs/admin-api.md). */
export const appRouter = router({
  status: statusRouter,
  documents: documentsRouter,
  config: configRouter,
  proofKey: proofKeyRouter,
  updates: updatesRouter,
  logs: logsRouter,
  node: nodeRouter,
});

/** The router's type: the TUI's client is typed by it. */
export type AppRouter = typeof appRouter;
