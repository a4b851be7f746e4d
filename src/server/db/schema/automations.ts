import type { Generated, Selectable } from 'kysely';

/** Automations: definitions and steps, runs with their steps, attempts, logs and side effects. */
export interface AutomationsSchema {
  automation_definitions: AutomationDefinitionsTable;
  automation_steps: AutomationStepsTable;
  automation_runs: AutomationRunsTable;
  automation_step_runs: AutomationStepRunsTable;
  automation_step_attempts: AutomationStepAttemptsTable;
  automation_run_logs: AutomationRunLogsTable;
  automation_side_effects: AutomationSideEffectsTable;
}

/** Automations (migrations/0011_automations.ts). */
export interface AutomationDefinitionsTable {
  id: string;
  account_id: string;
  name: string;
  description: string;
  trigger_type: string;
  /** JSON of the shared ScheduleSettings, or null. */
  schedule: string | null;
  schedule_pattern: string | null;
  next_run_at: string | null;
  trigger_integration_id: string | null;
  trigger_new_rows_only: number;
  run_timeout_seconds: number;
  run_counter: number;
  created_by: string | null;
  created_at: string;
  modified_at: string;
}
export type AutomationDefinitionRow = Selectable<AutomationDefinitionsTable>;

export interface AutomationStepsTable {
  id: string;
  definition_id: string;
  position: number;
  name: string;
  kind: string;
  integration_id: string | null;
  /** JSON object of input values. */
  inputs: string;
  /** JSON of the shared StepPolicy. */
  policy: string;
  created_at: string;
  modified_at: string;
}
export type AutomationStepRow = Selectable<AutomationStepsTable>;

export interface AutomationRunsTable {
  id: string;
  account_id: string;
  definition_id: string;
  run_number: number;
  name: string;
  status: string;
  origin: string;
  trigger_data: string;
  /** JSON of RunSnapshot (modules/automations/snapshot.ts). */
  snapshot: string;
  rerun_of: string | null;
  resumed_from_step_id: string | null;
  run_as_user_id: string | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  deadline_at: string | null;
  error: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  not_before: string | null;
  cancel_requested: number;
}
export type AutomationRunRow = Selectable<AutomationRunsTable>;

export interface AutomationStepRunsTable {
  run_id: string;
  step_id: string;
  position: number;
  name: string;
  kind: string;
  status: string;
  attempt: number;
  inputs: string | null;
  /** Non-null: the step finished; a resumed run never runs it again. */
  output: string | null;
  progress: string | null;
  started_at: string | null;
  ended_at: string | null;
  error: string | null;
}
export type AutomationStepRunRow = Selectable<AutomationStepRunsTable>;

export interface AutomationStepAttemptsTable {
  run_id: string;
  step_id: string;
  attempt: number;
  status: string;
  started_at: string;
  ended_at: string | null;
  error: string | null;
  error_type: string | null;
}

export interface AutomationRunLogsTable {
  id: Generated<number>;
  run_id: string;
  step_id: string | null;
  level: string;
  message: string;
  created_at: string;
}

export interface AutomationSideEffectsTable {
  key: string;
  run_id: string;
  step_id: string;
  state: string;
  result: string | null;
  created_at: string;
  updated_at: string;
}
