import { Group, Select, Text, type SelectProps } from '@mantine/core';
import type { ModelColumn } from '../../../shared/models';
import { GRID } from '../../components/data-grid/constants';

interface PivotColumnSelectProps extends Omit<SelectProps, 'data' | 'value' | 'onChange'> {
  columns: readonly ModelColumn[];
  value: string | null;
  onPick: (column: ModelColumn) => void;
}

/**
 * A model column for a pivot field, its type beside its name; searchable past five columns (spec
 * §9). A key no longer in the model shows as nothing chosen, with the problem as the error.
 */
export function PivotColumnSelect({ columns, value, onPick, ...props }: PivotColumnSelectProps) {
  const byKey = new Map(columns.map((c) => [c.columnKey, c]));
  return (
    <Select
      size="xs"
      data={columns.map((c) => ({ value: c.columnKey, label: c.displayName }))}
      value={value !== null && byKey.has(value) ? value : null}
      onChange={(key) => {
        const column = key ? byKey.get(key) : undefined;
        if (column) onPick(column);
      }}
      allowDeselect={false}
      searchable={columns.length > GRID.searchableAfter}
      nothingFoundMessage="No column matches"
      renderOption={({ option }) => (
        <Group justify="space-between" wrap="nowrap" w="100%" gap="xs">
          <Text size="xs">{option.label}</Text>
          <Text size="xs" c="dimmed" aria-hidden>
            {byKey.get(option.value)?.type}
          </Text>
        </Group>
      )}
      {...props}
    />
  );
}
