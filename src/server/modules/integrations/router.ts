import { z } from 'zod';
import { accountProcedure, router } from '../../trpc/trpc';

const byId = z.object({ id: z.string().min(1).max(100) });

/** Inputs are checked by the service's schemas; here they pass through typed loosely. */
export const integrationsRouter = router({
  definitions: accountProcedure.query(({ ctx }) => ctx.services.integrations.listDefinitions(ctx.account)),
  definition: accountProcedure
    .input(byId)
    .query(({ ctx, input }) => ctx.services.integrations.getDefinition(ctx.account, input.id)),
  createDefinition: accountProcedure
    .input(z.record(z.string(), z.unknown()))
    .mutation(({ ctx, input }) => ctx.services.integrations.createDefinition(ctx.account, input)),

  list: accountProcedure.query(({ ctx }) => ctx.services.integrations.list(ctx.account)),
  get: accountProcedure.input(byId).query(({ ctx, input }) => ctx.services.integrations.get(ctx.account, input.id)),
  create: accountProcedure
    .input(z.record(z.string(), z.unknown()))
    .mutation(({ ctx, input }) => ctx.services.integrations.create(ctx.account, input)),
  saveSettings: accountProcedure
    .input(byId.extend({ name: z.string().optional(), configuration: z.record(z.string(), z.unknown()).optional() }))
    .mutation(({ ctx, input }) => ctx.services.integrations.saveSettings(ctx.account, input.id, input)),
  rotateAddress: accountProcedure
    .input(byId)
    .mutation(({ ctx, input }) => ctx.services.integrations.rotateAddress(ctx.account, input.id)),
  delete: accountProcedure
    .input(byId)
    .mutation(({ ctx, input }) => ctx.services.integrations.remove(ctx.account, input.id)),

  refreshDatasets: accountProcedure
    .input(byId)
    .mutation(({ ctx, input }) => ctx.services.integrations.refreshDatasets(ctx.account, input.id)),
  datasets: accountProcedure
    .input(byId)
    .query(({ ctx, input }) => ctx.services.integrations.datasets(ctx.account, input.id)),
  saveDatasets: accountProcedure
    .input(byId.extend({ datasets: z.record(z.string(), z.unknown()) }))
    .mutation(({ ctx, input }) => ctx.services.integrations.saveDatasets(ctx.account, input.id, input)),
  saveSchedule: accountProcedure
    .input(byId.extend({ status: z.string().optional(), schedule: z.unknown().optional() }))
    .mutation(({ ctx, input }) => ctx.services.integrations.saveSchedule(ctx.account, input.id, input)),
  trigger: accountProcedure
    .input(byId)
    .mutation(({ ctx, input }) => ctx.services.integrations.trigger(ctx.account, input.id)),
  triggerFullRefresh: accountProcedure
    .input(byId.extend({ datasets: z.array(z.string()) }))
    .mutation(({ ctx, input }) => ctx.services.integrations.triggerFullRefresh(ctx.account, input.id, input)),
  jobs: accountProcedure
    .input(
      byId.extend({
        page: z.number().optional(),
        pageSize: z.number().optional(),
        status: z.array(z.string()).optional(),
        sortBy: z.string().optional(),
        sortDirection: z.string().optional(),
      }),
    )
    .query(({ ctx, input }) => ctx.services.integrations.jobs(ctx.account, input.id, input)),
  logs: accountProcedure
    .input(byId.extend({ jobId: z.string().min(1).max(100) }))
    .query(({ ctx, input }) => ctx.services.integrations.logs(ctx.account, input.id, input.jobId)),
  jobStatus: accountProcedure
    .input(byId)
    .query(({ ctx, input }) => ctx.services.integrations.jobStatus(ctx.account, input.id)),
  recordsPerDay: accountProcedure
    .input(z.object({ days: z.number().int().min(1).max(366).optional() }))
    .query(({ ctx, input }) => ctx.services.integrations.recordsPerDay(ctx.account, input.days)),
});
