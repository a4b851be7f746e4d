import type { PivotLayoutColumn, PivotRow, PivotValueHeader } from '../../../shared/pivots';
import { EMPTY_KEY_LABEL, formatPivotValue, repeatsRowAbove, rowFieldText, valueLook } from './pivot-layout';
import { cellStyle, rowStyle, stickyBlockStyle } from './pivot-grid-styles';

interface PivotGridRowProps {
  rows: readonly PivotRow[];
  index: number;
  start: number;
  columns: readonly PivotLayoutColumn[];
  /** The layout's value fields: how each value column's numbers read. */
  values: readonly PivotValueHeader[];
  stickyCount: number;
  offsets: number[];
  /** The value columns drawn, as grid column indexes (the rest are scrolled out of view). */
  visible: { from: number; to: number };
}

/**
 * One virtual row: the row-field cells in the sticky block ('Total' on total rows; an outer value
 * repeating the row above is quieter), then the visible value cells, aligned right like numbers.
 */
export function PivotGridRow({
  rows,
  index,
  start,
  columns,
  values,
  stickyCount,
  offsets,
  visible,
}: PivotGridRowProps) {
  const row = rows[index]!;
  const grandTotal = row.isTotal && row.level === 0;
  const width = (i: number) => (offsets[i + 1] ?? 0) - (offsets[i] ?? 0);
  const stickyWidth = offsets[stickyCount] ?? 0;
  const fieldKeys = columns.slice(0, stickyCount).map((c) => c.key);
  const look = { total: row.isTotal, grandTotal, quiet: false, lastSticky: false, rowTotal: false };

  const fieldCells = fieldKeys.map((key, i) => {
    const text = rowFieldText(row, i, row.cells[key] ?? null);
    const quiet = text === null || repeatsRowAbove(rows, index, fieldKeys, i);
    return (
      <div
        key={key}
        role="gridcell"
        style={cellStyle({ ...look, width: width(i), numeric: false, quiet, lastSticky: i === stickyCount - 1 })}
      >
        {text ?? EMPTY_KEY_LABEL}
      </div>
    );
  });

  const valueCells = [];
  for (let i = Math.max(visible.from, stickyCount); i <= visible.to && i < columns.length; i++) {
    const column = columns[i]!;
    const value = row.cells[column.key] ?? null;
    valueCells.push(
      <div
        key={column.key}
        role="gridcell"
        aria-colindex={i + 1}
        style={cellStyle({
          ...look,
          width: width(i),
          numeric: true,
          rowTotal: column.kind === 'row-total',
        })}
      >
        {formatPivotValue(value, valueLook(values, column))}
      </div>,
    );
  }
  const skipped = (offsets[Math.max(visible.from, stickyCount)] ?? stickyWidth) - stickyWidth;

  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      data-total={row.isTotal ? row.level : undefined}
      style={rowStyle(start, offsets.at(-1) ?? 0)}
    >
      {stickyCount > 0 && <div style={stickyBlockStyle(stickyWidth, 1, 'white')}>{fieldCells}</div>}
      <div style={{ width: skipped, flex: 'none' }} />
      {valueCells}
    </div>
  );
}
