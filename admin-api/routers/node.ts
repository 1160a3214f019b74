/** `node`: this node's place behind a load balancer; `node.drain` takes it out of service (docs/deploy/cluster.md). */
import { z } from 'zod';
import { adminProcedure, router } from '../trpc.ts';

/** `node.drain` (DrainInfo): resolves once every open document is saved, uploaded and moved. */
export const nodeRouter = router({
  /** Refuse new documents, save and move the open ones; `exit` (default true): the daemon stops once drained. */
  drain: adminProcedure.input(z.object({ exit: z.boolean().default(true) }).prefault({})).mutation(({ ctx, input }) => ctx.backend.drain(input.exit)),
});
