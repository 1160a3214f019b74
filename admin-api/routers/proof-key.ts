/** `proofKey`: the WOPI proof key's fingerprint and dates; rotate (the current key becomes the old one). */
import { adminProcedure, router } from '../trpc.ts';

/** `proofKey.get` and `proofKey.rotate` (ProofKeyInfo; times in ms since the epoch). */
export const proofKeyRouter = router({
  get: adminProcedure.query(({ ctx }) => ctx.backend.proofKey()),
  rotate: adminProcedure.mutation(({ ctx }) => ctx.backend.rotateProofKey()),
});
