import { ActionIcon, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { ModelColumn } from '../../../shared/models';
import {
  AGGREGATIONS_BY_TYPE,
  AGGREGATION_LABELS,
  PIVOT_SHOW_AS,
  PIVOT_TIME_GRAINS,
  PIVOT_TIME_GRAIN_EXAMPLES,
  PIVOT_TIME_GRAIN_LABELS,
  SHOW_AS_LABELS,
  pivotValueLabel,
  takesTimeGrain,
  type PivotAggregation,
  type PivotTimeGrain,
  type PivotField,
  type PivotFilter,
  type PivotShowAs,
  type PivotValue,
} from '../../../shared/pivots';
import {
  OPERATORS_BY_TYPE,
  OPERATOR_LABELS,
  TWO_VALUE_OPERATORS,
  VALUELESS_OPERATORS,
  type FilterOperator,
} from '../../../shared/tables';
import { FilterValueInput } from '../../components/data-grid/filter-value-input';
import { PivotColumnSelect } from './pivot-column-select';
import { newFilter, withFieldColumn, withValueColumn } from './pivot-draft';

const EXACT_VALUE = 'exact';

/** The editor's items: a row or column field, a value, a filter; each removable. */

function RemoveButton({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <ActionIcon variant="subtle" color="gray" size="md" mt={2} aria-label={label} onClick={onRemove}>
      <IconX size={16} />
    </ActionIcon>
  );
}

interface ItemProps<T> {
  item: T;
  /** 1-based, for the fields' labels ("Row field 2"). */
  number: number;
  columns: readonly ModelColumn[];
  problem?: string;
  onChange: (next: T) => void;
  onRemove: () => void;
}

/** The grain select's choices: the exact value, then the grains with how their groups read. */
const GRAIN_OPTIONS = [
  { value: EXACT_VALUE, label: 'Exact value' },
  ...PIVOT_TIME_GRAINS.map((grain) => ({
    value: grain,
    label: `${PIVOT_TIME_GRAIN_LABELS[grain]} (${PIVOT_TIME_GRAIN_EXAMPLES[grain]})`,
  })),
];

export function FieldItem({ label, ...props }: ItemProps<PivotField> & { label: string }) {
  const { item, columns, problem, onChange, onRemove } = props;
  const column = columns.find((c) => c.columnKey === item.column);
  const dated = column !== undefined && takesTimeGrain(column.type);
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <PivotColumnSelect
        aria-label={`${label} ${props.number}`}
        columns={columns}
        value={item.column}
        onPick={(picked) => onChange(withFieldColumn(item, picked))}
        error={problem}
        placeholder="Choose a column"
        style={{ flex: 1 }}
      />
      {dated && (
        <Select
          size="xs"
          w={150}
          aria-label={`${label} ${props.number} group by`}
          data={GRAIN_OPTIONS}
          value={item.grain ?? EXACT_VALUE}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          onChange={(v) => v && onChange({ ...item, grain: v === EXACT_VALUE ? null : (v as PivotTimeGrain) })}
        />
      )}
      <RemoveButton label={`Remove ${label.toLowerCase()} ${props.number}`} onRemove={onRemove} />
    </Group>
  );
}

export function ValueItem(props: ItemProps<PivotValue>) {
  const { item, number, columns, problem, onChange, onRemove } = props;
  const column = columns.find((c) => c.columnKey === item.column);
  const aggregations = column ? AGGREGATIONS_BY_TYPE[column.type] : [item.function];
  return (
    <Stack gap={6}>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <PivotColumnSelect
          aria-label={`Value ${number} column`}
          columns={columns}
          value={item.column}
          onPick={(picked) => onChange(withValueColumn(item, picked))}
          error={problem}
          placeholder="Choose a column"
          style={{ flex: 1 }}
        />
        <Select
          size="xs"
          w={130}
          aria-label={`Value ${number} aggregation`}
          data={aggregations.map((a) => ({ value: a, label: AGGREGATION_LABELS[a] }))}
          value={item.function}
          allowDeselect={false}
          onChange={(v) => v && onChange({ ...item, function: v as PivotAggregation })}
        />
        <RemoveButton label={`Remove value ${number}`} onRemove={onRemove} />
      </Group>
      <Group gap={6} wrap="nowrap" pr={34}>
        <Select
          size="xs"
          w={150}
          aria-label={`Value ${number} show as`}
          leftSection={
            <Text size="10px" c="dimmed" fw={600}>
              AS
            </Text>
          }
          data={PIVOT_SHOW_AS.map((s) => ({ value: s, label: SHOW_AS_LABELS[s] }))}
          value={item.showAs}
          allowDeselect={false}
          onChange={(v) => v && onChange({ ...item, showAs: v as PivotShowAs })}
        />
        <TextInput
          size="xs"
          aria-label={`Value ${number} display name`}
          placeholder={pivotValueLabel(item, column?.displayName ?? item.column)}
          value={item.displayName ?? ''}
          onChange={(e) => onChange({ ...item, displayName: e.currentTarget.value })}
          maxLength={200}
          style={{ flex: 1 }}
        />
      </Group>
    </Stack>
  );
}

export function FilterItem({ showErrors, ...props }: ItemProps<PivotFilter> & { showErrors: boolean }) {
  const { item, number, columns, problem, onChange, onRemove } = props;
  const type = columns.find((c) => c.columnKey === item.column)?.type ?? 'Text';
  const operators = OPERATORS_BY_TYPE[type];
  const valueless = VALUELESS_OPERATORS.includes(item.operator);
  const between = TWO_VALUE_OPERATORS.includes(item.operator);
  return (
    <Stack gap={6}>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <PivotColumnSelect
          aria-label={`Filter ${number} column`}
          columns={columns}
          value={item.column}
          onPick={(picked) =>
            onChange(picked.type === type ? { ...item, column: picked.columnKey } : newFilter(picked))
          }
          error={problem}
          placeholder="Choose a column"
          style={{ flex: 1 }}
        />
        <Select
          size="xs"
          w={150}
          aria-label={`Filter ${number} operator`}
          data={operators.map((o) => ({ value: o, label: OPERATOR_LABELS[o] }))}
          value={item.operator}
          allowDeselect={false}
          onChange={(v) => v && onChange({ ...item, operator: v as FilterOperator })}
        />
        <RemoveButton label={`Remove filter ${number}`} onRemove={onRemove} />
      </Group>
      {!valueless && (
        <Group gap={6} wrap="nowrap" align="flex-start" pr={34}>
          <FilterValueInput
            type={type}
            label={`Filter ${number} value`}
            value={item.value}
            onChange={(value) => onChange({ ...item, value })}
            showError={showErrors}
          />
          {between && (
            <>
              <Text size="xs" c="dimmed" mt={6}>
                and
              </Text>
              <FilterValueInput
                type={type}
                label={`Filter ${number} second value`}
                value={item.value2}
                onChange={(value2) => onChange({ ...item, value2 })}
                showError={showErrors}
              />
            </>
          )}
        </Group>
      )}
    </Stack>
  );
}
