/** `documents`: the open documents and their views; save, close, kill the kit; live document events. */
import { z } from 'zod';
import { adminProcedure, router } from '../trpc.ts';
import { listen } from './listen.ts';

const byId = z.object({ id: z.string().min(1) });

/** `documents.list`, `.save`, `.close`, `.killKit` (AdminError not_found / save_failed), `.recovery`, `.events` (subscription). */
export const documentsRouter = router({
  /** The open documents (DocumentInfo[]). */
  list: adminProcedure.query(({ ctx }) => ctx.backend.documents()),
  /** Saves the document now and uploads it. */
  save: adminProcedure.input(byId).mutation(({ ctx, input }) => ctx.backend.saveDocument(input.id)),
  /** Saves the document when modified, then closes it and its views. */
  close: adminProcedure.input(byId).mutation(async ({ ctx, input }) => {
    await ctx.backend.closeDocument(input.id);
    return { closed: true };
  }),
  /** Kills a stuck kit (SIGKILL). */
  killKit: adminProcedure.input(z.object({ pid: z.number().int().positive() })).mutation(async ({ ctx, input }) => {
    await ctx.backend.killKit(input.pid);
    return { killed: true };
  }),
  /** Copies of edits the host does not have yet (RecoveryCopyInfo[]: after a crash, a refused upload). */
  recovery: adminProcedure.query(({ ctx }) => ctx.backend.recoveryCopies()),
  /** Documents opening, changing and closing (DocumentEvent). */
  events: adminProcedure.subscription(({ ctx, signal }) => listen(ctx.backend.onDocumentEvent.bind(ctx.backend), signal)),
});
