/** The /api/hubs/automations hub: its events and their message. */
import type { AutomationRunStatus, StepRunStatus } from './automation-kinds';

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
