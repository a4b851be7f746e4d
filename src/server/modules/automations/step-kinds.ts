/** Every step kind, by its StepKind name. Each kind lives in steps/<kind>.ts. */
import type { StepKind } from '../../../shared/automations';
import type { StepKindDefinition } from './step-kind';
import { checkDataStep } from './steps/check-data';
import { exportReportStep } from './steps/export-report';
import { httpRequestStep } from './steps/http-request';
import { materializeStep } from './steps/materialize';
import { notifyStep } from './steps/notify';
import { publishModelStep } from './steps/publish-model';
import { sendEmailStep } from './steps/send-email';
import { syncIntegrationStep } from './steps/sync-integration';
import { writeDestinationStep } from './steps/write-destination';

const KINDS: StepKindDefinition[] = [
  httpRequestStep,
  syncIntegrationStep,
  publishModelStep,
  materializeStep,
  checkDataStep,
  exportReportStep,
  notifyStep,
  sendEmailStep,
  writeDestinationStep,
];

export function stepKinds(): StepKindDefinition[] {
  return KINDS;
}

export function stepKind(kind: StepKind): StepKindDefinition | undefined {
  return KINDS.find((k) => k.kind === kind);
}
