import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idParamsSchema } from '../../../shared/api';
import { WEBHOOK_LIMITS } from '../../../shared/limits';
import {
  createDefinitionSchema,
  createIntegrationSchema,
  saveDatasetsSchema,
  saveScheduleSchema,
  saveSettingsSchema,
  triggerFullRefreshSchema,
} from '../../../shared/integrations';
import {
  datasetsResponseSchema,
  integrationDefinitionSchema,
  integrationSchema,
  jobLogsParamsSchema,
  jobSchema,
  jobStatusSchema,
  jobsPageSchema,
  jobsSpecQuerySchema,
  recordsPerDayQuerySchema,
  recordsPerDaySchema,
  runLogSchema,
  runSchema,
  webhookBodySchema,
  webhookParamsSchema,
  webhookReceivedSchema,
} from '../../../shared/integrations-api';
import type { Deps } from '../../context';
import { endpoint, type AnswerDoc } from '../../http/endpoint';
import type { Services } from '../../services';
import { sizeText } from '../../warehouse/csv-file';

const tag = 'Integrations';
const INTEGRATION: Record<number, AnswerDoc> = { 200: { description: 'The integration.', json: integrationSchema } };
const DATASETS: Record<number, AnswerDoc> = {
  200: { description: 'The datasets and the state of their discovery.', json: datasetsResponseSchema },
};
const RUN: Record<number, AnswerDoc> = { 200: { description: 'The run, queued.', json: runSchema } };

