import { GRID } from '../../components/data-grid/constants';
import type { HeaderCell } from './pivot-layout';
import { headerCellStyle, stickyBlockStyle } from './pivot-grid-styles';

interface PivotGridHeaderProps {
  cells: HeaderCell[];
  depth: number;
  /** How many columns (from the left) are row fields, in the sticky block. */
  stickyCount: number;
  /** Left offset of every column in the whole grid, and one more entry: the total width. */
  offsets: number[];
  /** The range of columns drawn (the rest are scrolled out of view), as grid column indexes. */
  visible: { from: number; to: number };
}

/**
 * The grouped header, sticky on top: row-field names on the left (sticky sideways too), then the
 * column-key groups over their value labels, each shared cell spanning its columns.
 */
export function PivotGridHeader({ cells, depth, stickyCount, offsets, visible }: PivotGridHeaderProps) {
  const height = depth * GRID.headerHeight;
  const stickyWidth = offsets[stickyCount] ?? 0;
  const totalWidth = offsets.at(-1) ?? 0;
  const place = (cell: HeaderCell, origin: number) => ({
    ...headerCellStyle(cell.kind, cell.isLeaf),
    left: (offsets[cell.column] ?? 0) - origin,
    width: (offsets[cell.column + cell.columnSpan] ?? 0) - (offsets[cell.column] ?? 0),
    top: cell.row * GRID.headerHeight,
    height: cell.rowSpan * GRID.headerHeight,
  });
  const cell = (c: HeaderCell, origin: number) => (
    <div
      key={c.key}
      role="columnheader"
      aria-colindex={c.column + 1}
      aria-colspan={c.columnSpan}
      title={c.text}
      style={place(c, origin)}
    >
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{c.text}</span>
    </div>
  );
  const shown = (c: HeaderCell) => c.column <= visible.to && c.column + c.columnSpan - 1 >= visible.from;

  return (
    <div role="row" style={{ position: 'sticky', top: 0, zIndex: 3, display: 'flex', width: totalWidth, height }}>
      {stickyCount > 0 && (
        <div style={{ ...stickyBlockStyle(stickyWidth, 4, 'var(--mantine-color-gray-1)'), height }}>
          {cells.filter((c) => c.column < stickyCount).map((c) => cell(c, 0))}
        </div>
      )}
      <div style={{ position: 'relative', flex: 'none', width: totalWidth - stickyWidth, height }}>
        {cells.filter((c) => c.column >= stickyCount && shown(c)).map((c) => cell(c, stickyWidth))}
      </div>
    </div>
  );
}
