/**
 * What a run executes: a snapshot of its definition taken when the run is created (the steps in
 * order with their inputs and policies, the run's time limit), so editing the definition never
 * changes a run already queued, running or being resumed after a restart.
 */
import {
  AUTOMATION_MESSAGES,
  DEFAULT_STEP_POLICY,
  stepPolicySchema,
  type InputValue,
  type StepKind,
  type StepPolicy,
} from '../../../shared/automations';
import type { Db } from '../../db/database';
import { placeholdersIn } from './templates';
import { stepKind } from './step-kinds';

export interface SnapshotStep {
  id: string;
  name: string;
  kind: StepKind;
  integrationId: string | null;
  inputs: Record<string, InputValue>;
  policy: StepPolicy;
}

export interface RunSnapshot {
  definitionId: string;
  name: string;
  runTimeoutSeconds: number;
  steps: SnapshotStep[];
}

function parse<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A stored policy with the defaults filled in (a policy saved before a field existed still runs). */
export function policyOf(text: string | null): StepPolicy {
  const parsed = stepPolicySchema.safeParse(parse<unknown>(text, {}));
  return parsed.success ? parsed.data : DEFAULT_STEP_POLICY;
}

/** The definition as it is now, ready to store in a run; undefined when it does not exist. */
export async function takeSnapshot(db: Db, definitionId: string): Promise<RunSnapshot | undefined> {
  const definition = await db
    .selectFrom('automation_definitions')
    .select(['id', 'name', 'run_timeout_seconds'])
    .where('id', '=', definitionId)
    .executeTakeFirst();
  if (!definition) return undefined;
  const steps = await db
    .selectFrom('automation_steps')
    .selectAll()
    .where('definition_id', '=', definitionId)
    .orderBy('position')
    .orderBy('created_at')
    .execute();
  return {
    definitionId: definition.id,
    name: definition.name,
    runTimeoutSeconds: definition.run_timeout_seconds,
    steps: steps.map((s) => ({
      id: s.id,
      name: s.name,
      kind: s.kind as StepKind,
      integrationId: s.integration_id,
      inputs: parse<Record<string, InputValue>>(s.inputs, {}),
      policy: policyOf(s.policy),
    })),
  };
}

export const parseSnapshot = (text: string): RunSnapshot => JSON.parse(text) as RunSnapshot;

/**
 * Why the snapshot cannot run, or null. The definitions service (auto-defs) computes the full
 * `error` a definition shows; this is the runner's own floor so a run never starts on a definition
 * with no steps, an unknown kind, an invalid step or a placeholder naming a step that is not earlier.
 */
export function snapshotError(snapshot: RunSnapshot): string | null {
  if (snapshot.steps.length === 0) return AUTOMATION_MESSAGES.noSteps;
  const earlier = new Set<string>();
  for (const step of snapshot.steps) {
    const kind = stepKind(step.kind);
    if (!kind) return `${step.name}: this kind of step is not available.`;
    const invalid = kind.validate({ ...step });
    if (invalid) return `${step.name}: ${invalid}`;
    for (const path of Object.values(step.inputs).flatMap(placeholdersIn)) {
      const [root, stepId] = path.split('.');
      if (root === 'steps' && (!stepId || !earlier.has(stepId)))
        return `${step.name}: {{${path}}} does not name an earlier step.`;
    }
    earlier.add(step.id);
  }
  return null;
}
