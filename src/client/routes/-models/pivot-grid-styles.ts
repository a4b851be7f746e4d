import type { CSSProperties } from 'react';
import { GRID } from '../../components/data-grid/constants';

/** Inline styles of the pivot grid, kept apart so its components read as structure. */
const BORDER = '1px solid var(--mantine-color-gray-3)';
const LIGHT_BORDER = '1px solid var(--mantine-color-gray-2)';

export const PIVOT_SCROLLER_STYLE: CSSProperties = {
  maxHeight: GRID.maxHeight,
  minHeight: GRID.minHeight,
  overflow: 'auto',
  border: BORDER,
  borderRadius: 'var(--mantine-radius-sm)',
  background: 'white',
  outline: 'none',
  position: 'relative',
};

export function headerCellStyle(kind: 'row-field' | 'value' | 'row-total', isLeaf: boolean): CSSProperties {
  return {
    position: 'absolute',
    display: 'flex',
    alignItems: 'center',
    justifyContent: kind === 'row-field' ? 'flex-start' : isLeaf ? 'flex-end' : 'center',
    padding: '0 8px',
    background: kind === 'row-total' ? 'var(--mantine-color-gray-2)' : 'var(--mantine-color-gray-1)',
    borderRight: BORDER,
    borderBottom: BORDER,
    fontSize: 12,
    fontWeight: 600,
    color: 'var(--mantine-color-gray-8)',
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    boxSizing: 'border-box',
  };
}

/** The left block (row fields) of the header and of each row, sticky while scrolling sideways. */
export function stickyBlockStyle(width: number, zIndex: number, background: string): CSSProperties {
  return { position: 'sticky', left: 0, zIndex, width, flex: 'none', display: 'flex', background };
}

export function rowStyle(start: number, width: number): CSSProperties {
  return {
    position: 'absolute',
    top: 0,
    left: 0,
    transform: `translateY(${start}px)`,
    display: 'flex',
    width,
    height: GRID.rowHeight,
  };
}

export interface CellLook {
  width: number;
  numeric: boolean;
  total: boolean;
  grandTotal: boolean;
  rowTotal: boolean;
  quiet: boolean;
  lastSticky: boolean;
}

export function cellStyle(look: CellLook): CSSProperties {
  return {
    width: look.width,
    flex: 'none',
    height: GRID.rowHeight,
    lineHeight: `${GRID.rowHeight - 1}px`,
    padding: '0 8px',
    boxSizing: 'border-box',
    fontSize: 13,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    textAlign: look.numeric ? 'right' : 'left',
    fontVariantNumeric: look.numeric ? 'tabular-nums' : undefined,
    fontWeight: look.total ? 600 : look.rowTotal ? 500 : 400,
    color: look.quiet ? 'var(--mantine-color-gray-5)' : undefined,
    background: look.total ? 'var(--mantine-color-gray-0)' : look.rowTotal ? 'var(--mantine-color-gray-0)' : 'white',
    borderRight: look.lastSticky ? BORDER : LIGHT_BORDER,
    borderBottom: LIGHT_BORDER,
    borderTop: look.grandTotal ? '1px solid var(--mantine-color-gray-4)' : undefined,
  };
}
