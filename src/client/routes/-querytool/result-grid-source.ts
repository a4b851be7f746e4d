/**
 * A chat result's kept rows (the first ones the reply carries) as a source for the data grid: the
 * grid's filters and sort are applied here, in the browser, to those rows. Columns are keyed by
 * position (headers may repeat), typed from their first value.
 */
import type { GridColumn, GridQuery, GridRow, GridSource } from '../../components/data-grid/types';
import type { ChatResult } from '../../../shared/chat';
import type { ColumnType, Filter, Paged } from '../../../shared/tables';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function typeOf(values: unknown[]): ColumnType {
  const sample = values.find((v) => v !== null && v !== undefined);
  if (typeof sample === 'number') return 'Number';
  if (typeof sample === 'boolean') return 'Boolean';
  if (typeof sample === 'string' && ISO_DAY.test(sample)) return 'Date';
  if (typeof sample === 'string' && ISO_TIME.test(sample)) return 'DateTime';
  if (sample !== undefined && typeof sample === 'object') return 'Json';
  return 'Text';
}

export const columnKey = (index: number) => `c${index}`;

export function resultColumns(result: ChatResult): GridColumn[] {
  return result.headers.map((name, i) => ({ key: columnKey(i), name, type: typeOf(result.rows.map((r) => r[i])) }));
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

function passes(value: unknown, f: Filter): boolean {
  const empty = value === null || value === undefined || value === '';
  const target = typeof value === 'number' && f.value !== null && f.value !== undefined ? Number(f.value) : f.value;
  const text = String(value ?? '').toLowerCase();
  switch (f.operator) {
    case 'Exists':
      return !empty;
    case 'Empty':
      return empty;
    case 'Equals':
      return compare(value, target) === 0;
    case 'NotEquals':
      return compare(value, target) !== 0;
    case 'GreaterThan':
      return !empty && compare(value, target) > 0;
    case 'LessThan':
      return !empty && compare(value, target) < 0;
    case 'GreaterThanOrEquals':
      return !empty && compare(value, target) >= 0;
    case 'LessThanOrEquals':
      return !empty && compare(value, target) <= 0;
    case 'Between': {
      const high = typeof value === 'number' ? Number(f.value2) : f.value2;
      return !empty && compare(value, target) >= 0 && compare(value, high) <= 0;
    }
    case 'Contains':
      return text.includes(String(f.value ?? '').toLowerCase());
    case 'NotContains':
      return !text.includes(String(f.value ?? '').toLowerCase());
  }
}

/** The rows that pass every group; within a group each filter joins the one before with its operator. */
export function applyQuery(rows: GridRow[], query: GridQuery): GridRow[] {
  const filtered = rows.filter((row) =>
    query.filterGroups.every(
      (group) =>
        group.filters.reduce<boolean | null>((sofar, f) => {
          const ok = passes(row[f.columnKey], f);
          if (sofar === null) return ok;
          return f.conditionOperator === 'And' ? sofar && ok : sofar || ok;
        }, null) ?? true,
    ),
  );
  if (query.sorting.length === 0) return filtered;
  return [...filtered].sort((a, b) => {
    for (const s of query.sorting) {
      const order = compare(a[s.columnKey], b[s.columnKey]);
      if (order !== 0) return s.direction === 'Descending' ? -order : order;
    }
    return 0;
  });
}

export function resultGridSource(result: ChatResult): GridSource {
  const rows: GridRow[] = result.rows.map((values, index) => {
    const row: GridRow = { _row_id: index + 1 };
    values.forEach((v, i) => (row[columnKey(i)] = v));
    return row;
  });
  return {
    key: ['chat-result', result.queryId],
    fetchPage: async ({ page, pageSize, ...query }): Promise<Paged<GridRow>> => {
      const all = applyQuery(rows, query);
      const start = (page - 1) * pageSize;
      const data = all.slice(start, start + pageSize);
      return {
        page,
        pageSize,
        count: all.length,
        totalPages: Math.max(1, Math.ceil(all.length / pageSize)),
        hasMore: start + pageSize < all.length,
        data,
      };
    },
    fetchCount: async (query) => applyQuery(rows, query).length,
  };
}
