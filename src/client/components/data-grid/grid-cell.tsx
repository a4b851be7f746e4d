import { memo, useEffect, useRef } from 'react';
import { GRID } from './constants';
import { formatCell } from './format-cell';
import type { GridColumn } from './types';

interface GridCellProps {
  column: GridColumn;
  width: number;
  value: unknown;
  selected: boolean;
  editing: boolean;
  draft: string;
  onDraft: (text: string) => void;
  onCommit: () => void;
  onSelect: () => void;
  onStartEdit: () => void;
  onContextMenu: (event: React.MouseEvent) => void;
}

/** One cell: formatted value, or a text box while editing (Escape or blur commits). */
export const GridCell = memo(function GridCell(props: GridCellProps) {
  const { column, width, value, selected, editing, draft } = props;
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);
  const numeric = column.type === 'Number';
  return (
    <div
      role="gridcell"
      aria-selected={selected}
      data-column-key={column.key}
      onMouseDown={props.onSelect}
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
        padding: editing ? 0 : '0 8px',
        fontSize: 13,
        lineHeight: `${GRID.rowHeight - 1}px`,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        textAlign: numeric ? 'right' : 'left',
        fontVariantNumeric: numeric ? 'tabular-nums' : undefined,
        color: value === null || value === undefined ? 'var(--mantine-color-gray-5)' : undefined,
        background: editing ? 'white' : undefined,
        cursor: 'default',
      }}
    >
      {editing ? (
        <input
          ref={input}
          aria-label={`Edit ${column.name}`}
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
