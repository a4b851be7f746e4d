import type { Editing } from './use-cell-editing';
import { GRID } from './constants';
import { GridCell } from './grid-cell';
import { ACTIVE_GUTTER_STYLE, GUTTER_STYLE, rowStyle } from './grid-styles';
import { inRange, type CellRange } from './range';
import { unsavedKey, type CellPosition, type GridColumn, type GridRow } from './types';

interface GridRowViewProps {
  /** Index among the rows loaded (this page), and the row's number in the whole order. */
  rowIndex: number;
  rowNumber: number;
  rowId: GridRow['_row_id'];
  /** Offset of the virtual row from the top. */
  start: number;
  columns: GridColumn[];
  widths: number[];
  valueAt: (p: CellPosition) => unknown;
  selected: CellPosition | null;
  range: CellRange | null;
  /** The row's number is tinted: it holds the selection or its menu is open. */
  active: boolean;
  editing: Editing;
  /** Cells whose save failed, marked as unsaved. */
  unsaved?: ReadonlyMap<string, string | null>;
  onDraft: (draft: string) => void;
  onCommit: () => void;
  onCellMouseDown: (p: CellPosition, event: React.MouseEvent) => void;
  onCellMouseEnter: (p: CellPosition) => void;
  onStartEdit: (p: CellPosition) => void;
  onCellMenu: (event: React.MouseEvent, p: CellPosition) => void;
  /** Absent where the row number has no menu (read-only grids keep the browser's own). */
  onRowMenu?: (event: React.MouseEvent) => void;
}

/** One virtual row: its number in the gutter, then its cells. */
export function GridRowView(props: GridRowViewProps) {
  const { rowIndex, columns, selected, editing, range } = props;
  const stretched = !!range && (range.bottom > range.top || range.right > range.left);
  return (
    <div role="row" aria-rowindex={props.rowNumber} style={rowStyle(props.start)}>
      <div
        role="rowheader"
        style={props.active ? ACTIVE_GUTTER_STYLE : GUTTER_STYLE}
        onContextMenu={
          props.onRowMenu &&
          ((event) => {
            event.preventDefault();
            props.onRowMenu?.(event);
          })
        }
      >
        {props.rowNumber}
      </div>
      {columns.map((column, c) => {
        const p = { rowIndex, columnIndex: c };
        const isEditing = editing?.rowIndex === rowIndex && editing.columnIndex === c;
        const isActive = selected?.rowIndex === rowIndex && selected.columnIndex === c;
        return (
          <GridCell
            key={column.key}
            column={column}
            width={props.widths[c] ?? GRID.defaultColumnWidth}
            value={props.valueAt(p)}
            selected={isActive}
            inRange={stretched && inRange(range, p)}
            unsaved={!!props.unsaved?.has(unsavedKey(props.rowId, column.key))}
            editing={isEditing ? editing.mode : null}
            draft={isEditing ? editing.draft : ''}
            onDraft={props.onDraft}
            onCommit={props.onCommit}
            onMouseDown={(event) => props.onCellMouseDown(p, event)}
            onMouseEnter={() => props.onCellMouseEnter(p)}
            onStartEdit={() => props.onStartEdit(p)}
            onContextMenu={(event) => {
              event.preventDefault();
              props.onCellMenu(event, p);
            }}
          />
        );
      })}
    </div>
  );
}
