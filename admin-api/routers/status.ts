/** `status`: version, uptime, kits, memory and CPU, queue, failures; `status.live` repeats it every intervalMs. */
import { z } from 'zod';
import { adminProcedure, router } from '../trpc.ts';
import { every } from './listen.ts';

/** `status.get` (ServerStatus) and `status.live` (a subscription repeating it). */
export const statusRouter = router({
  /** The daemon at a glance (ServerStatus). */
  get: adminProcedure.query(({ ctx }) => ctx.backend.status()),
  /** ServerStatus now and every `intervalMs` (default 2000 ms, 250-60000). */
  live: adminProcedure
    .input(z.object({ intervalMs: z.number().int().min(250).max(60_000).default(2000) }).prefault({}))
    .subscription(({ ctx, input, signal }) => every(input.intervalMs, () => ctx.backend.status(), signal)),
});
