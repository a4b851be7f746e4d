import { Button, Checkbox, Group, ScrollArea, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Model } from '../../../shared/models';
import { trpc } from '../../trpc';
import { FunctionEditor } from './function-editor';
import { formulaBlocker, useFormulaCheck } from './use-formula-check';
import type { ModelHandle } from './use-model';

/** 'Add column': raw data columns picked from a table, or a function column written as a formula. */
export function AddColumnView({ model, handle }: { model: Model; handle: ModelHandle }) {
  return (
    <Tabs defaultValue="raw">
      <Tabs.List>
        <Tabs.Tab value="raw">Add raw data column</Tabs.Tab>
        <Tabs.Tab value="function">Add function column</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="raw" pt="md">
        <RawColumns model={model} handle={handle} />
      </Tabs.Panel>
      <Tabs.Panel value="function" pt="md">
        <FunctionColumn model={model} handle={handle} />
      </Tabs.Panel>
    </Tabs>
  );
}

function RawColumns({ model, handle }: { model: Model; handle: ModelHandle }) {
  const options = trpc.models.sourceOptions.useQuery({ id: model.id });
  const [sourceKey, setSourceKey] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const source = options.data?.find((s) => `${s.sourceType}:${s.sourceId}` === sourceKey);
  const add = async () => {
    if (!source) return;
    for (const columnKey of picked) {
      const column = source.columns.find((c) => c.columnKey === columnKey);
      await handle.addColumn.mutateAsync({
        id: model.id,
        column: {
          displayName: column?.displayName ?? columnKey,
          sourceColumn: { sourceId: source.sourceId, sourceType: source.sourceType, columnKey },
        },
      });
    }
    setPicked([]);
  };
  return (
    <Stack gap="sm">
      <Select
        label="Table"
        placeholder={options.isPending ? 'Loading tables…' : 'Choose a table'}
        searchable
        data={(options.data ?? []).map((s) => ({
          value: `${s.sourceType}:${s.sourceId}`,
          label: `${s.name} (${s.groupName})`,
        }))}
        value={sourceKey}
        onChange={(v) => {
          setSourceKey(v);
          setPicked([]);
        }}
        nothingFoundMessage="No tables yet: create one under Tables."
      />
      {source && (
        <>
          <Group justify="space-between">
            <Text size="sm" fw={500}>
              Columns
            </Text>
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => setPicked(source.columns.map((c) => c.columnKey))}
            >
              Select all
            </Button>
          </Group>
          <ScrollArea.Autosize mah={320}>
            <Checkbox.Group value={picked} onChange={setPicked}>
              <Stack gap={6}>
                {source.columns.map((c) => (
                  <Checkbox key={c.columnKey} value={c.columnKey} label={`${c.displayName} (${c.type})`} />
                ))}
              </Stack>
            </Checkbox.Group>
          </ScrollArea.Autosize>
        </>
      )}
      <Group justify="flex-end">
        <Button
          disabled={!source || picked.length === 0}
          loading={handle.addColumn.isPending}
          onClick={() => void add()}
        >
          Add {picked.length > 1 ? `${picked.length} columns` : 'column'}
        </Button>
      </Group>
    </Stack>
  );
}

function FunctionColumn({ model, handle }: { model: Model; handle: ModelHandle }) {
  const [name, setName] = useState('');
  const [formula, setFormula] = useState('');
  const check = useFormulaCheck(model, formula);
  const blocked = !name.trim() ? 'Enter a column name.' : check.status === 'valid' ? null : formulaBlocker(check);
  return (
    <Stack gap="sm">
      <TextInput label="Column name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <FunctionEditor model={model} value={formula} onChange={setFormula} check={check} />
      <Group justify="flex-end" gap="sm">
        {blocked && (
          <Text size="xs" c="dimmed" role="status">
            {blocked}
          </Text>
        )}
        <Button
          disabled={blocked !== null}
          loading={handle.addColumn.isPending}
          onClick={() =>
            handle.addColumn.mutate(
              { id: model.id, column: { displayName: name.trim(), function: formula } },
              {
                onSuccess: () => {
                  setName('');
                  setFormula('');
                },
              },
            )
          }
        >
          Add function column
        </Button>
      </Group>
    </Stack>
  );
}
