/** `updates`: the update check (spec: Update check), cached; `refresh` asks the update server again. */
import { z } from 'zod';
import { adminProcedure, router } from '../trpc.ts';

/** `updates.get` ({refresh}: UpdateInfo). */
export const updatesRouter = router({
  get: adminProcedure.input(z.object({ refresh: z.boolean().default(false) }).prefault({})).query(({ ctx, input }) => ctx.backend.updates(input.refresh)),
});
