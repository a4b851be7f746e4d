import { byIdSchema } from '../../../shared/api';
import { fileListInputSchema, publicFileParamsSchema, shareInputSchema } from '../../../shared/files';
import { accountProcedure, publicProcedure, router } from '../../trpc/trpc';

/** The Reports page and the download pages; downloads themselves are plain GETs (rest.ts). */
export const filesRouter = router({
  list: accountProcedure
    .input(fileListInputSchema)
    .query(({ ctx, input }) => ctx.services.files.list(ctx.account, input)),
  get: accountProcedure.input(byIdSchema).query(({ ctx, input }) => ctx.services.files.get(ctx.account, input.id)),
  delete: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.files.remove(ctx.account, input.id)),
  share: accountProcedure
    .input(shareInputSchema)
    .mutation(({ ctx, input }) => ctx.services.files.share(ctx.account, input.id, input)),
  shared: accountProcedure
    .input(byIdSchema)
    .query(({ ctx, input }) => ctx.services.files.shared(ctx.account, input.id)),
  revoke: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.files.revoke(ctx.account, input.id)),
  /** The public page's check before it downloads (no session; counts nothing). */
  publicFile: publicProcedure
    .input(publicFileParamsSchema)
    .query(({ ctx, input }) => ctx.services.files.publicFile(input.id)),
});
