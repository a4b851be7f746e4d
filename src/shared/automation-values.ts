/** What a step is configured with: its inputs' values (with placeholders) and its retry and time limits. */
import { z } from 'zod';
import { ATTEMPT_ERROR_TYPES } from './integrations';

/** A step input's value: JSON. Text inputs may hold placeholders (see PLACEHOLDER below). */
export type InputValue = string | number | boolean | null | InputValue[] | { [key: string]: InputValue };
export const inputValueSchema: z.ZodType<InputValue> = z.lazy(() =>
  z.union([
    z.string().max(100_000),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(inputValueSchema).max(1_000),
    z.record(z.string().max(200), inputValueSchema),
  ]),
);

/**
 * Placeholders in text inputs: {{trigger.<field>}} is the trigger's data, {{steps.<stepId>.<output>}}
 * an earlier step's output, {{run.id}}, {{run.number}}, {{run.startedAt}}, {{automation.name}}.
 * Resolved by the runner (server/modules/automations/templates.ts) just before the step runs.
 */
export const PLACEHOLDER = /\{\{\s*([a-zA-Z_][\w-]*(?:\.[\w-]+)*)\s*\}\}/g;

/** Per-step retry and time limits. */
export const stepPolicySchema = z.object({
  /** Attempts in all (1: no retry). */
  attempts: z.number().int().min(1).max(10).default(3),
  /** Wait before the 2nd attempt; doubles each time. */
  backoffSeconds: z.number().min(0).max(3_600).default(5),
  /** Which failures are retried; ConfigError is never retried whatever this says. */
  retryOn: z.array(z.enum(ATTEMPT_ERROR_TYPES)).max(3).default(['TransientError']),
  timeoutSeconds: z.number().int().min(1).max(86_400).default(600),
  /** Fail: a failure fails the run. Warn: the run goes on (checks that only warn). */
  onFailure: z.enum(['Fail', 'Warn']).default('Fail'),
});
export type StepPolicy = z.output<typeof stepPolicySchema>;
export const DEFAULT_STEP_POLICY: StepPolicy = stepPolicySchema.parse({});
