/** Grid constants of the spec (data-areas section 9). */
export const GRID = {
  rowHeight: 26,
  headerHeight: 29,
  gutterWidth: 56,
  minColumnWidth: 50,
  maxColumnWidth: 2000,
  defaultColumnWidth: 160,
  /** Rows fetched per infinite-scroll chunk. */
  chunkSize: 100,
  /** The next chunk loads this many px before the end. */
  prefetchPx: 900,
  skeletonRows: 10,
  skeletonColumns: 10,
  /** Dropdowns and sheet lists get a search box past this many items. */
  searchableAfter: 5,
  minHeight: 200,
  maxHeight: '60vh',
  highlightMs: 3000,
} as const;

export function clampWidth(width: number): number {
  return Math.min(GRID.maxColumnWidth, Math.max(GRID.minColumnWidth, Math.round(width)));
}

/**
 * Dropdowns inside a popover render inside it: a portal would put their options outside the
 * popover, and picking one would count as a click outside and close it.
 */
export const INSIDE_POPOVER = { withinPortal: false } as const;
