import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { rerunSchema } from '../../../shared/automations';
import {
  automationLogLineSchema,
  automationRunDetailSchema,
  automationRunSchema,
  latestRunsQuerySchema,
  runListInputSchema,
} from '../../../shared/automation-runs-api';
import { definitionRefSchema, runRefSchema } from '../../../shared/automation-refs';
import type { Deps } from '../../context';
import { endpoint, type AnswerDoc } from '../../http/endpoint';
import type { Services } from '../../services';

const tag = 'Automations';
const RUN: Record<number, AnswerDoc> = { 200: { description: 'The run.', json: automationRunSchema } };

/** The spec's automation run calls (data-areas.md §7 Automations), thin adapters over services.automationRuns. */
export function registerAutomationRunsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const runs = services.automationRuns;

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/automations/definitions/{id}/trigger',
      summary: 'Run the automation now (as the caller)',
      description: 'Refused (400) while the definition has an error, 409 while a run of it has not ended.',
      tag,
      access: 'account',
      params: definitionRefSchema,
      answers: RUN,
      errors: [409],
    },
    async ({ ctx, params }) => runs.trigger(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/automations',
      summary: 'Runs of the account, most recent first (of one definition with ?automationDefinitionId)',
      tag,
      access: 'account',
      query: runListInputSchema,
      answers: { 200: { description: 'The runs.', json: z.array(automationRunSchema) } },
    },
    async ({ ctx, query }) => runs.list(ctx, query),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/automations/latest',
      summary: 'The latest run of each definition (of one with ?automationDefinitionId)',
      tag,
      access: 'account',
      query: latestRunsQuerySchema,
      answers: { 200: { description: 'The runs.', json: z.array(automationRunSchema) } },
    },
    async ({ ctx, query }) => runs.latest(ctx, query),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/automations/{runId}',
      summary: "One run with each step's status, inputs, output and attempts",
      tag,
      access: 'account',
      params: runRefSchema,
      answers: { 200: { description: 'The run.', json: automationRunDetailSchema } },
    },
    async ({ ctx, params }) => runs.get(ctx, params.runId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/automations/{runId}/rerun',
      summary: 'Run again: from the start, or from the failed step reusing the earlier outputs',
      tag,
      access: 'account',
      params: runRefSchema,
      body: rerunSchema,
      answers: RUN,
      errors: [409],
    },
    async ({ ctx, params, body }) => runs.rerun(ctx, params.runId, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/automations/{runId}/logs',
      summary: "The run's log lines",
      tag,
      access: 'account',
      params: runRefSchema,
      answers: { 200: { description: 'The log lines, oldest first.', json: z.array(automationLogLineSchema) } },
    },
    async ({ ctx, params }) => runs.logs(ctx, params.runId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/automations/{runId}/cancel',
      summary: 'Stop a run: its step in progress is aborted and the run ends Cancelled',
      tag,
      access: 'account',
      params: runRefSchema,
      answers: RUN,
    },
    async ({ ctx, params }) => runs.cancel(ctx, params.runId),
  );
}
