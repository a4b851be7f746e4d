/**
 * Automations (spec data-areas: Automations screens, the Automation definition and run entities,
 * section 7's calls, the /api/hubs/automations hub). A definition has a trigger and ordered steps;
 * a run executes a snapshot of the definition, step by step, each step's output saved before the
 * next starts so a restart resumes at the first step without one.
 */
import { z } from 'zod';
import { idSchema } from './accounts';
import { ATTEMPT_ERROR_TYPES, scheduleSettingsSchema, type AttemptErrorType } from './integrations';

// ---- Enumerations ---------------------------------------------------------------------------------

/** The spec's run statuses; Pending and Running show with a spinner. */
export const AUTOMATION_RUN_STATUSES = [
  'Pending',
  'Running',
  'Completed',
  'Failed',
  'Cancelled',
  'Terminated',
  'TimedOut',
  'Error',
  'Unknown',
] as const;
export type AutomationRunStatus = (typeof AUTOMATION_RUN_STATUSES)[number];
export const FINISHED_RUN_STATUSES: readonly AutomationRunStatus[] = [
  'Completed',
  'Failed',
  'Cancelled',
  'Terminated',
  'TimedOut',
  'Error',
];

/** A step within a run. Skipped: a 'skip when empty' step with nothing to do; Warned: a check that only warns. */
export const STEP_RUN_STATUSES = [
  'Pending',
  'Running',
  'Completed',
  'Warned',
  'Skipped',
  'Failed',
  'Cancelled',
  'TimedOut',
] as const;
export type StepRunStatus = (typeof STEP_RUN_STATUSES)[number];

