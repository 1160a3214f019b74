/**
 * The one place that calls initTRPC (tRPC v11). Every procedure maps an AdminError to a tRPC error whose
 * `data.adminCode` and `data.problems` carry the stable code and the reasons (docs/admin-api.md).
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { AdminError, type AdminErrorCode } from './backend.ts';
import type { AdminContext } from './context.ts';

const TRPC_CODE: Record<AdminErrorCode, TRPCError['code']> = {
  not_found: 'NOT_FOUND',
  invalid_config: 'BAD_REQUEST',
  no_config_file: 'PRECONDITION_FAILED',
  config_write_failed: 'INTERNAL_SERVER_ERROR',
  save_failed: 'CONFLICT',
  updates_not_configured: 'PRECONDITION_FAILED',
};

const t = initTRPC.context<AdminContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause instanceof AdminError ? error.cause : undefined;
    return { ...shape, data: { ...shape.data, adminCode: cause?.code ?? null, problems: cause?.problems ?? [] } };
  },
});

/** Turns a backend AdminError into a TRPCError with the matching code (the AdminError is its cause). */
const adminErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AdminError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
  }
  return result;
});

/** Builds a router. */
export const router = t.router;
/** A procedure of the admin API: callers are authenticated by the listener (admin token) before they get here. */
export const adminProcedure = t.procedure.use(adminErrors);
/** Builds a server-side caller factory (tests: `createCallerFactory(appRouter)(createContextInner(backend))`). */
export const createCallerFactory = t.createCallerFactory;
