import { bugReportSchema } from '../../../shared/feedback';
import { publicProcedure, router } from '../../trpc/trpc';

export const feedbackRouter = router({
  bugReport: publicProcedure
    .input(bugReportSchema)
    .mutation(({ ctx, input }) => ctx.services.feedback.createBugReport(ctx, input)),
});