export const STEP_KINDS = [
  'SyncIntegration',
  'PublishModel',
  'Materialize',
  'CheckData',
  'ExportReport',
  'SendEmail',
  'HttpRequest',
  'WriteDestination',
  'Notify',
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const STEP_KIND_LABELS: Record<StepKind, string> = {
  SyncIntegration: 'Sync integration',
  PublishModel: 'Publish model',
  Materialize: 'Materialize',
  CheckData: 'Check data',
  ExportReport: 'Export report',
  SendEmail: 'Send e-mail',
  HttpRequest: 'HTTP request',
  WriteDestination: 'Write to a destination',
  Notify: 'Notify',
};

/** Manual: only 'Run now' (and the API); Schedule: the definition's schedule; AfterSync: an integration's sync completing. */
export const TRIGGER_TYPES = ['Manual', 'Schedule', 'AfterSync'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** How a run was started (a rerun also names the run it repeats). */
export const RUN_ORIGINS = ['Manual', 'Schedule', 'AfterSync', 'Rerun'] as const;
export type RunOrigin = (typeof RUN_ORIGINS)[number];

export const RUN_LOG_LEVELS = ['INFO', 'WARN', 'ERROR'] as const;
export type AutomationLogLevel = (typeof RUN_LOG_LEVELS)[number];

// ---- Values ---------------------------------------------------------------------------------------

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
export const neverRetried: AttemptErrorType = 'ConfigError';

// ---- Entities (what the API answers) ---------------------------------------------------------------

export const automationTriggerSchema = z.object({
  type: z.enum(TRIGGER_TYPES),
  /** Schedule: Manual / Day / Week / Month / cron, as the integration schedule dialog. */
  schedule: scheduleSettingsSchema.nullable().default(null),
  /** AfterSync: the integration whose completed sync starts a run. */
  integrationId: idSchema.nullable().default(null),
  /** AfterSync: only when that sync brought new rows. */
  onlyWithNewRows: z.boolean().default(false),
});
export type AutomationTrigger = z.output<typeof automationTriggerSchema>;

export interface AutomationStep {
  id: string;
  name: string;
  kind: StepKind;
  /** The spec's `integration`: the integration the step uses, where its kind needs one. */
  integration: { id: string; name: string } | null;
  inputs: Record<string, InputValue>;
  policy: StepPolicy;
  /** What is wrong with the step (a required input missing, a reference to a later step...); null when fine. */
  error: string | null;
}

export interface AutomationDefinition {
  id: string;
  name: string;
  description: string;
  /** Why the definition cannot run (the first step error, or the trigger's); null when it can. 'Run now' is disabled while set. */
  error: string | null;
  /** The spec's names: 'Manual' or 'Scheduled'; scheduleFrequency is the cron pattern (UTC) or null. */
  syncScheduleFrequencyType: 'Manual' | 'Scheduled';
  scheduleFrequency: string | null;
  trigger: AutomationTrigger;
  nextRunAt: string | null;
  /** The whole run's time limit. */
  runTimeoutSeconds: number;
  steps: AutomationStep[];
  createdBy: { id: string; name: string } | null;
  createdAt: string;
  modifiedAt: string;
}

/** The list's row: the definition with its latest run. */
export interface AutomationListItem {
  id: string;
  name: string;
  description: string;
  error: string | null;
  lastRun: {
    id: string;
    status: AutomationRunStatus;
    startedAt: string | null;
    durationInSeconds: number | null;
  } | null;
}

export interface StepAttempt {
  attempt: number;
  status: StepRunStatus;
  startedAt: string;
  endedAt: string | null;
  error: string | null;
  errorType: AttemptErrorType | null;
}

export interface StepRun {
  stepId: string;
  name: string;
  kind: StepKind;
  position: number;
  status: StepRunStatus;
  /** The current (or last) attempt, 1-based; 0 before the first. */
  attempt: number;
  /** Inputs with placeholders resolved (secrets masked), once the step has started. */
  inputs: Record<string, InputValue> | null;
  /** Small values only; large data is a table or a file named here. */
  output: Record<string, InputValue> | null;
  startedAt: string | null;
  endedAt: string | null;
  error: string | null;
  attempts: StepAttempt[];
  /** Live progress text while running (e.g. 'Syncing orders: 12,000 rows'). */
  progress: string | null;
}

/** The spec's Automation run, plus what the run page shows. */
export interface AutomationRun {
  id: string;
  automationDefinitionId: string;
  /** The definition's name when the run started. */
  name: string;
  /** 'Run #n' in the activity log. */
  runNumber: number;
  status: AutomationRunStatus;
  origin: RunOrigin;
  /** The trigger's data (e.g. the sync run that started it). */
  triggerData: Record<string, InputValue>;
  /** The run this one repeats (Rerun), and the step it resumed from (null: from the start). */
  rerunOf: string | null;
  resumedFromStepId: string | null;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  durationInSeconds: number | null;
  /** Why it ended other than Completed. */
  error: string | null;
}

export interface AutomationRunDetail extends AutomationRun {
  steps: StepRun[];
}

export interface AutomationLogLine {
  id: number;
  runId: string;
  stepId: string | null;
  level: AutomationLogLevel;
  message: string;
  createdAt: string;
}

/** One input of a step kind, as Configure renders it. */
export interface StepInputSpec {
  name: string;
  label: string;
  description?: string;
  /** text/template: a text box (template: placeholders allowed); select/multiselect: from input-options. */
  type: 'text' | 'template' | 'number' | 'boolean' | 'select' | 'multiselect' | 'json' | 'keyValue';
  required: boolean;
  default?: InputValue;
  /** Shown only when another input has one of these values. */
  showWhen?: { input: string; equals: InputValue[] };
}

export interface StepKindInfo {
  kind: StepKind;
  label: string;
  description: string;
  /** Connector keys of the integrations it may use; null: it uses none. */
  integrationConnectors: string[] | null;
  inputs: StepInputSpec[];
  /** What later steps may refer to: {{steps.<id>.<name>}}. */
  outputs: { name: string; label: string }[];
  /** Sends or writes outside the run (e-mail, HTTP, destination): carries an idempotency key. */
  sideEffects: boolean;
}

export interface InputOption {
  value: string;
  label: string;
  /** e.g. 'Tables', 'Models', 'Datasets', 'Placeholders'. */
  group?: string;
}

/** GET .../steps/{stepId}/input-options: per input name, its allowed values; plus the integrations the step may use. */
export interface StepInputOptions {
  integrations: InputOption[];
  inputs: Record<string, InputOption[]>;
  /** Placeholders usable in this step's text inputs (trigger fields, earlier steps' outputs). */
  placeholders: InputOption[];
}

/** What a step would read or send, computed without side effects. */
export interface StepPreview {
  summary: string;
  /** A table the step reads (first rows). */
  table?: { headers: string[]; rows: unknown[][]; rowCount: number | null };
  /** What it would send (an e-mail, a request, a file name...), secrets masked. */
  details?: Record<string, InputValue>;
  /** Placeholders it could not resolve before a run (e.g. an earlier step's output). */
  unresolved?: string[];
}

/** The message of every /api/hubs/automations event (spec: message.automationId, message.automationDefinitionId). */
export interface AutomationHubMessage {
  /** The run's id (a run is an 'automation' in the spec's run calls: /api/automations/{runId}). */
  automationId: string;
  automationDefinitionId: string;
  runId: string;
  runNumber: number;
  name: string;
  status: AutomationRunStatus;
  error: string | null;
  /** stepProgress only. */
  step?: { stepId: string; name: string; status: StepRunStatus; attempt: number; progress: string | null };
}

/** Client methods the automations hub calls: the spec's four, plus step progress. */
export const AUTOMATION_HUB_EVENTS = ['started', 'completed', 'failed', 'cancelled', 'stepProgress'] as const;
export type AutomationHubEvent = (typeof AUTOMATION_HUB_EVENTS)[number];

// ---- Requests -------------------------------------------------------------------------------------

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

// ---- Messages -------------------------------------------------------------------------------------

export const AUTOMATION_MESSAGES = {
  notFound: 'Automation not found.',
  runNotFound: 'Automation run not found.',
  stepNotFound: 'Step not found.',
  deletePrompt: 'Are you sure you want to delete this automation?',
  empty: 'No automations created yet.',
  noRuns: 'This automation has not run yet.',
  noRunsYet: 'No runs yet',
  loadRunsFailed: 'Error: Failed to load automation runs',
  loadRunFailed: 'Error: Failed to load run info',
  noSteps: 'Add a step before running this automation.',
  hasError: 'This automation cannot run until its errors are fixed.',
  alreadyRunning: 'This automation is already running.',
  nothingToResume: 'Only a run that did not complete can be rerun from its failed step.',
  banners: {
    started: 'Automation has started',
    completed: 'Automation has completed',
    failed: 'Automation has failed',
    cancelled: 'Automation has been cancelled',
  },
  interrupted: 'The server stopped while this step ran; it was resumed.',
  runTimedOut: (seconds: number) => `The run took longer than its limit of ${seconds} s.`,
  stepTimedOut: (seconds: number) => `The step took longer than its limit of ${seconds} s.`,
  cancelledByUser: 'Cancelled by a user.',
} as const;
