import { ActionIcon, Alert, Badge, Button, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconEye, IconGripVertical, IconSettings, IconTrash } from '@tabler/icons-react';
import { useState, type DragEvent } from 'react';
import type { AutomationDefinition, AutomationStep, InputValue, StepKindInfo } from '../../../shared/automations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SaveOnBlurInput } from '../../components/save-on-blur-input';
import { trpc } from '../../trpc';
import { StepInput } from './step-input';
import { StepPolicyFields } from './step-policy';
import { StepPreviewPanel } from './step-preview';
import { useDefinitionChanged } from './use-definition';

/** A step's input is shown only when its showWhen condition holds (by the saved or default value). */
function visible(info: StepKindInfo, step: AutomationStep, name: string): boolean {
  const spec = info.inputs.find((input) => input.name === name);
  if (!spec?.showWhen) return true;
  const other = info.inputs.find((input) => input.name === spec.showWhen?.input);
  const current: InputValue = step.inputs[spec.showWhen.input] ?? other?.default ?? null;
  return spec.showWhen.equals.some((v) => JSON.stringify(v) === JSON.stringify(current));
}

export interface StepDrag {
  onDragStart: (event: DragEvent) => void;
  onDragOver: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
}

/**
 * One step of Configure: its name, kind, integration and inputs, retry and time limits, a preview
 * of what it would do, and its error. Reordered by the arrow buttons (keyboard) or by dragging.
 */
export function StepCard({
  automation,
  step,
  index,
  info,
  canWrite,
  drag,
}: {
  automation: AutomationDefinition;
  step: AutomationStep;
  index: number;
  info: StepKindInfo | undefined;
  canWrite: boolean;
  drag: StepDrag;
}) {
  const id = automation.id;
  const stepId = step.id;
  const changed = useDefinitionChanged();
  const rename = trpc.automations.renameStep.useMutation(changed);
  const setIntegration = trpc.automations.setStepIntegration.useMutation(changed);
  const setInput = trpc.automations.setStepInput.useMutation(changed);
  const move = trpc.automations.moveStep.useMutation(changed);
  const setPolicy = trpc.automations.setStepPolicy.useMutation(changed);
  const remove = trpc.automations.removeStep.useMutation(changed);
  const options = trpc.automations.inputOptions.useQuery({ id, stepId });
  const [previewing, setPreviewing] = useState(false);
  const [policyOpen, setPolicyOpen] = useState(false);
  const [removing, setRemoving] = useState(false);
  const last = index === automation.steps.length - 1;
  const label = `Step ${index + 1}`;

  return (
    <Paper
      p="md"
      withBorder
      component="section"
      aria-label={`${label}: ${step.name}`}
      data-testid="automation-step"
      onDragOver={drag.onDragOver}
      onDrop={drag.onDrop}
      style={step.error ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap" style={{ minWidth: 0, flex: '1 1 260px' }}>
            {canWrite && (
              <div
                draggable
                onDragStart={drag.onDragStart}
                aria-hidden
                style={{ cursor: 'grab', display: 'flex' }}
                title="Drag to reorder"
              >
                <IconGripVertical size={18} color="var(--mantine-color-dimmed)" />
              </div>
            )}
            <Badge variant="default" circle size="lg">
              {index + 1}
            </Badge>
            <SaveOnBlurInput
              aria-label="Step name"
              value={step.name}
              readOnly={!canWrite}
              onSave={(value) => rename.mutateAsync({ id, stepId, value })}
              style={{ flex: '1 1 160px', minWidth: 0, maxWidth: 360 }}
            />
            <Badge variant="light" tt="none" miw="max-content">
              {info?.label ?? step.kind}
            </Badge>
          </Group>
          <Group gap={4} wrap="nowrap" ml="auto">
            <Tooltip label="Preview">
              <ActionIcon
                variant={previewing ? 'light' : 'subtle'}
                color="gray"
                aria-label="Preview step"
                aria-expanded={previewing}
                onClick={() => setPreviewing((v) => !v)}
              >
                <IconEye size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Retry and timeout">
              <ActionIcon
                variant={policyOpen ? 'light' : 'subtle'}
                color="gray"
                aria-label="Retry and timeout"
                aria-expanded={policyOpen}
                onClick={() => setPolicyOpen((v) => !v)}
              >
                <IconSettings size={18} />
              </ActionIcon>
            </Tooltip>
            {canWrite && (
              <>
                <Tooltip label="Move up">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label="Move step up"
                    disabled={index === 0 || move.isPending}
                    onClick={() => move.mutate({ id, stepId, position: index - 1 })}
                  >
                    <IconArrowUp size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Move down">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label="Move step down"
                    disabled={last || move.isPending}
                    onClick={() => move.mutate({ id, stepId, position: index + 1 })}
                  >
                    <IconArrowDown size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Remove step">
                  <ActionIcon variant="subtle" color="red" aria-label="Remove step" onClick={() => setRemoving(true)}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              </>
            )}
          </Group>
        </Group>
        {step.error && (
          <Alert color="red" p="xs" role="alert" data-testid="step-error">
            <Text size="sm">{step.error}</Text>
          </Alert>
        )}
        {info?.integrationConnectors && (
          <Select
            label="Integration"
            required
            disabled={!canWrite}
            placeholder="Choose an integration"
            data={(options.data?.integrations ?? []).map((o) => ({ value: o.value, label: o.label }))}
            value={step.integration?.id ?? null}
            onChange={(value) => setIntegration.mutate({ id, stepId, value })}
            maw={420}
          />
        )}
        {info?.inputs
          .filter((spec) => visible(info, step, spec.name))
          .map((spec) => (
            <StepInput
              key={spec.name}
              spec={spec}
              value={step.inputs[spec.name] ?? spec.default ?? null}
              options={options.data?.inputs[spec.name] ?? []}
              placeholders={options.data?.placeholders ?? []}
              readOnly={!canWrite}
              onSave={(value) => setInput.mutate({ id, stepId, input: spec.name, value })}
            />
          ))}
        {policyOpen && (
          <StepPolicyFields
            policy={step.policy}
            readOnly={!canWrite}
            onSave={(patch) => setPolicy.mutate({ id, stepId, ...patch })}
          />
        )}
        {previewing && (
          <Paper p="sm" bg="var(--mantine-color-default-hover)">
            <Group justify="space-between" mb={4}>
              <Text size="sm" fw={600}>
                Preview
              </Text>
              <Button size="compact-xs" variant="subtle" onClick={() => setPreviewing(false)}>
                Hide
              </Button>
            </Group>
            <StepPreviewPanel automationId={id} stepId={stepId} />
          </Paper>
        )}
      </Stack>
      <ConfirmDialog
        opened={removing}
        danger
        message={`Remove the step '${step.name}'?`}
        loading={remove.isPending}
        onCancel={() => setRemoving(false)}
        onConfirm={() => remove.mutate({ id, stepId }, { onSettled: () => setRemoving(false) })}
      />
    </Paper>
  );
}
