import { ActionIcon, Button, Divider, Group, Popover, Select, Stack, Text } from '@mantine/core';
import { IconFilter, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import {
  OPERATOR_LABELS,
  OPERATORS_BY_TYPE,
  TWO_VALUE_OPERATORS,
  VALUELESS_OPERATORS,
  type Filter,
  type FilterGroup,
  type FilterOperator,
} from '../../../shared/tables';
import { closeOnOwnEscape } from '../../lib/escape-innermost';
import { FilterValueInput } from './filter-value-input';
import { PopupActions } from './popup-actions';
import { INSIDE_POPOVER } from './constants';
import type { GridColumn } from './types';

export const COLUMN_REQUIRED = 'All filters must have a column selected';

/** A filter being edited: its column may still be unset. */
type DraftFilter = Omit<Filter, 'columnKey'> & { columnKey: string | null };
type DraftGroup = { filters: DraftFilter[] };

function blankFilter(columnKey: string | null = null, operator: FilterOperator = 'Equals'): DraftFilter {
  return { columnKey, operator, value: null, value2: null, conditionOperator: 'Or' };
}

function hasValue(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

export function filterIsComplete(f: DraftFilter): boolean {
  if (!f.columnKey) return false;
  if (VALUELESS_OPERATORS.includes(f.operator)) return true;
  if (!hasValue(f.value)) return false;
  return !TWO_VALUE_OPERATORS.includes(f.operator) || hasValue(f.value2);
}

/** Only what a query needs: values of value-less operators are dropped. */
function toFilterGroups(groups: DraftGroup[]): FilterGroup[] {
  return groups
    .map((g) => ({
      filters: g.filters.map((f) => ({
        ...f,
        columnKey: f.columnKey ?? '',
        value: VALUELESS_OPERATORS.includes(f.operator) ? null : f.value,
        value2: TWO_VALUE_OPERATORS.includes(f.operator) ? f.value2 : null,
      })),
    }))
    .filter((g) => g.filters.length > 0);
}

interface FilterPopupProps {
  columns: GridColumn[];
  value: FilterGroup[];
  onApply: (groups: FilterGroup[]) => void;
  /** Opened from a column header or a cell: starts with that column (and value). */
  seed?: { columnKey: string; value?: string | number | boolean | null } | null;
  opened: boolean;
  onOpenedChange: (opened: boolean) => void;
}

/**
 * The Filter popup: groups of filters (groups are all required; inside a group each filter says
 * And or Or). Apply stays disabled until every filter has a column; empty values are flagged.
 */
export function FilterPopup({ columns, value, onApply, seed, opened, onOpenedChange }: FilterPopupProps) {
  const [groups, setGroups] = useState<DraftGroup[]>([]);
  const [tried, setTried] = useState(false);
  const typeOf = (key: string | null) => columns.find((c) => c.key === key)?.type ?? 'Text';

  const open = () => {
    const start: DraftGroup[] = value.length ? value.map((g) => ({ filters: g.filters.map((f) => ({ ...f })) })) : [];
    if (seed) {
      const operator: FilterOperator =
        seed.value === undefined ? OPERATORS_BY_TYPE[typeOf(seed.columnKey)][0]! : 'Equals';
      const filter = { ...blankFilter(seed.columnKey, operator), value: seed.value ?? null };
      if (start.length === 0) start.push({ filters: [] });
      start[start.length - 1]!.filters.push(filter);
    }
    if (start.length === 0) start.push({ filters: [blankFilter()] });
    setGroups(start);
    setTried(false);
  };

  const update = (g: number, i: number, patch: Partial<DraftFilter>) =>
    setGroups((all) =>
      all.map((group, gi) =>
        gi !== g ? group : { filters: group.filters.map((f, fi) => (fi === i ? { ...f, ...patch } : f)) },
      ),
    );
  const remove = (g: number, i: number) =>
    setGroups((all) =>
      all
        .map((group, gi) => (gi !== g ? group : { filters: group.filters.filter((_, fi) => fi !== i) }))
        .filter((group) => group.filters.length > 0),
    );

  const allHaveColumns = groups.every((g) => g.filters.every((f) => f.columnKey));
  const complete = groups.every((g) => g.filters.every(filterIsComplete));
  const apply = () => {
    setTried(true);
    if (!allHaveColumns || !complete) return;
    onApply(toFilterGroups(groups));
    onOpenedChange(false);
  };
  const activeCount = value.reduce((n, g) => n + g.filters.length, 0);

  return (
    <Popover
      opened={opened}
      onChange={onOpenedChange}
      onOpen={open}
      position="bottom-start"
      shadow="md"
      width={720}
      trapFocus
      returnFocus
      closeOnEscape={false}
      withinPortal
    >
      <Popover.Target>
        <Button
          size="xs"
          variant={activeCount ? 'light' : 'default'}
          leftSection={<IconFilter size={14} />}
          onClick={() => onOpenedChange(!opened)}
        >
          Filter{activeCount ? ` (${activeCount})` : ''}
        </Button>
      </Popover.Target>
      <Popover.Dropdown
        onKeyDown={closeOnOwnEscape(() => onOpenedChange(false))}
        style={{ maxWidth: 'calc(100vw - 16px)' }}
      >
        <Stack gap="sm">
          {groups.length === 0 && (
            <Text size="sm" c="dimmed">
              No filters. Add one to narrow the rows.
            </Text>
          )}
          {groups.map((group, g) => (
            <Stack key={g} gap={6}>
              {g > 0 && <Divider label="and" labelPosition="left" />}
              {group.filters.map((filter, i) => {
                const type = typeOf(filter.columnKey);
                const operators = OPERATORS_BY_TYPE[type];
                return (
                  <Group key={i} gap={6} align="flex-start">
                    {i === 0 ? (
                      <Text size="xs" w={70} pt={6} c="dimmed">
                        {g === 0 ? 'Where' : 'And where'}
                      </Text>
                    ) : (
                      <Select
                        comboboxProps={INSIDE_POPOVER}
                        aria-label="Combine with"
                        size="xs"
                        w={70}
                        data={['And', 'Or']}
                        value={filter.conditionOperator}
                        allowDeselect={false}
                        onChange={(v) => v && update(g, i, { conditionOperator: v as 'And' | 'Or' })}
                      />
                    )}
                    <Select
                      comboboxProps={INSIDE_POPOVER}
                      aria-label="Column"
                      size="xs"
                      w={170}
                      placeholder="Column"
                      searchable={columns.length > 5}
                      data={columns.map((c) => ({ value: c.key, label: c.name }))}
                      value={filter.columnKey}
                      error={tried && !filter.columnKey}
                      onChange={(key) => {
                        const nextOps = OPERATORS_BY_TYPE[typeOf(key)];
                        update(g, i, {
                          columnKey: key,
                          operator: nextOps.includes(filter.operator) ? filter.operator : nextOps[0]!,
                          value: null,
                          value2: null,
                        });
                      }}
                    />
                    <Select
                      comboboxProps={INSIDE_POPOVER}
                      aria-label="Operator"
                      size="xs"
                      w={150}
                      data={operators.map((op) => ({ value: op, label: OPERATOR_LABELS[op] }))}
                      value={filter.operator}
                      allowDeselect={false}
                      onChange={(op) => op && update(g, i, { operator: op as FilterOperator })}
                    />
                    {!VALUELESS_OPERATORS.includes(filter.operator) && (
                      <FilterValueInput
                        label="Value"
                        type={type}
                        value={filter.value}
                        showError={tried}
                        onChange={(v) => update(g, i, { value: v })}
                      />
                    )}
                    {TWO_VALUE_OPERATORS.includes(filter.operator) && (
                      <FilterValueInput
                        label="Second value"
                        type={type}
                        value={filter.value2}
                        showError={tried}
                        onChange={(v) => update(g, i, { value2: v })}
                      />
                    )}
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label="Remove filter"
                      onClick={() => remove(g, i)}
                      mt={2}
                    >
                      <IconTrash size={14} />
                    </ActionIcon>
                  </Group>
                );
              })}
              <Group gap="xs">
                <Button
                  size="compact-xs"
                  variant="subtle"
                  leftSection={<IconPlus size={12} />}
                  onClick={() =>
                    setGroups((all) =>
                      all.map((gr, gi) => (gi === g ? { filters: [...gr.filters, blankFilter()] } : gr)),
                    )
                  }
                >
                  Add filter
                </Button>
              </Group>
            </Stack>
          ))}
          <PopupActions
            addLabel="Add filter group"
            onAdd={() => setGroups((all) => [...all, { filters: [blankFilter()] }])}
            onClear={() => {
              onApply([]);
              onOpenedChange(false);
            }}
            onApply={apply}
            blockedReason={allHaveColumns ? null : COLUMN_REQUIRED}
          />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
