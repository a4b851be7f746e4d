import { Alert, Checkbox, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { COLUMN_TYPE_LABELS, STATIC_COLUMN_TYPES, type StaticColumnType } from '../../../shared/static-column-types';
import type { ColumnType } from '../../../shared/tables';
import { ColumnTypeIcon } from '../../components/data-grid/column-type-icon';
import { trpc } from '../../trpc';

/** A preview read this recently is reused (the dialog's Save reads the same one). */
export const TYPE_PREVIEW_STALE_MS = 5_000;

/**
 * The column's type, and for a new type the preview of how many values would not convert (with a
 * few of them). The change waits for `confirmed` when values would become empty.
 */
export function ColumnTypeField({
  tableId,
  columnKey,
  current,
  type,
  onType,
  confirmed,
  onConfirmed,
  disabled,
}: {
  tableId: string;
  columnKey: string;
  current: ColumnType;
  type: ColumnType;
  onType: (type: StaticColumnType) => void;
  confirmed: boolean;
  onConfirmed: (confirmed: boolean) => void;
  disabled?: boolean;
}) {
  const changing = type !== current && (STATIC_COLUMN_TYPES as readonly string[]).includes(type);
  const preview = trpc.staticTables.columnTypePreview.useQuery(
    { id: tableId, columnKey, type: type as StaticColumnType },
    { enabled: changing, staleTime: TYPE_PREVIEW_STALE_MS },
  );
  const offered = (STATIC_COLUMN_TYPES as readonly string[]).includes(current)
    ? STATIC_COLUMN_TYPES
    : [current, ...STATIC_COLUMN_TYPES];
  const lost = preview.data?.unconvertible ?? 0;
  return (
    <Stack gap={6}>
      <Select
        label="Type"
        data={offered.map((t) => ({ value: t, label: COLUMN_TYPE_LABELS[t] ?? t }))}
        value={type}
        allowDeselect={false}
        disabled={disabled}
        leftSection={<ColumnTypeIcon type={type} size={14} />}
        onChange={(value) => value && onType(value as StaticColumnType)}
        comboboxProps={{ withinPortal: true }}
      />
      {changing && preview.isPending && (
        <Group gap={6}>
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Checking the values…
          </Text>
        </Group>
      )}
      {changing && preview.isError && (
        <Alert color="red" p="xs">
          <Text size="sm">{preview.error.message}</Text>
        </Alert>
      )}
      {changing && preview.data && lost === 0 && (
        <Text size="sm" c="teal" data-testid="type-preview">
          {preview.data.values === 0
            ? 'The column holds no values yet.'
            : `All ${preview.data.values.toLocaleString()} values convert to ${COLUMN_TYPE_LABELS[type] ?? type}.`}
        </Text>
      )}
      {changing && preview.data && lost > 0 && (
        <Alert color="yellow" p="xs" data-testid="type-preview">
          <Stack gap={6}>
            <Text size="sm">
              {lost.toLocaleString()} of {preview.data.values.toLocaleString()} values cannot be read as{' '}
              {COLUMN_TYPE_LABELS[type] ?? type} and will become empty, for example:{' '}
              {preview.data.examples.map((e) => `"${e}"`).join(', ')}.
            </Text>
            <Checkbox
              label={
                lost === 1
                  ? 'Empty this value (Undo brings it back)'
                  : `Empty these ${lost.toLocaleString()} values (Undo brings them back)`
              }
              checked={confirmed}
              disabled={disabled}
              onChange={(e) => onConfirmed(e.currentTarget.checked)}
            />
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
