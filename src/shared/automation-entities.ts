/** The automations' entities as the API answers them: definitions, steps, runs, logs, the step catalogue. */
import { z } from 'zod';
import { idSchema } from './accounts';
import {
  TRIGGER_TYPES,
  type AutomationLogLevel,
  type AutomationRunStatus,
  type RunOrigin,
  type StepKind,
  type StepRunStatus,
} from './automation-kinds';
import type { InputValue, StepPolicy } from './automation-values';
import { scheduleSettingsSchema, type AttemptErrorType } from './integrations';

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
