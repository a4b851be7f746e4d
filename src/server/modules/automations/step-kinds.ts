/** Every step kind, by its StepKind name. Each kind lives in steps/<kind>.ts. */
import type { StepKind } from '../../../shared/automations';
import type { StepKindDefinition } from './step-kind';
import { httpRequestStep } from './steps/http-request';

const KINDS: StepKindDefinition[] = [httpRequestStep];

export function stepKinds(): StepKindDefinition[] {
  return KINDS;
}

export function stepKind(kind: StepKind): StepKindDefinition | undefined {
  return KINDS.find((k) => k.kind === kind);
}
