/** `config`: the effective configuration; validated edits of the CSP, post_allow and WOPI host lists. */
import { z } from 'zod';
import { adminProcedure, router } from '../trpc.ts';

const list = z.array(z.string()).max(1000);
const edit = z.discriminatedUnion('key', [
  z.object({ key: z.literal('contentSecurityPolicy'), value: z.string().max(8192) }),
  z.object({ key: z.literal('frameAncestors'), value: list }),
  z.object({ key: z.literal('postAllowHosts'), value: list }),
  z.object({ key: z.literal('wopiHosts'), value: list }),
]);

/** `config.get`, `config.edit` (EditableConfig keys; AdminError invalid_config / no_config_file / config_write_failed). */
export const configRouter = router({
  /** The configuration in force (EffectiveConfig). */
  get: adminProcedure.query(({ ctx }) => ctx.backend.config()),
  /** Validates, writes back to the file and applies live; a bad edit is refused (BAD_REQUEST, adminCode invalid_config). */
  edit: adminProcedure.input(edit).mutation(({ ctx, input }) => ctx.backend.editConfig(input)),
});
