import { latestRunsQuerySchema, rerunInputSchema, runListInputSchema } from '../../../shared/automation-runs-api';
import { definitionRefSchema, runRefSchema } from '../../../shared/automation-refs';
import { accountProcedure, router } from '../../trpc/trpc';

/** The automation run calls for the client; the same service as the REST paths. */
export const automationRunsRouter = router({
  trigger: accountProcedure
    .input(definitionRefSchema)
    .mutation(({ ctx, input }) => ctx.services.automationRuns.trigger(ctx.account, input.id)),
  list: accountProcedure
    .input(runListInputSchema)
    .query(({ ctx, input }) => ctx.services.automationRuns.list(ctx.account, input)),
  latest: accountProcedure
    .input(latestRunsQuerySchema)
    .query(({ ctx, input }) => ctx.services.automationRuns.latest(ctx.account, input)),
  get: accountProcedure
    .input(runRefSchema)
    .query(({ ctx, input }) => ctx.services.automationRuns.get(ctx.account, input.runId)),
  logs: accountProcedure
    .input(runRefSchema)
    .query(({ ctx, input }) => ctx.services.automationRuns.logs(ctx.account, input.runId)),
  rerun: accountProcedure
    .input(rerunInputSchema)
    .mutation(({ ctx, input }) => ctx.services.automationRuns.rerun(ctx.account, input.runId, input)),
  cancel: accountProcedure
    .input(runRefSchema)
    .mutation(({ ctx, input }) => ctx.services.automationRuns.cancel(ctx.account, input.runId)),
});
