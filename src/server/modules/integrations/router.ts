import { byIdSchema } from '../../../shared/api';
import { createDefinitionSchema, createIntegrationSchema } from '../../../shared/integrations';
import {
  jobLogsParamsSchema,
  jobsInputSchema,
  recordsPerDayQuerySchema,
  saveDatasetsInputSchema,
  saveScheduleInputSchema,
  saveSettingsInputSchema,
  triggerFullRefreshInputSchema,
} from '../../../shared/integrations-api';
import { accountProcedure, router } from '../../trpc/trpc';

export const integrationsRouter = router({
  definitions: accountProcedure.query(({ ctx }) => ctx.services.integrations.listDefinitions(ctx.account)),
  definition: accountProcedure
    .input(byIdSchema)
    .query(({ ctx, input }) => ctx.services.integrations.getDefinition(ctx.account, input.id)),
  createDefinition: accountProcedure
    .input(createDefinitionSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.createDefinition(ctx.account, input)),

  list: accountProcedure.query(({ ctx }) => ctx.services.integrations.list(ctx.account)),
  get: accountProcedure
    .input(byIdSchema)
    .query(({ ctx, input }) => ctx.services.integrations.get(ctx.account, input.id)),
  create: accountProcedure
    .input(createIntegrationSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.create(ctx.account, input)),
  saveSettings: accountProcedure
    .input(saveSettingsInputSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.saveSettings(ctx.account, input.id, input)),
  rotateAddress: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.rotateAddress(ctx.account, input.id)),
  delete: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.remove(ctx.account, input.id)),

  refreshDatasets: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.refreshDatasets(ctx.account, input.id)),
  datasets: accountProcedure
    .input(byIdSchema)
    .query(({ ctx, input }) => ctx.services.integrations.datasets(ctx.account, input.id)),
  saveDatasets: accountProcedure
    .input(saveDatasetsInputSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.saveDatasets(ctx.account, input.id, input)),
  saveSchedule: accountProcedure
    .input(saveScheduleInputSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.saveSchedule(ctx.account, input.id, input)),
  trigger: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.trigger(ctx.account, input.id)),
  triggerFullRefresh: accountProcedure
    .input(triggerFullRefreshInputSchema)
    .mutation(({ ctx, input }) => ctx.services.integrations.triggerFullRefresh(ctx.account, input.id, input)),
  jobs: accountProcedure
    .input(jobsInputSchema)
    .query(({ ctx, input }) => ctx.services.integrations.jobs(ctx.account, input.id, input)),
  job: accountProcedure
    .input(jobLogsParamsSchema)
    .query(({ ctx, input }) => ctx.services.integrations.job(ctx.account, input.id, input.jobId)),
  logs: accountProcedure
    .input(jobLogsParamsSchema)
    .query(({ ctx, input }) => ctx.services.integrations.logs(ctx.account, input.id, input.jobId)),
  jobStatus: accountProcedure
    .input(byIdSchema)
    .query(({ ctx, input }) => ctx.services.integrations.jobStatus(ctx.account, input.id)),
  recordsPerDay: accountProcedure
    .input(recordsPerDayQuerySchema)
    .query(({ ctx, input }) => ctx.services.integrations.recordsPerDay(ctx.account, input)),
});
