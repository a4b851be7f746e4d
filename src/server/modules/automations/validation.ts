/**
 * What keeps a definition from running, computed from its trigger and steps whenever it is read (so
 * a deleted integration, a moved step or a kind that changed shows at once): each step's own error,
 * and the definition's (no steps, the trigger's, or the first step's). 'Run now' is disabled while
 * the definition has one; the runner refuses it too.
 */
import {
  AUTOMATION_MESSAGES,
  type AutomationTrigger,
  type InputValue,
  type StepKind,
} from '../../../shared/automations';
import { INTEGRATION_MESSAGES } from '../../../shared/integrations';
import type { ConfiguredStep, StepKindDefinition } from './step-kind';
import { validCron } from './schedule-pattern';
import { placeholdersIn } from './templates';
import { TRIGGER_FIELDS } from './trigger-data';

export const VALIDATION_MESSAGES = {
  kindUnavailable: 'This step kind is not available.',
  integrationMissing: 'Choose an integration for this step.',
  integrationWrongKind: (name: string) => `The integration "${name}" cannot be used by this step.`,
  notEarlier: (placeholder: string) => `{{${placeholder}}} refers to a step that does not come before this one.`,
  noSuchOutput: (placeholder: string, stepName: string) =>
    `{{${placeholder}}}: the step "${stepName}" has no such output.`,
  unknownPlaceholder: (placeholder: string) => `{{${placeholder}}} is not a known placeholder.`,
  triggerIntegrationMissing: 'Choose the integration whose sync starts this automation.',
  scheduleMissing: 'Choose when this automation runs.',
  invalidCron: INTEGRATION_MESSAGES.invalidCron,
  stepError: (stepName: string, error: string) => `Step "${stepName}": ${error}`,
} as const;

export const RUN_FIELDS = [
  { name: 'id', label: 'Run id' },
  { name: 'number', label: 'Run number' },
  { name: 'startedAt', label: 'Run started at' },
] as const;
export const AUTOMATION_FIELDS = [
  { name: 'id', label: 'Automation id' },
  { name: 'name', label: 'Automation name' },
] as const;

/** An integration as a step or trigger may use it. */
export interface IntegrationRef {
  id: string;
  name: string;
  connectorKey: string;
}

export interface ValidationInput {
  trigger: AutomationTrigger;
  steps: ConfiguredStep[];
  /** The account's integrations by id (a step's or trigger's id not here: deleted or not the account's). */
  integrations: ReadonlyMap<string, IntegrationRef>;
  kindOf: (kind: StepKind) => StepKindDefinition | undefined;
}

export interface ValidationResult {
  error: string | null;
  stepErrors: Map<string, string | null>;
}

/** The trigger's problem, if any. */
export function triggerError(
  trigger: AutomationTrigger,
  integrations: ReadonlyMap<string, IntegrationRef>,
): string | null {
  if (trigger.type === 'AfterSync') {
    if (!trigger.integrationId || !integrations.has(trigger.integrationId))
      return VALIDATION_MESSAGES.triggerIntegrationMissing;
  }
  if (trigger.type === 'Schedule') {
    const schedule = trigger.schedule;
    if (!schedule || schedule.type === 'Manual') return VALIDATION_MESSAGES.scheduleMissing;
    if (schedule.cron !== undefined && validCron(schedule.cron) === null) return VALIDATION_MESSAGES.invalidCron;
  }
  return null;
}

function placeholderError(path: string, index: number, input: ValidationInput): string | null {
  const [root, first, second] = path.split('.');
  switch (root) {
    case 'trigger':
      return first !== undefined && TRIGGER_FIELDS[input.trigger.type].some((f) => f.name === first)
        ? null
        : VALIDATION_MESSAGES.unknownPlaceholder(path);
    case 'run':
      return RUN_FIELDS.some((f) => f.name === first) && second === undefined
        ? null
        : VALIDATION_MESSAGES.unknownPlaceholder(path);
    case 'automation':
      return AUTOMATION_FIELDS.some((f) => f.name === first) && second === undefined
        ? null
        : VALIDATION_MESSAGES.unknownPlaceholder(path);
    case 'steps': {
      const at = input.steps.findIndex((s) => s.id === first);
      if (at < 0 || at >= index) return VALIDATION_MESSAGES.notEarlier(path);
      const earlier = input.steps[at] as ConfiguredStep;
      const kind = input.kindOf(earlier.kind);
      // An earlier step of a kind not available has its own error; its outputs cannot be known.
      if (!kind) return null;
      return second !== undefined && kind.outputs.some((o) => o.name === second)
        ? null
        : VALIDATION_MESSAGES.noSuchOutput(path, earlier.name);
    }
    default:
      return VALIDATION_MESSAGES.unknownPlaceholder(path);
  }
}

/** One step's error: its kind, its integration, the kind's own check, then its placeholders. */
export function stepError(step: ConfiguredStep, index: number, input: ValidationInput): string | null {
  const kind = input.kindOf(step.kind);
  if (!kind) return VALIDATION_MESSAGES.kindUnavailable;
  if (kind.integrationConnectors !== null) {
    const integration = step.integrationId ? input.integrations.get(step.integrationId) : undefined;
    if (!integration) return VALIDATION_MESSAGES.integrationMissing;
    if (!kind.integrationConnectors.includes(integration.connectorKey))
      return VALIDATION_MESSAGES.integrationWrongKind(integration.name);
  }
  let own: string | null;
  try {
    own = kind.validate(step);
  } catch (error) {
    // A kind's check that throws is a bug in it; the step still reads as not runnable.
    own = error instanceof Error ? error.message : String(error);
  }
  if (own) return own;
  for (const path of placeholdersIn(step.inputs as InputValue)) {
    const problem = placeholderError(path, index, input);
    if (problem) return problem;
  }
  return null;
}

export function validateDefinition(input: ValidationInput): ValidationResult {
  const stepErrors = new Map<string, string | null>();
  input.steps.forEach((step, index) => stepErrors.set(step.id, stepError(step, index, input)));
  let error: string | null = null;
  if (input.steps.length === 0) error = AUTOMATION_MESSAGES.noSteps;
  else error = triggerError(input.trigger, input.integrations);
  if (!error) {
    const first = input.steps.find((s) => stepErrors.get(s.id));
    if (first) error = VALIDATION_MESSAGES.stepError(first.name, stepErrors.get(first.id) as string);
  }
  return { error, stepErrors };
}
