/** REST paths of automation definitions and their steps (spec data-areas §7 "Automations"), over the same service as tRPC. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addStepSchema,
  createAutomationSchema,
  stepIntegrationSchema,
  stepInputSchema,
  stepNameSchema,
  stepPositionSchema,
  updateAutomationSchema,
} from '../../../shared/automations';
import {
  automationDefinitionAnswerSchema,
  automationListItemAnswerSchema,
  automationStepAnswerSchema,
  stepInputOptionsAnswerSchema,
  stepPolicyPatchSchema,
  stepPreviewAnswerSchema,
  triggerDataAnswerSchema,
} from '../../../shared/automations-api';
import { definitionRefSchema, stepInputRefSchema, stepRefSchema } from '../../../shared/automation-refs';
import type { Deps } from '../../context';
import { endpoint } from '../../http/endpoint';
import type { Services } from '../../services';

const tag = 'Automations';
const DEFINITION = { 200: { description: 'The definition as it is now.', json: automationDefinitionAnswerSchema } };
const BASE = '/api/automations/definitions';
const STEP = `${BASE}/{id}/steps/{stepId}`;

export function registerAutomationsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const automations = services.automations;

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: BASE,
      summary: "The account's automations with their latest run, sorted by name",
      tag,
      access: 'account',
      answers: { 200: { description: 'The list.', json: z.array(automationListItemAnswerSchema) } },
    },
    async ({ ctx }) => automations.list(ctx),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: BASE,
      summary: 'Create an automation (Manual trigger, no steps)',
      tag,
      access: 'account',
      body: createAutomationSchema,
      answers: { 201: { description: 'The new definition.', json: automationDefinitionAnswerSchema } },
    },
    async ({ ctx, body }) => automations.create(ctx, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: `${BASE}/{id}`,
      summary: 'An automation: trigger, steps in order, errors',
      tag,
      access: 'account',
      params: definitionRefSchema,
      answers: { 200: { description: 'The definition.', json: automationDefinitionAnswerSchema } },
    },
    async ({ ctx, params }) => automations.get(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: `${BASE}/{id}`,
      summary: 'Change name, description, schedule or trigger, run time limit',
      description:
        'scheduleFrequencyType Scheduled with scheduleFrequencyDetails (a Day, Week or Month preset or a 5-field UTC cron) makes it a Schedule trigger; Manual makes it manual. `trigger`, when sent, wins over those.',
      tag,
      access: 'account',
      params: definitionRefSchema,
      body: updateAutomationSchema,
      answers: DEFINITION,
    },
    async ({ ctx, params, body }) => automations.update(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: `${BASE}/{id}`,
      summary: 'Delete an automation with its steps and runs',
      tag,
      access: 'account',
      params: definitionRefSchema,
      answers: { 204: { description: 'Deleted.' } },
    },
    async ({ ctx, params }) => automations.remove(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: `${BASE}/{id}/preview-initial-data`,
      summary: "The trigger's data a run would get now",
      description: 'AfterSync: from the integration’s last completed sync run.',
      tag,
      access: 'account',
      params: definitionRefSchema,
      answers: { 200: { description: 'The trigger data.', json: triggerDataAnswerSchema } },
    },
    async ({ ctx, params }) => automations.previewInitialData(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: `${BASE}/{id}/steps`,
      summary: 'Add a step (at a position, last by default)',
      tag,
      access: 'account',
      params: definitionRefSchema,
      body: addStepSchema,
      answers: { 201: { description: 'The new step (its id).', json: automationStepAnswerSchema } },
    },
    async ({ ctx, params, body }) => {
      const { definition, stepId } = await automations.addStep(ctx, params.id, body);
      return automations.stepOf(definition, stepId);
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: STEP,
      summary: 'Remove a step (the later ones move up)',
      tag,
      access: 'account',
      params: stepRefSchema,
      answers: DEFINITION,
    },
    async ({ ctx, params }) => automations.removeStep(ctx, params.id, params.stepId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: `${STEP}/name`,
      summary: 'Rename a step',
      tag,
      access: 'account',
      params: stepRefSchema,
      body: stepNameSchema,
      answers: DEFINITION,
    },
    async ({ ctx, params, body }) => automations.renameStep(ctx, params.id, params.stepId, body.value),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: `${STEP}/integration`,
      summary: 'Choose the integration a step uses (null: none)',
      tag,
      access: 'account',
      params: stepRefSchema,
      body: stepIntegrationSchema,
      answers: DEFINITION,
    },
    async ({ ctx, params, body }) => automations.setStepIntegration(ctx, params.id, params.stepId, body.value),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: `${STEP}/input/{input}`,
      summary: "Set one of a step's inputs (null clears it)",
      description:
        'Text inputs may hold placeholders: {{trigger.x}}, {{steps.<stepId>.<output>}}, {{run.id}}, {{automation.name}}.',
      tag,
      access: 'account',
      params: stepInputRefSchema,
      body: stepInputSchema,
      answers: DEFINITION,
    },
    async ({ ctx, params, body }) => automations.setStepInput(ctx, params.id, params.stepId, params.input, body.value),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: `${STEP}/position`,
      summary: 'Move a step to a 0-based position',
      tag,
      access: 'account',
      params: stepRefSchema,
      body: stepPositionSchema,
      answers: DEFINITION,
    },
    async ({ ctx, params, body }) => automations.moveStep(ctx, params.id, params.stepId, body.position),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: `${STEP}/policy`,
      summary: "Change a step's retry and time limits (only the fields sent)",
      tag,
      access: 'account',
      params: stepRefSchema,
      body: stepPolicyPatchSchema,
      answers: DEFINITION,
    },
    async ({ ctx, params, body }) => automations.setStepPolicy(ctx, params.id, params.stepId, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: `${STEP}/preview`,
      summary: 'What the step would read or send, without side effects',
      description:
        "Placeholders are resolved against the trigger's sample data; earlier steps' outputs are listed as unresolved.",
      tag,
      access: 'account',
      params: stepRefSchema,
      answers: { 200: { description: 'The preview.', json: stepPreviewAnswerSchema } },
    },
    async ({ ctx, params }) => automations.stepPreview(ctx, params.id, params.stepId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: `${STEP}/input-options`,
      summary: "The step's integrations, its inputs' allowed values and its placeholders",
      tag,
      access: 'account',
      params: stepRefSchema,
      answers: { 200: { description: 'The options.', json: stepInputOptionsAnswerSchema } },
    },
    async ({ ctx, params }) => automations.inputOptions(ctx, params.id, params.stepId),
  );
}
