import { createReportSchema, reportIdSchema } from '../../../shared/reports';
import { accountProcedure, router } from '../../trpc/trpc';

export const reportsRouter = router({
  /** "Save as report": answers at once with the Pending file; it is generated in the background. */
  create: accountProcedure
    .input(createReportSchema)
    .mutation(({ ctx, input }) => ctx.services.reports.create(ctx.account, input)),
  progress: accountProcedure
    .input(reportIdSchema)
    .query(({ ctx, input }) => ctx.services.reports.progress(ctx.account, input.id)),
});
