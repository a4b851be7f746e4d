/** The automations' requests: definitions, steps, the run list and reruns. */
import { z } from 'zod';
import { idSchema } from './accounts';
import { automationTriggerSchema } from './automation-entities';
import { STEP_KINDS } from './automation-kinds';
import { inputValueSchema, stepPolicySchema } from './automation-values';
import { scheduleSettingsSchema } from './integrations';

const nameSchema = z.string().trim().min(1, 'Name is required.').max(200);
const descriptionSchema = z.string().trim().max(2_000);

export const createAutomationSchema = z.object({
  name: nameSchema,
  description: descriptionSchema.default(''),
});
export type CreateAutomationRequest = z.output<typeof createAutomationSchema>;

/** PUT /api/automations/definitions/{id}: the spec's fields, plus trigger and run timeout. */
export const updateAutomationSchema = z.object({
  id: idSchema.optional(),
  name: nameSchema.optional(),
  description: descriptionSchema.optional(),
  scheduleFrequencyType: z.enum(['Manual', 'Scheduled']).optional(),
  /** The schedule (preset or cron) when Scheduled. */
  scheduleFrequencyDetails: scheduleSettingsSchema.nullable().optional(),
  trigger: automationTriggerSchema.optional(),
  runTimeoutSeconds: z
    .number()
    .int()
    .min(10)
    .max(7 * 86_400)
    .optional(),
});
export type UpdateAutomationRequest = z.output<typeof updateAutomationSchema>;

export const addStepSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  kind: z.enum(STEP_KINDS),
  integrationId: idSchema.nullable().optional(),
  inputs: z.record(z.string().max(100), inputValueSchema).optional(),
  /** 0-based; default: last. */
  position: z.number().int().min(0).max(1_000).optional(),
});
export type AddStepRequest = z.output<typeof addStepSchema>;

export const stepNameSchema = z.object({ value: z.string().trim().min(1, 'Name is required.').max(200) });
export const stepIntegrationSchema = z.object({ value: idSchema.nullable() });
export const stepInputSchema = z.object({ value: inputValueSchema });
export const stepPositionSchema = z.object({ position: z.number().int().min(0).max(1_000) });
export const stepPolicyRequestSchema = stepPolicySchema.partial();

export const AUTOMATION_PAGE_SIZES = [50, 100, 200] as const;

/** GET /api/automations and /latest: ?automationDefinitionId */
export const runListQuerySchema = z.object({
  automationDefinitionId: idSchema.optional(),
  /** Most recent first; the activity log pages by day. */
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.string().max(40).optional(),
});
export type RunListQuery = z.output<typeof runListQuerySchema>;

/** POST /api/automations/{id}/rerun: from the start on the current definition, or from the failed step reusing earlier outputs. */
export const rerunSchema = z.object({
  from: z.enum(['Start', 'FailedStep']).default('Start'),
});
export type RerunRequest = z.output<typeof rerunSchema>;
