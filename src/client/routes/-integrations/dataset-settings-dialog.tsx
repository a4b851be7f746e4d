import { Accordion, Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { INGESTION_HELP, type Dataset, type IngestionType, type SyncType } from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { Dialog } from '../../components/dialog';

interface Choice {
  isSelected: boolean;
  selectedProperties: string[];
  syncType: SyncType;
  dataIngestionType: IngestionType;
}
type Choices = Record<string, Choice>;

/** Primary key and cursor properties: always selected (spec §5). */
const fixedProperties = (d: Dataset) =>
  d.availableProperties.filter((p) => p.isPrimaryKey || p.isCursor).map((p) => p.name);

const choiceOf = (d: Dataset): Choice => ({
  isSelected: d.isSelected,
  selectedProperties: d.selectedProperties,
  syncType: d.syncType,
  dataIngestionType: d.dataIngestionType,
});

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Only what differs from the saved datasets: Save needs at least one change. */
export function changedChoices(datasets: Dataset[], choices: Choices): Record<string, Partial<Choice>> {
  const changes: Record<string, Partial<Choice>> = {};
  for (const d of datasets) {
    const c = choices[d.name];
    if (!c) continue;
    const change: Partial<Choice> = {};
    if (c.isSelected !== d.isSelected) change.isSelected = c.isSelected;
    if (!sameSet(c.selectedProperties, d.selectedProperties)) change.selectedProperties = c.selectedProperties;
    if (c.syncType !== d.syncType) change.syncType = c.syncType;
    if (c.dataIngestionType !== d.dataIngestionType) change.dataIngestionType = c.dataIngestionType;
    if (Object.keys(change).length > 0) changes[d.name] = change;
  }
  return changes;
}

function DatasetChoice({
  dataset,
  choice,
  onChange,
}: {
  dataset: Dataset;
  choice: Choice;
  onChange: (c: Choice) => void;
}) {
  const fixed = fixedProperties(dataset);
  const toggleProperty = (name: string, on: boolean) => {
    const chosen = new Set(choice.selectedProperties);
    if (on) [name, ...fixed].forEach((p) => chosen.add(p));
    else chosen.delete(name);
    onChange({
      ...choice,
      selectedProperties: dataset.availableProperties.map((p) => p.name).filter((p) => chosen.has(p)),
    });
  };
  return (
    <Accordion.Item value={dataset.name}>
      <Group wrap="nowrap" gap="sm" pl="sm">
        <Checkbox
          aria-label={`Sync ${dataset.name}`}
          checked={choice.isSelected}
          onChange={(e) => onChange({ ...choice, isSelected: e.currentTarget.checked })}
        />
        <Accordion.Control>
          <Text fw={500}>{dataset.name}</Text>
          <Text size="xs" c="dimmed">
            {choice.selectedProperties.length} of {dataset.availableProperties.length} properties
          </Text>
        </Accordion.Control>
      </Group>
      <Accordion.Panel>
        <Stack gap="sm">
          <Group grow>
            <Select
              label="Sync type"
              data={dataset.syncOptions.supportedTypes}
              value={choice.syncType}
              allowDeselect={false}
              onChange={(v) => v && onChange({ ...choice, syncType: v as SyncType })}
            />
            <Select
              label="Ingestion type"
              description={INGESTION_HELP[choice.dataIngestionType]}
              data={dataset.ingestionOptions.supportedTypes}
              value={choice.dataIngestionType}
              allowDeselect={false}
              onChange={(v) => v && onChange({ ...choice, dataIngestionType: v as IngestionType })}
            />
          </Group>
          <SimpleGrid cols={3} spacing="xs">
            {dataset.availableProperties.map((p) => {
              const isFixed = fixed.includes(p.name);
              return (
                <Checkbox
                  key={p.name}
                  label={`${p.name}${p.isPrimaryKey ? ' (primary key)' : p.isCursor ? ' (cursor)' : ''}`}
                  checked={isFixed || choice.selectedProperties.includes(p.name)}
                  disabled={isFixed}
                  onChange={(e) => toggleProperty(p.name, e.currentTarget.checked)}
                />
              );
            })}
          </SimpleGrid>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/** Dataset settings: which datasets and properties sync, and how. */
export function DatasetSettingsDialog({
  integrationId,
  datasets,
  opened,
  onClose,
}: {
  integrationId: string;
  datasets: Dataset[];
  opened: boolean;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const [choices, setChoices] = useState<Choices>(() => Object.fromEntries(datasets.map((d) => [d.name, choiceOf(d)])));
  const save = trpc.integrations.saveDatasets.useMutation({
    onSuccess: async (saved) => {
      utils.integrations.datasets.setData({ id: integrationId }, saved);
      await utils.integrations.get.invalidate({ id: integrationId });
      onClose();
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const changes = changedChoices(datasets, choices);
  const allSelected = datasets.every((d) => choices[d.name]?.isSelected);
  const selectAll = (on: boolean) =>
    setChoices((c) =>
      Object.fromEntries(datasets.map((d) => [d.name, { ...(c[d.name] ?? choiceOf(d)), isSelected: on }])),
    );

  return (
    <Dialog opened={opened} onClose={onClose} title="Dataset settings" size="xl">
      <Stack gap="sm">
        {datasets.length === 0 && <Alert color="gray">No datasets were found.</Alert>}
        {datasets.length > 0 && (
          <Checkbox
            label="Select all datasets"
            checked={allSelected}
            onChange={(e) => selectAll(e.currentTarget.checked)}
          />
        )}
        <Accordion multiple variant="contained" chevronPosition="right">
          {datasets.map((d) => (
            <DatasetChoice
              key={d.name}
              dataset={d}
              choice={choices[d.name] ?? choiceOf(d)}
              onChange={(c) => setChoices((all) => ({ ...all, [d.name]: c }))}
            />
          ))}
        </Accordion>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={Object.keys(changes).length === 0}
            loading={save.isPending}
            onClick={() => save.mutate({ id: integrationId, datasets: changes })}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
