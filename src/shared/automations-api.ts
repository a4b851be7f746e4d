/**
 * Inputs of the `automations` tRPC router and the REST paths of definitions and their steps (spec
 * data-areas §7 "Automations"), built on the requests of automation-requests.ts; and the answers' schemas,
 * which the OpenAPI document shows.
 */
import { z } from 'zod';
import { definitionRefSchema, stepInputRefSchema, stepRefSchema } from './automation-refs';
import {
  AUTOMATION_RUN_STATUSES,
  STEP_KINDS,
  TRIGGER_TYPES,
  addStepSchema,
  automationTriggerSchema,
  inputValueSchema,
  stepIntegrationSchema,
  stepInputSchema,
  stepNameSchema,
  stepPolicySchema,
  stepPositionSchema,
  updateAutomationSchema,
} from './automations';
import { ATTEMPT_ERROR_TYPES } from './integrations';

/**
 * A partial policy: only the fields sent change. (stepPolicySchema.partial() would fill the others'
 * defaults in, resetting them.)
 */
export const stepPolicyPatchSchema = z.object({
  attempts: stepPolicySchema.shape.attempts.unwrap().optional(),
  backoffSeconds: stepPolicySchema.shape.backoffSeconds.unwrap().optional(),
  retryOn: z.array(z.enum(ATTEMPT_ERROR_TYPES)).max(3).optional(),
  timeoutSeconds: stepPolicySchema.shape.timeoutSeconds.unwrap().optional(),
  onFailure: z.enum(['Fail', 'Warn']).optional(),
});
export type StepPolicyPatch = z.output<typeof stepPolicyPatchSchema>;

// ---- tRPC inputs ----------------------------------------------------------------------------------

export const updateAutomationInputSchema = updateAutomationSchema.extend(definitionRefSchema.shape);
export const addStepInputSchema = addStepSchema.extend(definitionRefSchema.shape);
export const renameStepInputSchema = stepNameSchema.extend(stepRefSchema.shape);
export const setStepIntegrationInputSchema = stepIntegrationSchema.extend(stepRefSchema.shape);
export const setStepInputInputSchema = stepInputSchema.extend(stepInputRefSchema.shape);
export const moveStepInputSchema = stepPositionSchema.extend(stepRefSchema.shape);
export const setStepPolicyInputSchema = stepPolicyPatchSchema.extend(stepRefSchema.shape);

// ---- Answers (OpenAPI) ----------------------------------------------------------------------------

const scheduleSchema = automationTriggerSchema.shape.schedule.unwrap().unwrap();

export const automationStepAnswerSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(STEP_KINDS),
  integration: z.object({ id: z.string(), name: z.string() }).nullable(),
  inputs: z.record(z.string(), inputValueSchema),
  policy: z.object({
    attempts: z.number().int(),
    backoffSeconds: z.number(),
    retryOn: z.array(z.enum(ATTEMPT_ERROR_TYPES)),
    timeoutSeconds: z.number().int(),
    onFailure: z.enum(['Fail', 'Warn']),
  }),
  error: z.string().nullable(),
});

export const automationDefinitionAnswerSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  error: z.string().nullable(),
  syncScheduleFrequencyType: z.enum(['Manual', 'Scheduled']),
  scheduleFrequency: z.string().nullable(),
  trigger: z.object({
    type: z.enum(TRIGGER_TYPES),
    schedule: scheduleSchema.nullable(),
    integrationId: z.string().nullable(),
    onlyWithNewRows: z.boolean(),
  }),
  nextRunAt: z.string().nullable(),
  runTimeoutSeconds: z.number().int(),
  steps: z.array(automationStepAnswerSchema),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  modifiedAt: z.string(),
});

export const automationListItemAnswerSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  error: z.string().nullable(),
  lastRun: z
    .object({
      id: z.string(),
      status: z.enum(AUTOMATION_RUN_STATUSES),
      startedAt: z.string().nullable(),
      durationInSeconds: z.number().nullable(),
    })
    .nullable(),
});

const inputOptionSchema = z.object({ value: z.string(), label: z.string(), group: z.string().optional() });

export const stepInputOptionsAnswerSchema = z.object({
  integrations: z.array(inputOptionSchema),
  inputs: z.record(z.string(), z.array(inputOptionSchema)),
  placeholders: z.array(inputOptionSchema),
});

export const stepPreviewAnswerSchema = z.object({
  summary: z.string(),
  table: z
    .object({ headers: z.array(z.string()), rows: z.array(z.array(z.unknown())), rowCount: z.number().nullable() })
    .optional(),
  details: z.record(z.string(), inputValueSchema).optional(),
  unresolved: z.array(z.string()).optional(),
});

export const triggerDataAnswerSchema = z.record(z.string(), inputValueSchema);
