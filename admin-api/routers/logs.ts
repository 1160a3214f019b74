/** `logs`: recent lines, and a live subscription, filtered by level. */
import { z } from 'zod';
import type { LogLevel, LogLine } from '../backend.ts';
import { adminProcedure, router } from '../trpc.ts';
import { listen } from './listen.ts';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const satisfies readonly LogLevel[];
const level = z.enum(LEVELS).default('info');

/** True when `line` is at or above `min`. */
function atLeast(line: LogLine, min: LogLevel): boolean {
  return LEVELS.indexOf(line.level) >= LEVELS.indexOf(min);
}

/** `logs.recent` (LogLine[], oldest first) and `logs.follow` (subscription), both filtered by minimum level. */
export const logsRouter = router({
  /** The most recent lines, oldest first. */
  recent: adminProcedure
    .input(z.object({ limit: z.number().int().min(1).max(5000).default(200), level }).prefault({}))
    .query(({ ctx, input }) => ctx.backend.logs(input.limit, input.level)),
  /** Every new line at or above `level`. */
  follow: adminProcedure.input(z.object({ level }).prefault({})).subscription(async function* ({ ctx, input, signal }) {
    for await (const line of listen(ctx.backend.onLog.bind(ctx.backend), signal)) if (atLeast(line, input.level)) yield line;
  }),
});