/** The spec's integration calls (data-areas.md §7 Integrations), thin adapters over the service. */
export function registerIntegrationsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const integrations = services.integrations;

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integration_definitions',
      summary: 'The integration definitions: public ones and custom ones',
      tag,
      access: 'account',
      answers: { 200: { description: 'The definitions.', json: z.array(integrationDefinitionSchema) } },
    },
    async ({ ctx }) => integrations.listDefinitions(ctx),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integration_definitions/{id}',
      summary: 'One integration definition with its versions',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: { 200: { description: 'The definition.', json: integrationDefinitionSchema } },
    },
    async ({ ctx, params }) => integrations.getDefinition(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/integration_definitions',
      summary: 'Add a custom integration definition (global admins)',
      tag,
      access: 'account',
      body: createDefinitionSchema,
      answers: { 201: { description: 'The new definition.', json: integrationDefinitionSchema } },
    },
    async ({ ctx, body }) => integrations.createDefinition(ctx, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integrations',
      summary: 'The integrations of the account',
      tag,
      access: 'account',
      answers: { 200: { description: 'The integrations.', json: z.array(integrationSchema) } },
    },
    async ({ ctx }) => integrations.list(ctx),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/integrations',
      summary: 'Create an integration: its connection is checked, then its datasets are discovered',
      tag,
      access: 'account',
      body: createIntegrationSchema,
      errors: [409],
      answers: { 201: { description: 'The new integration.', json: integrationSchema } },
    },
    async ({ ctx, body }) => integrations.create(ctx, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integrations/stats/records-per-day',
      summary: 'Records processed per UTC day, today included',
      tag,
      access: 'account',
      query: recordsPerDayQuerySchema,
      answers: { 200: { description: 'One entry a day, oldest first.', json: z.array(recordsPerDaySchema) } },
    },
    async ({ ctx, query }) => integrations.recordsPerDay(ctx, query),
  );

  // No session: the unguessable token in the address is the credential. The body has a limit of its
  // own (WEBHOOK_LIMITS), named in the 413; other errors go on to the app's error handler.
  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/integrations/webhook/{token}',
      summary: "A webhook integration's incoming address: records to append",
      description: 'No session: the token in the address is the credential.',
      tag,
      access: 'public',
      params: webhookParamsSchema,
      body: webhookBodySchema,
      errors: [413],
      answers: { 200: { description: 'The records were stored.', json: webhookReceivedSchema } },
      options: {
        bodyLimit: WEBHOOK_LIMITS.maxBodyBytes,
        errorHandler: (error: FastifyError, _req, reply) => {
          if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
          return reply.status(413).send({
            message: `The body is over the limit of ${sizeText(WEBHOOK_LIMITS.maxBodyBytes)} for one webhook call. Send the records in several calls.`,
          });
        },
      },
    },
    async ({ params, body }) => integrations.webhook(params.token, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integrations/{id}',
      summary: 'One integration (secrets masked)',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: INTEGRATION,
    },
    async ({ ctx, params }) => integrations.get(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/integrations/{id}',
      summary: "Save an integration's name and configuration; a masked secret keeps its value",
      tag,
      access: 'account',
      params: idParamsSchema,
      body: saveSettingsSchema,
      answers: INTEGRATION,
    },
    async ({ ctx, params, body }) => integrations.saveSettings(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: '/api/integrations/{id}',
      summary: 'Delete an integration and its data',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: { 204: { description: 'Deleted.' } },
    },
    async ({ ctx, params }) => integrations.remove(ctx, params.id),
  );

  // Not in the spec: a new webhook token or incoming e-mail address; the old one stops working.
  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/integrations/{id}/rotate-address',
      summary: 'A new webhook address or incoming e-mail address; the old one stops working',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: INTEGRATION,
    },
    async ({ ctx, params }) => integrations.rotateAddress(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/integrations/{id}/refresh-dataset',
      summary: 'Discover the datasets again',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: DATASETS,
    },
    async ({ ctx, params }) => integrations.refreshDatasets(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integrations/{id}/datasets',
      summary: 'The datasets of an integration',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: DATASETS,
    },
    async ({ ctx, params }) => integrations.datasets(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/integrations/{id}/datasets',
      summary: 'Save the choices per dataset: selection, properties, sync and ingestion types',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: saveDatasetsSchema,
      answers: DATASETS,
    },
    async ({ ctx, params, body }) => integrations.saveDatasets(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/integrations/{id}/schedule',
      summary: 'Save the sync schedule and the Data syncing toggle',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: saveScheduleSchema,
      answers: INTEGRATION,
    },
    async ({ ctx, params, body }) => integrations.saveSchedule(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/integrations/{id}/trigger',
      summary: 'Sync data now',
      tag,
      access: 'account',
      params: idParamsSchema,
      errors: [409],
      answers: RUN,
    },
    async ({ ctx, params }) => integrations.trigger(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/integrations/{id}/trigger-full-refresh',
      summary: 'Refresh all data of some datasets',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: triggerFullRefreshSchema,
      errors: [409],
      answers: RUN,
    },
    async ({ ctx, params, body }) => integrations.triggerFullRefresh(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integrations/{id}/jobs',
      summary: 'The runs of an integration with their attempts, paged, filtered by status and sorted',
      tag,
      access: 'account',
      params: idParamsSchema,
      query: jobsSpecQuerySchema,
      answers: { 200: { description: 'A page of runs.', json: jobsPageSchema } },
    },
    async ({ ctx, params, query }) => integrations.jobs(ctx, params.id, query),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integrations/{id}/jobs/{jobId}',
      summary: 'One run with its attempts and the progress of each dataset',
      tag,
      access: 'account',
      params: jobLogsParamsSchema,
      answers: { 200: { description: 'The run.', json: jobSchema } },
    },
    async ({ ctx, params }) => integrations.job(ctx, params.id, params.jobId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integrations/{id}/jobs/{jobId}/logs',
      summary: "A run's log lines",
      tag,
      access: 'account',
      params: jobLogsParamsSchema,
      answers: { 200: { description: 'Oldest first.', json: z.array(runLogSchema) } },
    },
    async ({ ctx, params }) => integrations.logs(ctx, params.id, params.jobId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/integrations/{id}/job_status',
      summary: "What 'Sync data now' polls: the latest run and whether a sync runs or waits",
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: { 200: { description: 'The status.', json: jobStatusSchema } },
    },
    async ({ ctx, params }) => integrations.jobStatus(ctx, params.id),
  );
}
