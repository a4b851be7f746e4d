import { ActionIcon, Button, Group, NumberInput, Paper, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import {
  JOIN_OPERATORS,
  JOIN_TYPES,
  JOIN_TYPE_LABELS,
  TIME_GRAINS,
  type Join,
  type JoinCondition,
  type Model,
  type ModelSourceOption,
  type TimeGrain,
} from '../../../shared/models';
import { OPERATOR_LABELS } from '../../../shared/tables';
import { trpc } from '../../trpc';
import type { ModelHandle } from './use-model';

const refKey = (ref: { sourceId: string; sourceType: string }) => `${ref.sourceType}:${ref.sourceId}`;

function blankCondition(): JoinCondition {
  return {
    leftColumnKey: null,
    leftValue: null,
    operator: 'Equals',
    rightColumnKey: null,
    rightValue: null,
    format: null,
  };
}

/** Joins save only when both tables and every condition side are set (spec §5). */
function complete(join: Join): boolean {
  return join.joinGroups.every((g) =>
    g.conditions.every(
      (c) => (c.leftColumnKey !== null || c.leftValue !== null) && (c.rightColumnKey !== null || c.rightValue !== null),
    ),
  );
}

/** 'Data relationships': how the model's tables join, edited here and saved together. */
export function RelationshipsView({ model, handle }: { model: Model; handle: ModelHandle }) {
  const options = trpc.models.sourceOptions.useQuery({ id: model.id });
  const [joins, setJoins] = useState<Join[]>(model.joins);
  const tables = options.data ?? [];
  const byKey = new Map(tables.map((t) => [refKey(t), t]));
  const tableData = tables.map((t) => ({ value: refKey(t), label: t.name }));
  const changed = JSON.stringify(joins) !== JSON.stringify(model.joins);
  const update = (index: number, join: Join) => setJoins((all) => all.map((j, i) => (i === index ? join : j)));
  const first = model.sources[0];

  const addJoin = () => {
    const left = first ?? tables[0];
    const right = tables.find((t) => left && refKey(t) !== refKey(left));
    if (!left || !right) return;
    setJoins((all) => [
      ...all,
      {
        leftTable: { sourceId: left.sourceId, sourceType: left.sourceType },
        rightTable: { sourceId: right.sourceId, sourceType: right.sourceType },
        joinType: 'LeftOuter',
        joinGroups: [{ conditions: [blankCondition()] }],
      },
    ]);
  };

  return (
    <Stack gap="sm">
      {joins.length === 0 && (
        <Text size="sm" c="dimmed">
          No relationships yet. A model reading more than one table needs one to combine their rows.
        </Text>
      )}
      {joins.map((join, index) => (
        <Paper key={index} withBorder p="sm">
          {/* On a phone the fields wrap two to a line instead of shrinking to a few letters. */}
          <Group gap="xs" align="end" wrap="wrap">
            <Select
              label="Table"
              size="xs"
              data={tableData}
              value={refKey(join.leftTable)}
              onChange={(v) => v && update(index, { ...join, leftTable: pickRef(byKey.get(v)) ?? join.leftTable })}
              style={{ flex: '1 1 140px' }}
            />
            <Select
              label="Join"
              size="xs"
              w={120}
              data={JOIN_TYPES.map((t) => ({ value: t, label: JOIN_TYPE_LABELS[t] }))}
              value={join.joinType}
              allowDeselect={false}
              onChange={(v) => v && update(index, { ...join, joinType: v as Join['joinType'] })}
            />
            <Select
              label="With table"
              size="xs"
              data={tableData}
              value={refKey(join.rightTable)}
              onChange={(v) => v && update(index, { ...join, rightTable: pickRef(byKey.get(v)) ?? join.rightTable })}
              style={{ flex: '1 1 140px' }}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label="Remove relationship"
              onClick={() => setJoins((all) => all.filter((_, i) => i !== index))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
          {join.joinGroups[0]?.conditions.map((condition, c) => (
            <ConditionRow
              key={c}
              condition={condition}
              left={byKey.get(refKey(join.leftTable))}
              right={byKey.get(refKey(join.rightTable))}
              onChange={(next) =>
                update(index, {
                  ...join,
                  joinGroups: [{ conditions: join.joinGroups[0]!.conditions.map((x, i) => (i === c ? next : x)) }],
                })
              }
              onRemove={
                join.joinGroups[0]!.conditions.length > 1
                  ? () =>
                      update(index, {
                        ...join,
                        joinGroups: [{ conditions: join.joinGroups[0]!.conditions.filter((_, i) => i !== c) }],
                      })
                  : undefined
              }
            />
          ))}
          <Button
            size="compact-xs"
            variant="subtle"
            mt="xs"
            leftSection={<IconPlus size={12} />}
            onClick={() =>
              update(index, {
                ...join,
                joinGroups: [{ conditions: [...(join.joinGroups[0]?.conditions ?? []), blankCondition()] }],
              })
            }
          >
            Add condition
          </Button>
        </Paper>
      ))}
      <Group justify="space-between">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={addJoin}
          disabled={tables.length < 2}
        >
          Add relationship
        </Button>
        <Button
          disabled={!changed || !joins.every(complete)}
          loading={handle.setJoins.isPending}
          onClick={() => handle.setJoins.mutate({ id: model.id, joins })}
        >
          Save relationships
        </Button>
      </Group>
    </Stack>
  );
}

function pickRef(table: ModelSourceOption | undefined) {
  return table ? { sourceId: table.sourceId, sourceType: table.sourceType } : undefined;
}

function ConditionRow({
  condition,
  left,
  right,
  onChange,
  onRemove,
}: {
  condition: JoinCondition;
  left: ModelSourceOption | undefined;
  right: ModelSourceOption | undefined;
  onChange: (next: JoinCondition) => void;
  onRemove?: () => void;
}) {
  const columnData = (table: ModelSourceOption | undefined) =>
    (table?.columns ?? []).map((c) => ({ value: c.columnKey, label: c.displayName }));
  const leftType = left?.columns.find((c) => c.columnKey === condition.leftColumnKey)?.type;
  return (
    <Group gap="xs" mt="xs" wrap="wrap" align="end">
      <Select
        aria-label="Left column"
        size="xs"
        placeholder="Column"
        searchable
        data={columnData(left)}
        value={condition.leftColumnKey}
        onChange={(v) => onChange({ ...condition, leftColumnKey: v })}
        style={{ flex: '1 1 140px' }}
      />
      <Select
        aria-label="Operator"
        size="xs"
        w={140}
        data={JOIN_OPERATORS.map((o) => ({ value: o, label: OPERATOR_LABELS[o] }))}
        value={condition.operator}
        allowDeselect={false}
        onChange={(v) => v && onChange({ ...condition, operator: v as JoinCondition['operator'] })}
      />
      <Select
        aria-label="Right column"
        size="xs"
        placeholder="Column"
        searchable
        data={columnData(right)}
        value={condition.rightColumnKey}
        onChange={(v) => onChange({ ...condition, rightColumnKey: v })}
        style={{ flex: '1 1 140px' }}
      />
      {leftType === 'Number' && (
        <NumberInput
          aria-label="Tolerance"
          size="xs"
          w={90}
          placeholder="Tolerance"
          min={0}
          value={condition.format?.tolerance ?? ''}
          onChange={(v) =>
            onChange({
              ...condition,
              format: { datePrecision: null, tolerance: typeof v === 'number' ? v : null },
            })
          }
        />
      )}
      {(leftType === 'Date' || leftType === 'DateTime') && (
        <Select
          aria-label="Date precision"
          size="xs"
          w={110}
          placeholder="Precision"
          clearable
          data={[...TIME_GRAINS]}
          value={condition.format?.datePrecision ?? null}
          onChange={(v) =>
            onChange({ ...condition, format: { tolerance: null, datePrecision: v as TimeGrain | null } })
          }
        />
      )}
      {onRemove && (
        <ActionIcon variant="subtle" color="gray" aria-label="Remove condition" onClick={onRemove}>
          <IconTrash size={14} />
        </ActionIcon>
      )}
    </Group>
  );
}
