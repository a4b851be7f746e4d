/**
 * A pivot computed in plain TypeScript from the rows themselves, the way the README defines it, with
 * no SQL: the independent side of the differential test. Loops over rows, nothing clever.
 */
import type { PivotAggregation } from '../../src/shared/pivots';
import type { PivotSpec, PivotValueSpec } from '../../src/engine/pivot';

export type Value = string | number | boolean | null;
export type DataRow = Record<string, Value>;

export interface ReferenceResult {
  columnKeys: (string | null)[][];
  /** Rows of the grid, cells in layout order: row fields, then per key each value, then row totals. */
  grid: Value[][];
}

/** Natural order of non-null values of one type: numbers, text by UTF-8 bytes (as DuckDB), false before true. */
function compare(a: Exclude<Value, null>, b: Exclude<Value, null>): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return Buffer.compare(Buffer.from(String(a), 'utf8'), Buffer.from(String(b), 'utf8'));
}

function compareNullsLast(a: Value, b: Value, descending: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = compare(a, b);
  return descending ? -order : order;
}

export function aggregate(func: PivotAggregation, values: Value[]): Value {
  const present = values.filter((value): value is Exclude<Value, null> => value !== null);
  switch (func) {
    case 'Count':
      return present.length;
    case 'CountUnique':
      return new Set(present).size;
    case 'Sum':
      return present.length === 0 ? null : present.reduce<number>((sum, value) => sum + Number(value), 0);
    case 'Avg':
      return present.length === 0
        ? null
        : present.reduce<number>((sum, value) => sum + Number(value), 0) / present.length;
    case 'Min':
    case 'Max': {
      if (present.length === 0) return null;
      const sign = func === 'Min' ? 1 : -1;
      return present.reduce((best, value) => (sign * compare(value, best) < 0 ? value : best));
    }
  }
}

const ratio = (a: Value, b: Value): Value => (a === null || b === null || b === 0 ? null : Number(a) / Number(b));

/** The text a column key travels as: DuckDB's CAST(.. AS VARCHAR) of the generated types. */
function keyText(value: Value): string | null {
  return value === null ? null : String(value);
}

export function referencePivot(data: DataRow[], pivot: PivotSpec): ReferenceResult {
  const values = pivot.values;
  const agg = (value: PivotValueSpec, rows: DataRow[]): Value =>
    aggregate(
      value.function ?? 'Sum',
      rows.map((row) => row[value.column] ?? null),
    );
  const matching = (rows: DataRow[], columns: readonly string[], tuple: Value[]) =>
    rows.filter((row) => tuple.every((part, index) => (row[columns[index]!] ?? null) === part));

  /** Orders tuples (or prefixes of them: a shorter one is the total after its group) field by field. */
  const sorter = (fields: PivotSpec['rows'], rows: DataRow[]) => {
    const columns = fields.map((field) => field.column);
    return (a: Value[], b: Value[]): number => {
      for (let index = 0; index < fields.length; index += 1) {
        if (a.length <= index || b.length <= index) return a.length === b.length ? 0 : a.length <= index ? 1 : -1;
        if (a[index] === b[index]) continue;
        const descending = fields[index]!.sort?.direction === 'Descending';
        const valueIndex = fields[index]!.sort?.valueIndex ?? null;
        if (valueIndex !== null) {
          const of = (tuple: Value[]) => agg(values[valueIndex]!, matching(rows, columns, tuple.slice(0, index + 1)));
          const byValue = compareNullsLast(of(a), of(b), descending);
          if (byValue !== 0) return byValue;
        }
        return compareNullsLast(a[index]!, b[index]!, valueIndex === null && descending);
      }
      return 0;
    };
  };
  const distinct = (rows: DataRow[], columns: readonly string[]): Value[][] => {
    const seen = new Map<string, Value[]>();
    for (const row of rows) {
      const tuple = columns.map((column) => row[column] ?? null);
      seen.set(JSON.stringify(tuple), tuple);
    }
    return [...seen.values()];
  };

  const rowColumns = pivot.rows.map((field) => field.column);
  const keyColumns = pivot.columns.map((field) => field.column);
  const withKeys = keyColumns.length > 0 && values.length > 0;
  // Column fields make cells only with values; without values the grid ignores them.
  const keys = withKeys ? distinct(data, keyColumns).sort(sorter(pivot.columns, data)) : [];
  if (rowColumns.length === 0 && values.length === 0) return { columnKeys: keys.map((k) => k.map(keyText)), grid: [] };

  // Without row fields the grid is one row, even over no data (an aggregate without GROUP BY).
  let groups = rowColumns.length === 0 ? [[]] : distinct(data, rowColumns);
  if (pivot.showColumnTotals && rowColumns.length > 0 && values.length > 0) {
    const prefixes = new Map<string, Value[]>([['[]', []]]);
    for (const tuple of groups) {
      for (let length = 1; length < tuple.length; length += 1) {
        prefixes.set(JSON.stringify(tuple.slice(0, length)), tuple.slice(0, length));
      }
    }
    groups = [...groups, ...prefixes.values()];
  }
  groups.sort(sorter(pivot.rows, data));

  const grid = groups.map((prefix) => {
    const rows = matching(data, rowColumns, prefix);
    const cells: Value[] = rowColumns.map((_, index) => (index < prefix.length ? prefix[index]! : null));
    const shown = (value: PivotValueSpec, cell: Value, cellRows: DataRow[] | null): Value => {
      switch (value.showAs ?? 'Default') {
        case 'Default':
          return cell;
        case 'PercentOfRow':
          return ratio(cell, agg(value, rows));
        case 'PercentOfColumn':
          return ratio(cell, agg(value, cellRows ?? data));
        case 'PercentOfGrandTotal':
          return ratio(cell, agg(value, data));
      }
    };
    if (!withKeys) {
      values.forEach((value) => cells.push(shown(value, agg(value, rows), null)));
    } else {
      for (const key of keys) {
        const column = matching(data, keyColumns, key);
        values.forEach((value) => cells.push(shown(value, agg(value, matching(rows, keyColumns, key)), column)));
      }
      if (pivot.showRowTotals) values.forEach((value) => cells.push(shown(value, agg(value, rows), null)));
    }
    return cells;
  });
  return { columnKeys: keys.map((key) => key.map(keyText)), grid };
}
