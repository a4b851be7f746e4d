import { Alert, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { AutomationDefinition, StepKind } from '../../../shared/automations';
import { Dialog } from '../../components/dialog';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { StepCard } from './step-card';
import { TriggerCard } from './trigger-card';
import { useDefinitionChanged } from './use-definition';

/** Configure: the trigger, then the steps in the order they run, and 'Add step'. */
export function ConfigureTab({ automation, canWrite }: { automation: AutomationDefinition; canWrite: boolean }) {
  const kinds = trpc.automations.stepKinds.useQuery(undefined, { staleTime: Infinity });
  const move = trpc.automations.moveStep.useMutation(useDefinitionChanged());
  const [adding, setAdding] = useState(false);
  const [dragged, setDragged] = useState<string | null>(null);

  return (
    <Stack gap="md">
      <TriggerCard automation={automation} canWrite={canWrite} />
      <Group justify="space-between">
        <Title order={3} size="h5">
          Steps
        </Title>
        {canWrite && (
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Add step
          </Button>
        )}
      </Group>
      {kinds.isError && <Alert color="red">{errorMessage(kinds.error)}</Alert>}
      {kinds.isPending && <Skeleton h={120} />}
      {automation.steps.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          No steps yet. Add the first step of this automation.
        </Text>
      )}
      {kinds.data &&
        automation.steps.map((step, index) => (
          <StepCard
            key={step.id}
            automation={automation}
            step={step}
            index={index}
            info={kinds.data.find((k) => k.kind === step.kind)}
            canWrite={canWrite}
            drag={{
              onDragStart: (event) => {
                event.dataTransfer.effectAllowed = 'move';
                setDragged(step.id);
              },
              onDragOver: (event) => {
                if (dragged) event.preventDefault();
              },
              onDrop: (event) => {
                event.preventDefault();
                if (dragged && dragged !== step.id)
                  move.mutate({ id: automation.id, stepId: dragged, position: index });
                setDragged(null);
              },
            }}
          />
        ))}
      {adding && <AddStepDialog automation={automation} onClose={() => setAdding(false)} />}
    </Stack>
  );
}

/** The kind picker: every step kind the server offers, with what it does. */
function AddStepDialog({ automation, onClose }: { automation: AutomationDefinition; onClose: () => void }) {
  const kinds = trpc.automations.stepKinds.useQuery(undefined, { staleTime: Infinity });
  const changed = useDefinitionChanged();
  const add = trpc.automations.addStep.useMutation({
    ...changed,
    onSuccess: async (saved) => {
      await changed.onSuccess(saved);
      onClose();
    },
  });
  const choose = (kind: StepKind) => {
    if (!add.isPending) add.mutate({ id: automation.id, kind });
  };
  return (
    <Dialog opened onClose={onClose} title="Add step" size="lg">
      {kinds.isPending ? (
        <Skeleton h={200} />
      ) : kinds.isError ? (
        <Alert color="red">{errorMessage(kinds.error)}</Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {kinds.data.map((info) => (
            <UnstyledButton
              key={info.kind}
              onClick={() => choose(info.kind)}
              className="mantine-focus-auto"
              aria-label={info.label}
              data-testid="step-kind"
              disabled={add.isPending}
            >
              <Card withBorder padding="sm" h="100%">
                <Text fw={600} size="sm">
                  {info.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {info.description}
                </Text>
              </Card>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
    </Dialog>
  );
}
