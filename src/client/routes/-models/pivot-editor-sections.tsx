import { Badge, Group, Select, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import type { ModelColumn } from '../../../shared/models';
import type { Pivot } from '../../../shared/pivots';
import { GRID } from '../../components/data-grid/constants';
import { newField, newFilter, newValue, type PivotSection } from './pivot-draft';
import { FieldItem, FilterItem, ValueItem } from './pivot-editor-items';
import { PivotFieldList } from './pivot-field-list';

interface PivotEditorSectionsProps {
  draft: Pivot;
  /** The model columns a field may use (no Json or Array). */
  columns: readonly ModelColumn[];
  problem: (section: PivotSection, index: number) => string | undefined;
  valuesError?: string;
  showFilterErrors: boolean;
  onChange: (update: (draft: Pivot) => Pivot) => void;
  onMoveField: (section: 'rows' | 'columns' | 'filters', from: number, to: number) => void;
  onMoveValue: (from: number, to: number) => void;
  onRemoveValue: (index: number) => void;
}

function Section(props: {
  section: PivotSection;
  title: string;
  hint: string;
  count: number;
  required?: boolean;
  error?: string;
  children: ReactNode;
}) {
  return (
    <Stack gap={6} id={`pivot-editor-${props.section}`} role="group" aria-label={props.title}>
      <Group gap={6} justify="space-between" wrap="nowrap">
        <Group gap={6}>
          <Text fw={650} size="sm">
            {props.title}
          </Text>
          {props.required && (
            <Text span c="red.6" fw={650} aria-label="required">
              *
            </Text>
          )}
          {props.count > 0 && (
            <Badge size="xs" variant="light" color="gray">
              {props.count}
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed" ta="right">
          {props.hint}
        </Text>
      </Group>
      {props.children}
      {props.error && (
        <Text size="xs" c="red.7" role="alert">
          {props.error}
        </Text>
      )}
    </Stack>
  );
}

/** 'Add row field' and the like: choosing a column adds it, and the box is empty again. */
function AddField({
  label,
  columns,
  onAdd,
}: {
  label: string;
  columns: readonly ModelColumn[];
  onAdd: (column: ModelColumn) => void;
}) {
  const [round, setRound] = useState(0);
  return (
    <Select
      key={round}
      size="xs"
      aria-label={label}
      placeholder={columns.length ? `${label}…` : 'No more columns to add'}
      disabled={columns.length === 0}
      leftSection={<IconPlus size={14} />}
      data={columns.map((c) => ({ value: c.columnKey, label: c.displayName }))}
      value={null}
      searchable={columns.length > GRID.searchableAfter}
      nothingFoundMessage="No column matches"
      onChange={(key) => {
        const column = columns.find((c) => c.columnKey === key);
        if (!column) return;
        onAdd(column);
        setRound((r) => r + 1);
      }}
      variant="filled"
    />
  );
}

/** The editor's four sections; each field removable and reordered by dragging. */
export function PivotEditorSections(props: PivotEditorSectionsProps) {
  const { draft, columns, problem, onChange } = props;
  const name = (key: string) => columns.find((c) => c.columnKey === key)?.displayName ?? key;
  // A column groups the pivot once: as a row field or as a column field.
  const grouping = new Set([...draft.rows, ...draft.columns].map((f) => f.column));
  const ungrouped = columns.filter((c) => !grouping.has(c.columnKey));
  const withOwn = (key: string) => columns.filter((c) => c.columnKey === key || !grouping.has(c.columnKey));

  const fieldSection = (section: 'rows' | 'columns', title: string, label: string, hint: string) => (
    <Section section={section} title={title} hint={hint} count={draft[section].length}>
      <PivotFieldList
        section={section}
        items={draft[section]}
        itemLabel={(f) => name(f.column)}
        onMove={(from, to) => props.onMoveField(section, from, to)}
        emptyText={section === 'rows' ? 'No row fields: one row sums up everything.' : 'No column fields.'}
        renderItem={(field, index) => (
          <FieldItem
            label={label}
            item={field}
            number={index + 1}
            columns={withOwn(field.column)}
            problem={problem(section, index)}
            onChange={(next) =>
              onChange((d) => ({ ...d, [section]: d[section].map((f, i) => (i === index ? next : f)) }))
            }
            onRemove={() => onChange((d) => ({ ...d, [section]: d[section].filter((_, i) => i !== index) }))}
          />
        )}
      />
      <AddField
        label={`Add ${label.toLowerCase()}`}
        columns={ungrouped}
        onAdd={(column) => onChange((d) => ({ ...d, [section]: [...d[section], newField(column)] }))}
      />
    </Section>
  );

  return (
    <Stack gap="lg">
      {fieldSection('rows', 'Rows', 'Row field', 'Each value starts a row')}
      {fieldSection('columns', 'Columns', 'Column field', 'Each value starts a column')}
      <Section
        section="values"
        title="Values"
        hint="What each cell sums up"
        count={draft.values.length}
        required={draft.columns.length > 0}
        error={props.valuesError}
      >
        <PivotFieldList
          section="values"
          items={draft.values}
          itemLabel={(v) => name(v.column)}
          onMove={props.onMoveValue}
          emptyText="No values: the pivot lists its rows and columns only."
          renderItem={(value, index) => (
            <ValueItem
              item={value}
              number={index + 1}
              columns={columns}
              problem={problem('values', index)}
              onChange={(next) => onChange((d) => ({ ...d, values: d.values.map((v, i) => (i === index ? next : v)) }))}
              onRemove={() => props.onRemoveValue(index)}
            />
          )}
        />
        <AddField
          label="Add value"
          columns={columns}
          onAdd={(column) => onChange((d) => ({ ...d, values: [...d.values, newValue(column)] }))}
        />
      </Section>
      <Section section="filters" title="Filters" hint="Only rows matching all of them" count={draft.filters.length}>
        <PivotFieldList
          section="filters"
          items={draft.filters}
          itemLabel={(f) => name(f.column)}
          onMove={(from, to) => props.onMoveField('filters', from, to)}
          emptyText="No filters: the pivot reads every row of the model."
          renderItem={(filter, index) => (
            <FilterItem
              item={filter}
              number={index + 1}
              columns={columns}
              problem={problem('filters', index)}
              showErrors={props.showFilterErrors}
              onChange={(next) =>
                onChange((d) => ({ ...d, filters: d.filters.map((f, i) => (i === index ? next : f)) }))
              }
              onRemove={() => onChange((d) => ({ ...d, filters: d.filters.filter((_, i) => i !== index) }))}
            />
          )}
        />
        <AddField
          label="Add filter"
          columns={columns}
          onAdd={(column) => onChange((d) => ({ ...d, filters: [...d.filters, newFilter(column)] }))}
        />
      </Section>
    </Stack>
  );
}
