/**
 * The automations' enumerations: run and step statuses, step kinds and their labels, trigger types,
 * how a run was started, log levels.
 */
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
