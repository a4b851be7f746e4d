import { Badge, Button, Group, Popover, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconArrowsSort } from '@tabler/icons-react';
import { useState } from 'react';
import { pivotValueLabel, type Pivot, type PivotField, type PivotSort } from '../../../shared/pivots';
import type { SortDirection } from '../../../shared/tables';
import { INSIDE_POPOVER } from '../../components/data-grid/constants';

type FieldSection = 'rows' | 'columns';

const BY_KEY = 'key';

/**
 * 'Sort': how the keys of each row and column field are ordered, by the key itself or by one of
 * the values, ascending or descending (`pivotSortSchema`). Applied together, saved with the pivot.
 */
export function PivotSortPopover({
  pivot,
  columnName,
  onApply,
}: {
  pivot: Pivot;
  columnName: (columnKey: string) => string;
  onApply: (next: Pivot) => Promise<unknown>;
}) {
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState(pivot);
  const [saving, setSaving] = useState(false);
  const sorted = [...pivot.rows, ...pivot.columns].filter(
    (f) => f.sort.valueIndex !== null || f.sort.direction === 'Descending',
  ).length;
  const orderOptions = (field: PivotField) => [
    { value: BY_KEY, label: `${columnName(field.column)} (the field itself)` },
    ...draft.values.map((v, i) => ({ value: String(i), label: pivotValueLabel(v, columnName(v.column)) })),
  ];
  const setSort = (section: FieldSection, index: number, sort: PivotSort) =>
    setDraft((d) => ({ ...d, [section]: d[section].map((f, i) => (i === index ? { ...f, sort } : f)) }));

  const apply = async () => {
    setSaving(true);
    try {
      await onApply(draft);
      setOpened(false);
    } finally {
      setSaving(false);
    }
  };
  const field = (section: FieldSection, f: PivotField, index: number) => (
    <Group key={`${section}${index}`} gap="xs" wrap="nowrap" align="end">
      <Select
        comboboxProps={INSIDE_POPOVER}
        size="xs"
        label={`${section === 'rows' ? 'Rows' : 'Columns'}: ${columnName(f.column)}`}
        aria-label={`Order ${columnName(f.column)} by`}
        data={orderOptions(f)}
        allowDeselect={false}
        value={f.sort.valueIndex === null ? BY_KEY : String(f.sort.valueIndex)}
        onChange={(v) => setSort(section, index, { ...f.sort, valueIndex: !v || v === BY_KEY ? null : Number(v) })}
        style={{ flex: 1 }}
      />
      <SegmentedControl
        size="xs"
        aria-label={`Direction of ${columnName(f.column)}`}
        value={f.sort.direction}
        onChange={(v) => setSort(section, index, { ...f.sort, direction: v as SortDirection })}
        data={[
          { value: 'Ascending', label: 'Ascending' },
          { value: 'Descending', label: 'Descending' },
        ]}
      />
    </Group>
  );

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={460} trapFocus>
      <Popover.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconArrowsSort size={14} />}
          rightSection={sorted > 0 ? <Badge size="xs">{sorted}</Badge> : undefined}
          onClick={() => {
            if (!opened) setDraft(pivot);
            setOpened((o) => !o);
          }}
        >
          Sort
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm">
          {draft.rows.length + draft.columns.length === 0 ? (
            <Text size="sm" c="dimmed">
              Add row or column fields to choose their order.
            </Text>
          ) : (
            <>
              {draft.rows.map((f, i) => field('rows', f, i))}
              {draft.columns.map((f, i) => field('columns', f, i))}
            </>
          )}
          <Group justify="flex-end" gap="xs" mt="xs">
            <Button size="xs" variant="default" onClick={() => setOpened(false)}>
              Cancel
            </Button>
            <Button size="xs" onClick={() => void apply()} loading={saving}>
              Apply
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
