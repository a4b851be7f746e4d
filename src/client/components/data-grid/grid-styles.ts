import type { CSSProperties } from 'react';
import { GRID } from './constants';

/** Inline styles of the grid's fixed parts, kept apart so the component reads as structure. */
export const SCROLLER_STYLE: CSSProperties = {
  height: GRID.maxHeight,
  minHeight: GRID.minHeight,
  overflow: 'auto',
  border: '1px solid var(--mantine-color-gray-3)',
  borderRadius: 'var(--mantine-radius-sm)',
  background: 'white',
  outline: 'none',
};

/** The top-left corner above the row numbers. */
export const CORNER_STYLE: CSSProperties = {
  width: GRID.gutterWidth,
  flex: 'none',
  height: GRID.headerHeight,
  position: 'sticky',
  left: 0,
  zIndex: 4,
  background: 'var(--mantine-color-gray-1)',
  borderRight: '1px solid var(--mantine-color-gray-3)',
  borderBottom: '1px solid var(--mantine-color-gray-3)',
};

/** The row-number gutter, sticky on the left while scrolling sideways. */
export const GUTTER_STYLE: CSSProperties = {
  width: GRID.gutterWidth,
  flex: 'none',
  position: 'sticky',
  left: 0,
  zIndex: 1,
  background: 'var(--mantine-color-gray-0)',
  borderRight: '1px solid var(--mantine-color-gray-3)',
  borderBottom: '1px solid var(--mantine-color-gray-2)',
  fontSize: 11,
  color: 'var(--mantine-color-gray-6)',
  textAlign: 'right',
  padding: '0 8px',
  lineHeight: `${GRID.rowHeight}px`,
};

/** The gutter of the row holding the selection (or whose menu is open), tinted so the row reads as one. */
export const ACTIVE_GUTTER_STYLE: CSSProperties = {
  ...GUTTER_STYLE,
  background: 'var(--mantine-color-blue-0)',
  color: 'var(--mantine-color-blue-7)',
  fontWeight: 600,
};

/** A virtual row, placed at its offset. */
export function rowStyle(start: number): CSSProperties {
  return { position: 'absolute', top: 0, transform: `translateY(${start}px)`, display: 'flex', height: GRID.rowHeight };
}
