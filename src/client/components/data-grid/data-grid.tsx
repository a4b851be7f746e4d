import { Alert, Box, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../lib/error-message';
import { patchCachedRows } from './cache-patch';
import { CellMenu } from './cell-menu';
import { GRID } from './constants';
import { isInspectable } from './format-cell';
import { GridSkeleton } from './grid-skeleton';
import { GridRowView } from './grid-row-view';
import { SCROLLER_STYLE } from './grid-styles';
import { GridToolbar, type FilterSeed } from './grid-toolbar';
import { HeaderRow } from './header-row';
import { InspectValueDialog } from './inspect-value-dialog';
import { PaginationBar } from './pagination-bar';
import { RowMenu } from './row-menu';
import { PasteColumnsDialog } from './paste-columns-dialog';
import { unsavedKey, type CellEdit, type CellPosition, type DataGridProps, type GridRow } from './types';
import { useCellEditing } from './use-cell-editing';
import { useGridClipboard } from './use-grid-clipboard';
import { useGridPaste } from './use-grid-paste';
import { useGridSelection } from './use-grid-selection';
import { useGridData } from './use-grid-data';
import { useRowMoves } from './use-row-moves';

/**
 * The reusable data grid: virtual rows loaded in chunks as the user scrolls (or page by page), a
 * row-number gutter with its menu, resizable columns with a context menu, Filter and Sort popups,
 * 'Go to column', Download, cell editing with the keyboard, paste of tab-separated blocks, row
 * moves, and 'Inspect Value' for JSON cells.
 */
export function DataGrid({
  columns,
  source,
  query,
  onQueryChange,
  onEdit,
  onPaste,
  unsaved,
  markUnsaved = false,
  onColumnSettings,
  actions,
  footer,
  chunkSize = GRID.chunkSize,
  onDeleteRow,
  onDeleteColumn,
  onMoveColumn,
  onMoveRow,
  pagination,
  onViewChange,
  downloadUrl,
  downloadQuery,
  onSaveReport,
}: DataGridProps) {
  const page = pagination?.page;
  const pageSize = pagination?.pageSize;
  const paging = useMemo(
    () => (page !== undefined && pageSize !== undefined ? { page, pageSize } : null),
    [page, pageSize],
  );
  const data = useGridData(source, query, chunkSize, paging);
  const { rows, rowOffset, total } = data;
  const scroller = useRef<HTMLDivElement>(null);
  const selection = useGridSelection();
  const { selected, setSelected, range } = selection;
  const [filterOpen, setFilterOpen] = useState(false);
  const [filterSeed, setFilterSeed] = useState<FilterSeed>(null);
  const [inspect, setInspect] = useState<{ value: unknown; title: string } | undefined>();
  const [highlight, setHighlight] = useState<string | null>(null);
  const [cellMenu, setCellMenu] = useState<{ x: number; y: number; position: CellPosition } | null>(null);
  const [rowMenu, setRowMenu] = useState<{ x: number; y: number; rowIndex: number } | null>(null);
  const queryClient = useQueryClient();

  const columnDefs = useMemo<ColumnDef<GridRow>[]>(
    () =>
      columns.map((c) => ({
        id: c.key,
        accessorFn: (row: GridRow) => row[c.key],
        size: c.width ?? GRID.defaultColumnWidth,
        minSize: GRID.minColumnWidth,
        maxSize: GRID.maxColumnWidth,
      })),
    [columns],
  );
  const table = useReactTable({
    data: rows,
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    columnResizeMode: 'onChange',
    manualSorting: true,
    manualFiltering: true,
    getRowId: (row) => String(row._row_id),
  });
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => GRID.rowHeight,
    overscan: 12,
  });

  const items = virtual.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { loadMore } = data;
  useEffect(() => {
    if ((rows.length - 1 - lastIndex) * GRID.rowHeight < GRID.prefetchPx) loadMore();
  }, [lastIndex, rows.length, loadMore]);
  // A new page starts at its top, with nothing selected.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
    setSelected(null);
  }, [paging, setSelected]);

  const valueAt = useCallback(
    (p: CellPosition) => {
      const row = rows[p.rowIndex];
      const column = columns[p.columnIndex];
      if (!row || !column) return undefined;
      // A value not saved yet shows over the loaded one, whatever reloaded the rows meanwhile.
      const key = unsaved?.size ? unsavedKey(row._row_id, column.key) : null;
      return key !== null && unsaved!.has(key) ? unsaved!.get(key) : row[column.key];
    },
    [rows, columns, unsaved],
  );

  const moves = useRowMoves({
    rows,
    rowOffset,
    total,
    hasMore: data.hasMore,
    source,
    query,
    onMoveRow,
    setSelected,
    scrollToRow: (index) => virtual.scrollToIndex(index),
  });

  const applyEdits = (edits: CellEdit[]) => {
    if (!onEdit || edits.length === 0) return;
    patchCachedRows(queryClient, source, edits);
    onEdit(edits);
  };
  const pasting = useGridPaste({
    rows,
    columns,
    range,
    rowOffset,
    hasMore: data.hasMore,
    requestSize: paging?.pageSize ?? chunkSize,
    source,
    query,
    applyEdits: onEdit ? applyEdits : undefined,
    onPaste: onPaste
      ? (plan) => {
          patchCachedRows(queryClient, source, plan.edits);
          onPaste(plan);
        }
      : undefined,
    onPasted: selection.setSelection,
  });
  const clipboard = useGridClipboard({
    scroller,
    range,
    valueAt,
    onPaste: onEdit ? pasting.paste : undefined,
  });
  const cells = useCellEditing({
    rows,
    columns,
    valueAt,
    selection,
    scrollToRow: (index) => virtual.scrollToIndex(index),
    scroller,
    applyEdits: onEdit ? applyEdits : undefined,
    onMoveRow: onMoveRow ? (index, step) => void moves.moveRow(index, step) : undefined,
    onCopy: clipboard.copy,
    isUnsaved: (p) => {
      const row = rows[p.rowIndex];
      const column = columns[p.columnIndex];
      return !!row && !!column && !!unsaved?.has(unsavedKey(row._row_id, column.key));
    },
  });
  const { editing } = cells;

  const openFilter = (seed: FilterSeed) => {
    setFilterSeed(seed);
    setFilterOpen(true);
  };
  const goToColumn = (key: string) => {
    const header = scroller.current?.querySelector<HTMLElement>(
      `[role="columnheader"][data-column-key="${CSS.escape(key)}"]`,
    );
    header?.scrollIntoView({ inline: 'center', block: 'nearest' });
    setHighlight(key);
    window.setTimeout(() => setHighlight((h) => (h === key ? null : h)), GRID.highlightMs);
  };

  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const totalWidth = GRID.gutterWidth + table.getTotalSize();
  const widths = headers.map((h) => h.getSize());
  const displaying =
    total === undefined || rows.length >= total
      ? `Displaying ${rows.length} row(s)`
      : `Displaying ${rows.length} of ${total} row(s)`;

  return (
    <Stack gap={6}>
      <GridToolbar
        columns={columns}
        query={query}
        onQueryChange={onQueryChange}
        filterOpen={filterOpen}
        filterSeed={filterSeed}
        onFilterOpenChange={(o) => {
          setFilterOpen(o);
          if (!o) setFilterSeed(null);
        }}
        onGoToColumn={goToColumn}
        actions={actions}
        downloadUrl={downloadUrl}
        downloadQuery={downloadQuery}
        onSaveReport={onSaveReport}
        view={pagination ? 'pages' : 'scroll'}
        onViewChange={onViewChange}
        status={data.loading ? 'Loading rows...' : displaying}
      />
      <Box
        ref={scroller}
        role="grid"
        aria-rowcount={total ?? rows.length}
        tabIndex={0}
        aria-multiselectable
        aria-readonly={!onEdit}
        aria-description="Arrows and Tab move between cells; Shift with arrows selects a range; Escape, then Tab, leaves the grid."
        onKeyDown={cells.onKeyDown}
        onFocus={cells.onFocus}
        style={SCROLLER_STYLE}
      >
        <HeaderRow
          headers={headers}
          columns={columns}
          width={totalWidth}
          sorting={query.sorting}
          highlight={highlight}
          onOpenFilter={openFilter}
          onSortingChange={(sorting) => onQueryChange({ ...query, sorting })}
          onColumnSettings={onColumnSettings}
          onDeleteColumn={onDeleteColumn}
          onMoveColumn={onMoveColumn}
        />
        {data.failed ? (
          <Alert color="red" icon={<IconAlertTriangle size={16} />} m="md" title="Could not load the rows">
            {errorMessage(data.error)}
          </Alert>
        ) : data.loading ? (
          <GridSkeleton />
        ) : rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl" size="sm">
            {query.filterGroups.length ? 'No rows match the filters.' : 'No data available'}
          </Text>
        ) : (
          <div style={{ height: virtual.getTotalSize(), width: totalWidth, position: 'relative' }}>
            {items.map((item) => (
              <GridRowView
                key={rows[item.index]!._row_id}
                rowIndex={item.index}
                rowNumber={rowOffset + item.index + 1}
                rowId={rows[item.index]!._row_id}
                start={item.start}
                columns={columns}
                widths={widths}
                valueAt={valueAt}
                selected={selected}
                range={range}
                active={selected?.rowIndex === item.index || rowMenu?.rowIndex === item.index}
                editing={editing}
                unsaved={markUnsaved ? unsaved : undefined}
                onDraft={cells.setDraft}
                onCommit={cells.commit}
                onCellMouseDown={(p, event) => {
                  if (editing?.rowIndex === p.rowIndex && editing.columnIndex === p.columnIndex) return;
                  // Keeps the browser from selecting text while a range is dragged; focus is moved by hand.
                  event.preventDefault();
                  scroller.current?.focus({ preventScroll: true });
                  selection.onCellMouseDown(p, event);
                }}
                onCellMouseEnter={selection.onCellMouseEnter}
                onStartEdit={(p) => cells.startEdit(p, 'inPlace')}
                onCellMenu={(event, p) => {
                  setCellMenu({ x: event.clientX, y: event.clientY, position: p });
                }}
                onRowMenu={
                  onMoveRow || onDeleteRow
                    ? (event) => setRowMenu({ x: event.clientX, y: event.clientY, rowIndex: item.index })
                    : undefined
                }
              />
            ))}
          </div>
        )}
      </Box>
      {pagination && (
        <PaginationBar
          pagination={pagination}
          shown={rows.length}
          rowOffset={rowOffset}
          total={total}
          hasMore={data.hasMore}
        />
      )}
      {cellMenu && (
        <CellMenu
          x={cellMenu.x}
          y={cellMenu.y}
          inspectable={isInspectable(valueAt(cellMenu.position))}
          onClose={() => setCellMenu(null)}
          onFilterForValue={() => {
            const value = valueAt(cellMenu.position);
            const column = columns[cellMenu.position.columnIndex]!;
            openFilter({
              columnKey: column.key,
              value: isInspectable(value) ? null : (value as string | number | boolean | null),
            });
          }}
          onInspect={() =>
            setInspect({ value: valueAt(cellMenu.position), title: columns[cellMenu.position.columnIndex]!.name })
          }
          onDeleteRow={
            onDeleteRow
              ? () => {
                  const row = rows[cellMenu.position.rowIndex];
                  if (row) onDeleteRow(row._row_id);
                }
              : undefined
          }
        />
      )}
      {rowMenu && (
        <RowMenu
          x={rowMenu.x}
          y={rowMenu.y}
          rowNumber={rowOffset + rowMenu.rowIndex + 1}
          onClose={() => setRowMenu(null)}
          onMove={onMoveRow ? (step) => void moves.moveRow(rowMenu.rowIndex, step) : undefined}
          canMoveUp={moves.canMoveUp(rowMenu.rowIndex)}
          canMoveDown={moves.canMoveDown(rowMenu.rowIndex)}
          moveHint={moves.hint}
          onDelete={
            onDeleteRow
              ? () => {
                  const row = rows[rowMenu.rowIndex];
                  if (row) onDeleteRow(row._row_id);
                }
              : undefined
          }
        />
      )}
      <PasteColumnsDialog {...pasting.dialog} />
      <InspectValueDialog value={inspect?.value} title={inspect?.title ?? ''} onClose={() => setInspect(undefined)} />
      {footer}
    </Stack>
  );
}
