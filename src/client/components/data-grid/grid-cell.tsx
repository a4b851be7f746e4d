import { memo, useLayoutEffect, useRef } from 'react';
import { GRID } from './constants';
import { formatCell } from './format-cell';
import type { GridColumn } from './types';

interface GridCellProps {
  column: GridColumn;
  width: number;
  value: unknown;
  /** The active cell (outlined), and a cell of a selected range (tinted). */
  selected: boolean;
  inRange: boolean;
  /** Its value is not saved (a save failed): marked until it is. */
  unsaved: boolean;
  /** How the cell is being edited, if it is. */
  editing: 'typed' | 'inPlace' | null;
  draft: string;
  onDraft: (text: string) => void;
  onCommit: () => void;
  onMouseDown: (event: React.MouseEvent) => void;
  onMouseEnter: () => void;
  onStartEdit: () => void;
  onContextMenu: (event: React.MouseEvent) => void;
}

function background(props: GridCellProps): string | undefined {
  if (props.editing) return 'white';
  if (props.unsaved) return 'var(--mantine-color-orange-0)';
  if (props.inRange) return 'var(--mantine-color-blue-0)';
  return undefined;
}

/** One cell: formatted value, or a text box while editing (Escape or blur commits). */
export const GridCell = memo(function GridCell(props: GridCellProps) {
  const { column, width, value, selected, editing, draft } = props;
  const input = useRef<HTMLInputElement>(null);
  // Focused before the next key arrives; the caret goes to the end, as spreadsheets put it.
  useLayoutEffect(() => {
    const el = input.current;
    if (!editing || !el) return;
    el.focus({ preventScroll: true });
    el.setSelectionRange(el.value.length, el.value.length);
  }, [editing]);
  const numeric = column.type === 'Number';
  return (
    <div
      role="gridcell"
      aria-selected={selected || props.inRange}
      data-column-key={column.key}
      data-unsaved={props.unsaved || undefined}
      title={props.unsaved ? 'Not saved yet' : undefined}
      onMouseDown={props.onMouseDown}
      onMouseEnter={props.onMouseEnter}
      onDoubleClick={props.onStartEdit}
      onContextMenu={props.onContextMenu}
      style={{
        width,
        height: GRID.rowHeight,
        flex: 'none',
        borderRight: '1px solid var(--mantine-color-gray-2)',
        borderBottom: '1px solid var(--mantine-color-gray-2)',
        outline: selected ? '2px solid var(--mantine-color-blue-5)' : undefined,
        outlineOffset: -2,
        boxShadow: props.unsaved ? 'inset 3px 0 0 var(--mantine-color-orange-5)' : undefined,
        padding: editing ? 0 : '0 8px',
        fontSize: 13,
        lineHeight: `${GRID.rowHeight - 1}px`,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        textAlign: numeric ? 'right' : 'left',
        fontVariantNumeric: numeric ? 'tabular-nums' : undefined,
        color: value === null || value === undefined ? 'var(--mantine-color-gray-5)' : undefined,
        background: background(props),
        cursor: 'cell',
        userSelect: 'none',
      }}
    >
      {editing ? (
        <input
          ref={input}
          aria-label={`Edit ${column.name}`}
          data-edit-mode={editing}
          value={draft}
          onChange={(e) => props.onDraft(e.currentTarget.value)}
          onBlur={props.onCommit}
          style={{ width: '100%', height: '100%', border: 'none', outline: 'none', padding: '0 8px', font: 'inherit' }}
        />
      ) : (
        formatCell(value, column.type, column.format)
      )}
    </div>
  );
});
