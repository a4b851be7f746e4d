import { ActionIcon, Button, Group, Popover, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconArrowsSort, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { INSIDE_POPOVER } from './constants';
import type { Sorting } from '../../../shared/tables';
import { PopupActions } from './popup-actions';
import type { GridColumn } from './types';
import { closeOnOwnEscape } from '../../lib/escape-innermost';

type DraftSort = { columnKey: string | null; direction: Sorting['direction'] };

/** The Sort popup: an ordered list of columns, each Ascending or Descending. */
export function SortPopup({
  columns,
  value,
  onApply,
}: {
  columns: GridColumn[];
  value: Sorting[];
  onApply: (sorting: Sorting[]) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState<DraftSort[]>([]);
  const open = () =>
    setDraft(value.length ? value.map((s) => ({ ...s })) : [{ columnKey: null, direction: 'Ascending' }]);
  const update = (i: number, patch: Partial<DraftSort>) =>
    setDraft((all) => all.map((s, si) => (si === i ? { ...s, ...patch } : s)));
  const apply = () => {
    onApply(draft.filter((s): s is Sorting => s.columnKey !== null));
    setOpened(false);
  };
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      onOpen={open}
      position="bottom-start"
      shadow="md"
      width={440}
      trapFocus
      returnFocus
      closeOnEscape={false}
      withinPortal
    >
      <Popover.Target>
        <Button
          size="xs"
          variant={value.length ? 'light' : 'default'}
          leftSection={<IconArrowsSort size={14} />}
          onClick={() => setOpened((o) => !o)}
        >
          Sort{value.length ? ` (${value.length})` : ''}
        </Button>
      </Popover.Target>
      <Popover.Dropdown onKeyDown={closeOnOwnEscape(() => setOpened(false))} style={{ maxWidth: 'calc(100vw - 16px)' }}>
        <Stack gap="xs">
          {draft.map((sort, i) => (
            <Group key={i} gap={6} wrap="nowrap">
              <Text size="xs" c="dimmed" w={44}>
                {i === 0 ? 'Sort by' : 'then'}
              </Text>
              <Select
                comboboxProps={INSIDE_POPOVER}
                aria-label="Sort column"
                size="xs"
                w={180}
                placeholder="Column"
                searchable={columns.length > 5}
                data={columns.map((c) => ({ value: c.key, label: c.name }))}
                value={sort.columnKey}
                onChange={(key) => update(i, { columnKey: key })}
              />
              <SegmentedControl
                size="xs"
                data={[
                  { value: 'Ascending', label: 'A → Z' },
                  { value: 'Descending', label: 'Z → A' },
                ]}
                value={sort.direction}
                onChange={(d) => update(i, { direction: d as Sorting['direction'] })}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label="Remove sort"
                onClick={() => setDraft((all) => all.filter((_, si) => si !== i))}
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
          ))}
          <PopupActions
            addLabel="Add sort"
            onAdd={() => setDraft((all) => [...all, { columnKey: null, direction: 'Ascending' }])}
            onClear={() => {
              onApply([]);
              setOpened(false);
            }}
            onApply={apply}
          />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
