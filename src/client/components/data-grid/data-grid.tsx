import { Alert, Box, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Sorting } from '../../../shared/tables';
import { errorMessage } from '../../lib/error-message';
import { patchCachedRows } from './cache-patch';
import { CellMenu } from './cell-menu';
import { GRID } from './constants';
import { FilterPopup } from './filter-popup';
import { isEditableValue, isInspectable, splitPaste } from './format-cell';
import { GoToColumn } from './go-to-column';
import { GridSkeleton } from './grid-skeleton';
import { CORNER_STYLE, GUTTER_STYLE, SCROLLER_STYLE, rowStyle } from './grid-styles';
import { GridCell } from './grid-cell';
import { HeaderCell } from './header-cell';
import { InspectValueDialog } from './inspect-value-dialog';
import { SortPopup } from './sort-popup';
import type { CellEdit, CellPosition, GridColumn, GridQuery, GridRow, GridSource } from './types';
import { useGridData } from './use-grid-data';

export interface DataGridProps {
  columns: GridColumn[];
  source: GridSource;
  query: GridQuery;
  onQueryChange: (query: GridQuery) => void;
  /** When set, text and empty cells can be edited and pasted into. */
  onEdit?: (edits: CellEdit[]) => void;
  onColumnSettings?: (columnKey: string) => void;
  /** Extra toolbar buttons (Add row, Add column, Download, Import...). */
  actions?: ReactNode;
  /** Under the grid, e.g. sheet tabs. */
  footer?: ReactNode;
  /** Editable tables: remove a row (cell menu) or a column (header menu). */
  onDeleteRow?: (rowId: GridRow['_row_id']) => void;
  onDeleteColumn?: (columnKey: string) => void;
  /** Editable tables: move a column to another place in the order. */
  onMoveColumn?: (columnKey: string, toIndex: number) => void;
  /** Rows per infinite-scroll request (spec: 100 for datasets). */
  chunkSize?: number;
}

type Editing = (CellPosition & { draft: string }) | null;

/**
 * The reusable data grid: virtual rows loaded in chunks as the user scrolls, a row-number gutter,
 * resizable columns with a context menu, Filter and Sort popups, 'Go to column', cell editing
 * with the keyboard, paste of tab-separated blocks, and 'Inspect Value' for JSON cells.
 */
