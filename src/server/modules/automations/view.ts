/** Rows of automation_definitions and automation_steps as the shared entities the API answers. */
import {
  DEFAULT_STEP_POLICY,
  TRIGGER_TYPES,
  stepPolicySchema,
  type AutomationDefinition,
  type AutomationListItem,
  type AutomationStep,
  type AutomationTrigger,
  type InputValue,
  type StepKind,
  type StepPolicy,
  type TriggerType,
} from '../../../shared/automations';
import type { AutomationDefinitionRow, AutomationStepRow } from '../../db/schema';
import type { LastRun } from './repo';
import type { ConfiguredStep, StepKindDefinition } from './step-kind';
import { validateDefinition, type IntegrationRef, type ValidationResult } from './validation';

function parsed<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function triggerOf(row: AutomationDefinitionRow): AutomationTrigger {
  const type: TriggerType = (TRIGGER_TYPES as readonly string[]).includes(row.trigger_type)
    ? (row.trigger_type as TriggerType)
    : 'Manual';
  return {
    type,
    schedule: parsed<AutomationTrigger['schedule']>(row.schedule, null),
    integrationId: row.trigger_integration_id,
    onlyWithNewRows: row.trigger_new_rows_only === 1,
  };
}

/** A stored policy over the defaults (a field a later version added reads as its default). */
export function policyOf(row: AutomationStepRow): StepPolicy {
  const result = stepPolicySchema.safeParse(parsed<unknown>(row.policy, {}));
  return result.success ? result.data : DEFAULT_STEP_POLICY;
}

export function configuredStep(row: AutomationStepRow): ConfiguredStep {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as StepKind,
    integrationId: row.integration_id,
    inputs: parsed<Record<string, InputValue>>(row.inputs, {}),
  };
}

export interface ViewContext {
  integrations: ReadonlyMap<string, IntegrationRef>;
  kindOf: (kind: StepKind) => StepKindDefinition | undefined;
}

export function validationOf(
  row: AutomationDefinitionRow,
  steps: AutomationStepRow[],
  view: ViewContext,
): ValidationResult {
  return validateDefinition({
    trigger: triggerOf(row),
    steps: steps.map(configuredStep),
    integrations: view.integrations,
    kindOf: view.kindOf,
  });
}

export function stepView(row: AutomationStepRow, error: string | null, view: ViewContext): AutomationStep {
  const step = configuredStep(row);
  const integration = step.integrationId ? view.integrations.get(step.integrationId) : undefined;
  return {
    id: step.id,
    name: step.name,
    kind: step.kind,
    integration: integration ? { id: integration.id, name: integration.name } : null,
    inputs: step.inputs,
    policy: policyOf(row),
    error,
  };
}

export function definitionView(
  row: AutomationDefinitionRow,
  steps: AutomationStepRow[],
  createdByName: string | null,
  view: ViewContext,
): AutomationDefinition {
  const trigger = triggerOf(row);
  const { error, stepErrors } = validationOf(row, steps, view);
  const scheduled = trigger.type === 'Schedule' && row.schedule_pattern !== null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    error,
    syncScheduleFrequencyType: scheduled ? 'Scheduled' : 'Manual',
    scheduleFrequency: scheduled ? row.schedule_pattern : null,
    trigger,
    nextRunAt: scheduled ? row.next_run_at : null,
    runTimeoutSeconds: row.run_timeout_seconds,
    steps: steps.map((s) => stepView(s, stepErrors.get(s.id) ?? null, view)),
    createdBy: row.created_by ? { id: row.created_by, name: createdByName ?? '' } : null,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  };
}

export function listItemView(
  row: AutomationDefinitionRow,
  steps: AutomationStepRow[],
  lastRun: LastRun | undefined,
  view: ViewContext,
): AutomationListItem {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    error: validationOf(row, steps, view).error,
    lastRun: lastRun ?? null,
  };
}
