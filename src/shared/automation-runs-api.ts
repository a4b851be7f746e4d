/**
 * The automation run calls as schemas: the `automationRuns` tRPC procedures' inputs and the REST
 * paths' parts and answers (the OpenAPI document describes them). The entities stay in
 * automation-entities.ts; each answer schema is checked against its type so the two cannot drift apart.
 */
import { z } from 'zod';
import { idSchema } from './accounts';
import { runRefSchema } from './automation-refs';
import { ATTEMPT_ERROR_TYPES } from './integrations';
import {
  AUTOMATION_RUN_STATUSES,
  RUN_LOG_LEVELS,
  RUN_ORIGINS,
  STEP_KINDS,
  STEP_RUN_STATUSES,
  rerunSchema,
  runListQuerySchema,
  type AutomationLogLine,
  type AutomationRun,
  type AutomationRunDetail,
  type InputValue,
} from './automations';

// ---- Inputs ---------------------------------------------------------------------------------------

export const runListInputSchema = runListQuerySchema;
export const latestRunsQuerySchema = z.object({ automationDefinitionId: idSchema.optional() });
export const rerunInputSchema = runRefSchema.extend(rerunSchema.shape);

// ---- Answers --------------------------------------------------------------------------------------

const time = z.string();
/**
 * A JSON object of small values, as documented: the recursive InputValue schema cannot be written
 * out as JSON Schema, and answers are never parsed with these schemas (the type is the entity's).
 */
const values = z.record(z.string(), z.unknown()) as unknown as z.ZodType<Record<string, InputValue>>;

export const automationRunSchema = z.object({
  id: z.string(),
  automationDefinitionId: z.string(),
  name: z.string(),
  runNumber: z.number().int(),
  status: z.enum(AUTOMATION_RUN_STATUSES),
  origin: z.enum(RUN_ORIGINS),
  triggerData: values,
  rerunOf: z.string().nullable(),
  resumedFromStepId: z.string().nullable(),
  createdAt: time,
  startedAt: time.nullable(),
  endedAt: time.nullable(),
  durationInSeconds: z.number().nullable(),
  error: z.string().nullable(),
}) satisfies z.ZodType<AutomationRun>;

const stepAttemptSchema = z.object({
  attempt: z.number().int(),
  status: z.enum(STEP_RUN_STATUSES),
  startedAt: time,
  endedAt: time.nullable(),
  error: z.string().nullable(),
  errorType: z.enum(ATTEMPT_ERROR_TYPES).nullable(),
});

const stepRunSchema = z.object({
  stepId: z.string(),
  name: z.string(),
  kind: z.enum(STEP_KINDS),
  position: z.number().int(),
  status: z.enum(STEP_RUN_STATUSES),
  attempt: z.number().int(),
  inputs: values.nullable(),
  output: values.nullable(),
  startedAt: time.nullable(),
  endedAt: time.nullable(),
  error: z.string().nullable(),
  attempts: z.array(stepAttemptSchema),
  progress: z.string().nullable(),
});

export const automationRunDetailSchema = automationRunSchema.extend({
  steps: z.array(stepRunSchema),
}) satisfies z.ZodType<AutomationRunDetail>;

export const automationLogLineSchema = z.object({
  id: z.number().int(),
  runId: z.string(),
  stepId: z.string().nullable(),
  level: z.enum(RUN_LOG_LEVELS),
  message: z.string(),
  createdAt: time,
}) satisfies z.ZodType<AutomationLogLine>;