export function DataGrid({
  columns,
  source,
  query,
  onQueryChange,
  onEdit,
  onColumnSettings,
  actions,
  footer,
  chunkSize = GRID.chunkSize,
  onDeleteRow,
  onDeleteColumn,
  onMoveColumn,
}: DataGridProps) {
  const { pages, count, rows } = useGridData(source, query, chunkSize);
  const scroller = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState<CellPosition | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [filterOpen, setFilterOpen] = useState(false);
  const [filterSeed, setFilterSeed] = useState<{ columnKey: string; value?: string | number | boolean | null } | null>(
    null,
  );
  const [inspect, setInspect] = useState<{ value: unknown; title: string } | undefined>();
  const [highlight, setHighlight] = useState<string | null>(null);
  const [cellMenu, setCellMenu] = useState<{ x: number; y: number; position: CellPosition } | null>(null);
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
  useEffect(() => {
    const rowsLeft = rows.length - 1 - lastIndex;
    if (rowsLeft * GRID.rowHeight < GRID.prefetchPx && pages.hasNextPage && !pages.isFetchingNextPage) {
      void pages.fetchNextPage();
    }
  }, [lastIndex, rows.length, pages]);

  const valueAt = useCallback(
    (p: CellPosition) => {
      const row = rows[p.rowIndex];
      const column = columns[p.columnIndex];
      return row && column ? row[column.key] : undefined;
    },
    [rows, columns],
  );

  const applyEdits = (edits: CellEdit[]) => {
    if (!onEdit || edits.length === 0) return;
    patchCachedRows(queryClient, source, edits);
    onEdit(edits);
  };

  const canEdit = (p: CellPosition) => !!onEdit && isEditableValue(valueAt(p), columns[p.columnIndex]?.type ?? 'Text');
  const startEdit = (p: CellPosition, draft?: string) => {
    if (!canEdit(p)) return;
    const current = valueAt(p);
    setEditing({ ...p, draft: draft ?? (current === null || current === undefined ? '' : String(current)) });
  };
  const commit = () => {
    if (!editing) return;
    const row = rows[editing.rowIndex];
    const column = columns[editing.columnIndex];
    const previous = valueAt(editing);
    setEditing(null);
    scroller.current?.focus();
    if (!row || !column) return;
    const value = editing.draft === '' ? null : editing.draft;
    if ((previous ?? null) === value) return;
    applyEdits([{ rowId: row._row_id, columnKey: column.key, value, previous: (previous ?? null) as string | null }]);
  };

  const move = (dRow: number, dCol: number) => {
    setSelected((p) => {
      const from = p ?? { rowIndex: 0, columnIndex: 0 };
      const next = {
        rowIndex: Math.max(0, Math.min(rows.length - 1, from.rowIndex + dRow)),
        columnIndex: Math.max(0, Math.min(columns.length - 1, from.columnIndex + dCol)),
      };
      virtual.scrollToIndex(next.rowIndex);
      return next;
    });
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (editing) {
      if (event.key === 'Escape' || event.key === 'Enter') {
        event.preventDefault();
        commit();
        if (event.key === 'Enter') move(1, 0);
      }
      return;
    }
    const arrows: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    const delta = arrows[event.key];
    if (delta) {
      event.preventDefault();
      move(...delta);
    } else if (selected && event.key === 'Enter') {
      event.preventDefault();
      startEdit(selected);
    } else if (selected && (event.key === 'Delete' || event.key === 'Backspace') && canEdit(selected)) {
      event.preventDefault();
      setEditing({ ...selected, draft: '' });
    } else if (selected && event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      startEdit(selected, event.key);
    }
  };

  const onPaste = (event: React.ClipboardEvent) => {
    if (editing || !selected || !onEdit) return;
    event.preventDefault();
    const block = splitPaste(event.clipboardData.getData('text/plain'));
    const edits: CellEdit[] = [];
    block.forEach((cells, r) =>
      cells.forEach((text, c) => {
        const p = { rowIndex: selected.rowIndex + r, columnIndex: selected.columnIndex + c };
        const row = rows[p.rowIndex];
        const column = columns[p.columnIndex];
        if (!row || !column || !canEdit(p)) return;
        const previous = (valueAt(p) ?? null) as string | null;
        edits.push({ rowId: row._row_id, columnKey: column.key, value: text === '' ? null : text, previous });
      }),
    );
    applyEdits(edits);
  };

  const sortOf = (key: string) => query.sorting.find((s) => s.columnKey === key);
  const sortBy = (key: string, direction: Sorting['direction']) =>
    onQueryChange({
      ...query,
      sorting: [{ columnKey: key, direction }, ...query.sorting.filter((s) => s.columnKey !== key)],
    });
  const openFilter = (seed: typeof filterSeed) => {
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
  const loading = pages.isPending;
  const failed = pages.isError && !pages.isFetching;
  const total = count.data;
  const displaying =
    total === undefined || rows.length >= total
      ? `Displaying ${rows.length} row(s)`
      : `Displaying ${rows.length} of ${total} row(s)`;

  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <FilterPopup
            columns={columns}
            value={query.filterGroups}
            onApply={(filterGroups) => onQueryChange({ ...query, filterGroups })}
            seed={filterSeed}
            opened={filterOpen}
            onOpenedChange={(o) => {
              setFilterOpen(o);
              if (!o) setFilterSeed(null);
            }}
          />
          <SortPopup
            columns={columns}
            value={query.sorting}
            onApply={(sorting) => onQueryChange({ ...query, sorting })}
          />
          <GoToColumn columns={columns} onGo={goToColumn} />
          {actions}
        </Group>
        <Text size="xs" c="dimmed" aria-live="polite">
          {loading ? 'Loading rows...' : displaying}
        </Text>
      </Group>
      <Box
        ref={scroller}
        role="grid"
        aria-rowcount={total ?? rows.length}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        style={SCROLLER_STYLE}
      >
        <div style={{ width: totalWidth, position: 'sticky', top: 0, zIndex: 3, display: 'flex' }} role="row">
          <div style={CORNER_STYLE} />
          {headers.map((header, i) => {
            const column = columns[i]!;
            return (
              <HeaderCell
                key={header.id}
                header={header}
                column={column}
                sort={sortOf(column.key)}
                highlighted={highlight === column.key}
                onSearch={() => openFilter({ columnKey: column.key, value: undefined })}
                onFilter={() => openFilter({ columnKey: column.key })}
                onSort={(direction) => sortBy(column.key, direction)}
                onSettings={onColumnSettings ? () => onColumnSettings(column.key) : undefined}
                onDelete={onDeleteColumn ? () => onDeleteColumn(column.key) : undefined}
                onMove={onMoveColumn ? (step) => onMoveColumn(column.key, i + step) : undefined}
                canMoveLeft={i > 0}
                canMoveRight={i < columns.length - 1}
              />
            );
          })}
        </div>
        {failed ? (
          <Alert color="red" icon={<IconAlertTriangle size={16} />} m="md" title="Could not load the rows">
            {errorMessage(pages.error)}
          </Alert>
        ) : loading ? (
          <GridSkeleton />
        ) : rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl" size="sm">
            {query.filterGroups.length ? 'No rows match the filters.' : 'No data available'}
          </Text>
        ) : (
          <div style={{ height: virtual.getTotalSize(), width: totalWidth, position: 'relative' }}>
            {items.map((item) => {
              const row = rows[item.index]!;
              return (
                <div key={row._row_id} role="row" aria-rowindex={item.index + 1} style={rowStyle(item.start)}>
                  <div style={GUTTER_STYLE}>{item.index + 1}</div>
                  {columns.map((column, c) => {
                    const p = { rowIndex: item.index, columnIndex: c };
                    const isEditing = editing?.rowIndex === item.index && editing.columnIndex === c;
                    return (
                      <GridCell
                        key={column.key}
                        column={column}
                        width={headers[c]?.getSize() ?? GRID.defaultColumnWidth}
                        value={valueAt(p)}
                        selected={selected?.rowIndex === item.index && selected.columnIndex === c}
                        editing={isEditing}
                        draft={isEditing ? editing.draft : ''}
                        onDraft={(draft) => setEditing((e) => (e ? { ...e, draft } : e))}
                        onCommit={commit}
                        onSelect={() => setSelected(p)}
                        onStartEdit={() => startEdit(p)}
                        onContextMenu={(event) => {
                          event.preventDefault();
                          setSelected(p);
                          setCellMenu({ x: event.clientX, y: event.clientY, position: p });
                        }}
                      />
                    );
                  })}
                </div>
              );
            })}
          </div>
        )}
      </Box>
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
      <InspectValueDialog value={inspect?.value} title={inspect?.title ?? ''} onClose={() => setInspect(undefined)} />
      {footer}
    </Stack>
  );
}
