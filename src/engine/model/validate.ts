/**
 * Model consistency (spec §5): every reference to a column that is no longer there, found without
 * compiling, so a model with problems can still be shown with its buttons marked. Each issue says
 * `A column has been removed from the model. Please select another column. (<keys>)` and where it
 * is (`location`, a path into the model like a ModelError's). All issues except pivot ones are
 * breaking: the model cannot be saved with them.
 */
import { isModelError, type ModelErrorLocation } from '../errors';
import { referencedColumnKeys } from '../formula';
import type { ModelSpec, SourceRef } from './ir';
import { removedColumnMessage } from './messages';
import { SourceIndex } from './sources';

export interface ModelIssue {
  message: string;
  /** The keys that are gone: model column keys, or source column keys for raw columns and joins. */
  missingColumnKeys: string[];
  location: ModelErrorLocation;
}

/** The column's `error` in the spec's shape is `{ message, missingColumnKeys }` of its issue. */
export interface ColumnIssue extends ModelIssue {
  columnKey: string;
}

export interface JoinIssue extends ModelIssue {
  joinIndex: number;
  groupIndex: number;
  conditionIndex: number;
  side: 'left' | 'right';
}

export interface FilterIssue extends ModelIssue {
  groupIndex: number;
  filterIndex: number;
}

export interface SortIssue extends ModelIssue {
  index: number;
}

export const PIVOT_SECTIONS = ['rows', 'columns', 'values', 'filters'] as const;
export type PivotSection = (typeof PIVOT_SECTIONS)[number];

export interface PivotIssue extends ModelIssue {
  pivotKey: string;
  section: PivotSection;
  index: number;
}

/** What validation reads of a pivot: its key and the model column each field names. */
export interface PivotRefs {
  key: string;
  rows: readonly { column: string }[];
  columns: readonly { column: string }[];
  values: readonly { column: string }[];
  filters?: readonly { column: string }[];
}

export interface ModelErrors {
  columns: ColumnIssue[];
  joins: JoinIssue[];
  pivots: PivotIssue[];
  filterGroups: FilterIssue[];
  sorting: SortIssue[];
  hasBreakingErrors: boolean;
  /** Each distinct message once, in the order above. */
  texts: string[];
}

const issue = (keys: string[], location: ModelErrorLocation): ModelIssue => ({
  message: removedColumnMessage(keys),
  missingColumnKeys: keys,
  location,
});

function columnIssues(spec: ModelSpec, sources: SourceIndex, modelKeys: ReadonlySet<string>): ColumnIssue[] {
  const issues: ColumnIssue[] = [];
  spec.columns.forEach((column, index) => {
    const { columnKey } = column;
    if (typeof column.function === 'string' && column.function.trim() !== '') {
      let references: string[];
      try {
        references = referencedColumnKeys(column.function);
      } catch (error) {
        if (!isModelError(error)) throw error;
        issues.push({
          columnKey,
          message: error.message,
          missingColumnKeys: [],
          location: ['columns', index, 'function'],
        });
        return;
      }
      const missing = references.filter((key) => !modelKeys.has(key));
      if (missing.length > 0) issues.push({ columnKey, ...issue(missing, ['columns', index, 'function']) });
    } else if (column.sourceColumn) {
      const ref = column.sourceColumn;
      if (!sources.column(ref, ref.columnKey)) {
        issues.push({ columnKey, ...issue([ref.columnKey], ['columns', index, 'sourceColumn', 'columnKey']) });
      }
    }
  });
  return issues;
}

function joinIssues(spec: ModelSpec, sources: SourceIndex): JoinIssue[] {
  const issues: JoinIssue[] = [];
  spec.joins.forEach((join, joinIndex) =>
    join.joinGroups.forEach((group, groupIndex) =>
      group.conditions.forEach((condition, conditionIndex) => {
        const sides: [side: 'left' | 'right', table: SourceRef, key: string | null | undefined][] = [
          ['left', join.leftTable, condition.leftColumnKey],
          ['right', join.rightTable, condition.rightColumnKey],
        ];
        for (const [side, table, key] of sides) {
          if (typeof key !== 'string' || key === '' || sources.column(table, key)) continue;
          const location = [
            'joins',
            joinIndex,
            'joinGroups',
            groupIndex,
            'conditions',
            conditionIndex,
            `${side}ColumnKey`,
          ];
          issues.push({ joinIndex, groupIndex, conditionIndex, side, ...issue([key], location) });
        }
      }),
    ),
  );
  return issues;
}

function pivotIssues(pivots: readonly PivotRefs[], modelKeys: ReadonlySet<string>): PivotIssue[] {
  const issues: PivotIssue[] = [];
  pivots.forEach((pivot, pivotIndex) => {
    for (const section of PIVOT_SECTIONS) {
      (pivot[section] ?? []).forEach((field, index) => {
        if (modelKeys.has(field.column)) return;
        const location = ['pivots', pivotIndex, section, index, 'column'];
        issues.push({ pivotKey: pivot.key, section, index, ...issue([field.column], location) });
      });
    }
  });
  return issues;
}

export function validateModel(spec: ModelSpec, pivots: readonly PivotRefs[] = []): ModelErrors {
  const sources = new SourceIndex(spec.sources);
  const modelKeys = new Set(spec.columns.map((column) => column.columnKey));
  const filterGroups: FilterIssue[] = [];
  spec.filterGroups.forEach((group, groupIndex) =>
    group.filters.forEach((filter, filterIndex) => {
      if (modelKeys.has(filter.columnKey)) return;
      const location = ['filterGroups', groupIndex, 'filters', filterIndex, 'columnKey'];
      filterGroups.push({ groupIndex, filterIndex, ...issue([filter.columnKey], location) });
    }),
  );
  const sorting: SortIssue[] = [];
  spec.sort.forEach((sort, index) => {
    if (!modelKeys.has(sort.columnKey))
      sorting.push({ index, ...issue([sort.columnKey], ['sort', index, 'columnKey']) });
  });

  const errors = {
    columns: columnIssues(spec, sources, modelKeys),
    joins: joinIssues(spec, sources),
    pivots: pivotIssues(pivots, modelKeys),
    filterGroups,
    sorting,
  };
  const breaking = [errors.columns, errors.joins, errors.filterGroups, errors.sorting];
  const all: ModelIssue[] = [
    ...errors.columns,
    ...errors.joins,
    ...errors.pivots,
    ...errors.filterGroups,
    ...errors.sorting,
  ];
  return {
    ...errors,
    hasBreakingErrors: breaking.some((list) => list.length > 0),
    texts: [...new Set(all.map((entry) => entry.message))],
  };
}
