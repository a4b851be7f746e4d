/**
 * The grid a pivot query fills: its columns left to right (row fields, then per column key each
 * value, then the row totals), each with the key its cells have in the rows and its header path.
 */
import {
  PIVOT_TOTAL_LABEL,
  pivotValueDecimals,
  type PivotColumnKey,
  type PivotLayout,
  type PivotLayoutColumn,
  type PivotValueHeader,
} from '../../shared/pivots';
import { alias } from './expressions';
import type { ResolvedPivot } from './resolve';

/** Whether the pivot has a Total column (row totals need column fields to be more than a copy). */
export function hasRowTotals(pivot: ResolvedPivot): boolean {
  return pivot.showRowTotals && pivot.columns.length > 0 && pivot.values.length > 0;
}

/** Whether the pivot has total rows (column totals need row fields to be more than a copy). */
export function hasColumnTotals(pivot: ResolvedPivot): boolean {
  return pivot.showColumnTotals && pivot.rows.length > 0 && pivot.values.length > 0;
}

export function buildLayout(pivot: ResolvedPivot, columnKeys: readonly PivotColumnKey[]): PivotLayout {
  const values: PivotValueHeader[] = pivot.values.map((value) => ({
    column: value.column.columnKey,
    label: value.label,
    function: value.func,
    showAs: value.showAs,
    percent: value.showAs !== 'Default',
    // The column's format is the server's to add (the engine knows SQL types, not display formats).
    decimals: pivotValueDecimals({ function: value.func, showAs: value.showAs }, value.column),
    format: null,
  }));
  const columns: PivotLayoutColumn[] = pivot.rows.map((field, index) => ({
    key: alias.row(index),
    kind: 'row-field',
    label: field.label,
    path: [field.label],
    columnKeyIndex: null,
    valueIndex: null,
    percent: false,
  }));
  const valueColumn = (key: string, valueIndex: number, columnKeyIndex: number | null): PivotLayoutColumn => {
    const value = values[valueIndex]!;
    const prefix = columnKeyIndex === null ? [] : columnKeys[columnKeyIndex]!;
    return {
      key,
      kind: 'value',
      label: value.label,
      path: [...prefix, value.label],
      columnKeyIndex,
      valueIndex,
      percent: value.percent,
    };
  };
  if (pivot.columns.length === 0) {
    values.forEach((_, valueIndex) => columns.push(valueColumn(alias.valueCell(valueIndex), valueIndex, null)));
  } else {
    columnKeys.forEach((_, keyIndex) =>
      values.forEach((_, valueIndex) =>
        columns.push(valueColumn(alias.cell(keyIndex, valueIndex), valueIndex, keyIndex)),
      ),
    );
  }
  if (hasRowTotals(pivot)) {
    values.forEach((value, valueIndex) =>
      columns.push({
        key: alias.rowTotal(valueIndex),
        kind: 'row-total',
        label: value.label,
        path: [PIVOT_TOTAL_LABEL, value.label],
        columnKeyIndex: null,
        valueIndex,
        percent: value.percent,
      }),
    );
  }
  const header = (field: ResolvedPivot['rows'][number]) => ({
    column: field.column.columnKey,
    label: field.label,
    grain: field.grain,
  });
  return {
    rowFields: pivot.rows.map(header),
    columnFields: pivot.columns.map(header),
    values,
    columnKeys: columnKeys.map((key) => [...key]),
    columns,
  };
}
