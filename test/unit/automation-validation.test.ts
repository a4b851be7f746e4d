/**
 * The definition's error and each step's, as pure logic over a tiny test-only kind: a kind not in
 * the registry (one not landed yet, or removed) is a step error, not a crash; the definition's
 * error is no steps, then the trigger's, then the first step's; a kind's validate() that throws
 * still reads as the step's error.
 */
import { describe, expect, it } from 'vitest';
import { AUTOMATION_MESSAGES, type AutomationTrigger, type StepKind } from '../../src/shared/automations';
import type { ConfiguredStep, StepKindDefinition } from '../../src/server/modules/automations/step-kind';
import { validateDefinition, type IntegrationRef } from '../../src/server/modules/automations/validation';

const echo: StepKindDefinition = {
  kind: 'Notify',
  label: 'Echo',
  description: 'Test kind',
  integrationConnectors: null,
  inputs: [{ name: 'text', label: 'Text', type: 'template', required: true }],
  outputs: [{ name: 'text', label: 'Text' }],
  sideEffects: false,
  inputOptions: () => Promise.resolve({}),
  validate: (step) => {
    if (step.inputs.text === 'boom') throw new Error('validate blew up');
    return typeof step.inputs.text === 'string' && step.inputs.text !== '' ? null : 'Text is required.';
  },
  preview: () => Promise.resolve({ summary: '' }),
  run: () => Promise.resolve({}),
};
const kindOf = (kind: StepKind) => (kind === 'Notify' ? echo : undefined);
const manual: AutomationTrigger = { type: 'Manual', schedule: null, integrationId: null, onlyWithNewRows: false };
const none = new Map<string, IntegrationRef>();
const step = (id: string, kind: StepKind, text: string): ConfiguredStep => ({
  id,
  name: id.toUpperCase(),
  kind,
  integrationId: null,
  inputs: { text },
});

describe('definition validation', () => {
  it('names a kind that is not available instead of failing', () => {
    const result = validateDefinition({
      trigger: manual,
      steps: [step('a', 'Notify', 'hi'), step('b', 'WriteDestination', 'x'), step('c', 'Notify', '{{steps.b.any}}')],
      integrations: none,
      kindOf,
    });
    expect(result.stepErrors.get('a')).toBeNull();
    expect(result.stepErrors.get('b')).toBe('This step kind is not available.');
    // Outputs of an unavailable kind cannot be known: that step's own error is enough.
    expect(result.stepErrors.get('c')).toBeNull();
    expect(result.error).toBe('Step "B": This step kind is not available.');
  });

  it('puts no steps first, then the trigger, then the first step in error', () => {
    expect(validateDefinition({ trigger: manual, steps: [], integrations: none, kindOf }).error).toBe(
      AUTOMATION_MESSAGES.noSteps,
    );
    const badCron: AutomationTrigger = {
      ...manual,
      type: 'Schedule',
      schedule: { type: 'Scheduled', cron: '61 * * * *' },
    };
    const steps = [step('a', 'Notify', ''), step('b', 'Notify', 'boom')];
    const result = validateDefinition({ trigger: badCron, steps, integrations: none, kindOf });
    expect(result.error).toBe('Invalid cron expression');
    expect(result.stepErrors.get('a')).toBe('Text is required.');
    expect(result.stepErrors.get('b')).toBe('validate blew up');
    const fine = validateDefinition({
      trigger: { ...badCron, schedule: { type: 'Scheduled', frequency: 'Week', weekDay: 'Friday', time: '08:00' } },
      steps,
      integrations: none,
      kindOf,
    });
    expect(fine.error).toBe('Step "A": Text is required.');
    expect(
      validateDefinition({ trigger: { ...manual, type: 'Schedule' }, steps, integrations: none, kindOf }).error,
    ).toBe('Choose when this automation runs.');
  });

  it('checks placeholders: earlier steps, their outputs, run and automation fields', () => {
    const check = (text: string) =>
      validateDefinition({
        trigger: manual,
        steps: [step('a', 'Notify', 'x'), step('b', 'Notify', text)],
        integrations: none,
        kindOf,
      }).stepErrors.get('b');
    expect(check('{{steps.a.text}} {{run.id}} {{automation.name}} {{trigger.at}}')).toBeNull();
    expect(check('{{steps.b.text}}')).toBe('{{steps.b.text}} refers to a step that does not come before this one.');
    expect(check('{{steps.a.other}}')).toBe('{{steps.a.other}}: the step "A" has no such output.');
    expect(check('{{run.owner}}')).toBe('{{run.owner}} is not a known placeholder.');
    expect(check('{{secrets.key}}')).toBe('{{secrets.key}} is not a known placeholder.');
  });
});
