import { Button, Group, Pill, Text, Tooltip, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconAdjustmentsHorizontal, IconAlertTriangle, IconFilter, IconTableOptions } from '@tabler/icons-react';
import type { Model } from '../../../shared/models';
import type { Pivot, PivotFilter } from '../../../shared/pivots';
import { OPERATOR_LABELS, TWO_VALUE_OPERATORS, VALUELESS_OPERATORS } from '../../../shared/tables';
import { isEmptyPivot, type PivotSection } from './pivot-draft';
import { usePivotExportAction } from './pivot-export-menu';
import { ResponsiveToolbar } from '../../components/responsive-toolbar';
import { PivotSortPopover } from './pivot-sort-popover';

interface PivotToolbarProps {
  model: Model;
  pivot: Pivot;
  /** The pivot's validation problems, by section and index. */
  problems: Map<string, string>;
  /** 'Displaying N row(s)', or that rows are loading. */
  status: string;
  onEdit: (section?: PivotSection) => void;
  onSave: (next: Pivot) => Promise<unknown>;
  onColumns: () => void;
  /** May change the pivot: without it, no control that changes it shows (the header marks the page View only). */
  canWrite: boolean;
  /** The Table/Chart switch and the chart type, first in the toolbar. */
  view: ReactNode;
  /** 'Save as report…' in the export menu (writers only). */
  onSaveReport?: () => void;
}

function valueText(value: PivotFilter['value']): string {
  if (value === undefined || value === null || value === '') return '…';
  return typeof value === 'string' ? `"${value}"` : String(value);
}

/** "Customer equals "Ada"", "Amount is between 1 and 5", "City is empty". */
export function filterSummary(filter: PivotFilter, columnName: string): string {
  const head = `${columnName} ${OPERATOR_LABELS[filter.operator]}`;
  if (VALUELESS_OPERATORS.includes(filter.operator)) return head;
  if (TWO_VALUE_OPERATORS.includes(filter.operator)) {
    return `${head} ${valueText(filter.value)} and ${valueText(filter.value2)}`;
  }
  return `${head} ${valueText(filter.value)}`;
}

/**
 * Above the pivot: its filters (a chip each, removable; a click opens the editor), Sort, 'Edit
 * pivot' (marked with the pivot's problems), 'Export pivot', 'Columns and relationships'.
 */
export function PivotToolbar(props: PivotToolbarProps) {
  const { model, pivot, problems, status, onEdit, onSave, onColumns, canWrite, view, onSaveReport } = props;
  const names = new Map(model.columns.map((c) => [c.columnKey, c.displayName]));
  const columnName = (key: string) => names.get(key) ?? key;
  const problemText = [...new Set(problems.values())].join('\n');
  const exportPivot = usePivotExportAction({
    modelId: model.id,
    versionId: model.versionId,
    pivotKey: pivot.key,
    blocked: isEmptyPivot(pivot),
    onSaveReport,
  });

  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Group gap="xs">
        {view}
        {canWrite && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFilter size={14} />}
            onClick={() => onEdit('filters')}
            aria-label="Pivot filters"
          >
            Filter
          </Button>
        )}
        {pivot.filters.length > 0 && <ReadOnlyFilters pivot={pivot} columnName={columnName} hidden={canWrite} />}
        {canWrite && pivot.filters.length > 0 && (
          <Pill.Group aria-label="Pivot filters in use">
            {pivot.filters.map((filter, index) => (
              <Pill
                key={index}
                withRemoveButton
                // Mantine hides the remove button from keyboards and screen readers; this one is a real button.
                removeButtonProps={{ 'aria-label': `Remove filter ${index + 1}`, 'aria-hidden': false, tabIndex: 0 }}
                onRemove={() => void onSave({ ...pivot, filters: pivot.filters.filter((_, i) => i !== index) })}
                bg={problems.has(`filters:${index}`) ? 'red.0' : 'blue.0'}
                c={problems.has(`filters:${index}`) ? 'red.8' : 'blue.9'}
              >
                <UnstyledButton fz="inherit" c="inherit" onClick={() => onEdit('filters')} title="Edit the filters">
                  {filterSummary(filter, columnName(filter.column))}
                </UnstyledButton>
              </Pill>
            ))}
          </Pill.Group>
        )}
        {canWrite && <PivotSortPopover pivot={pivot} columnName={columnName} onApply={onSave} />}
        {/* On a phone, Export pivot and 'Columns and relationships' go into '…'; Edit pivot stays. */}
        <ResponsiveToolbar
          collapseBelow="sm"
          justify="flex-start"
          actions={[
            canWrite && {
              key: 'edit',
              label: 'Edit pivot',
              pinned: true,
              inline: (
                <Tooltip label={problemText} disabled={!problemText} multiline maw={360}>
                  <Button
                    size="xs"
                    variant="light"
                    color={problemText ? 'red' : undefined}
                    leftSection={
                      problemText ? <IconAlertTriangle size={14} /> : <IconAdjustmentsHorizontal size={14} />
                    }
                    data-problem={problemText ? true : undefined}
                    onClick={() => onEdit()}
                  >
                    Edit pivot
                  </Button>
                </Tooltip>
              ),
            },
            exportPivot.action,
            canWrite && {
              key: 'columns',
              label: 'Columns and relationships',
              icon: <IconTableOptions size={14} />,
              onClick: onColumns,
            },
          ]}
        />
        {exportPivot.frame}
      </Group>
      <Text size="xs" c="dimmed" aria-live="polite" style={{ whiteSpace: 'nowrap', lineHeight: '30px' }}>
        {status}
      </Text>
    </Group>
  );
}

/** The filters as plain chips for a reader, who sees what the pivot is filtered by but cannot change it. */
function ReadOnlyFilters({
  pivot,
  columnName,
  hidden,
}: {
  pivot: Pivot;
  columnName: (key: string) => string;
  hidden: boolean;
}) {
  if (hidden) return null;
  return (
    <Pill.Group aria-label="Pivot filters in use">
      {pivot.filters.map((filter, index) => (
        <Pill key={index} bg="gray.1">
          {filterSummary(filter, columnName(filter.column))}
        </Pill>
      ))}
    </Pill.Group>
  );
}
