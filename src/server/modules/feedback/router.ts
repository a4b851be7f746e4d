import { bugReportSchema } from '../../../shared/feedback';
import { publicProcedure, router } from '../../trpc/trpc';

export const feedbackRouter = router({
  // Public so that admit() answers a signed-out caller with the report's own 401 message.
  bugReport: publicProcedure.input(bugReportSchema).mutation(({ ctx, input }) => {
    const reporter = ctx.services.feedback.admit({ user: ctx.user, clientKey: ctx.clientKey });
    return ctx.services.feedback.createBugReport(reporter, input);
  }),
});
