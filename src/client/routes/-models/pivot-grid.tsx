import { Alert, Box, Button, EmptyState, Text } from '@mantine/core';
import { IconAlertTriangle, IconAdjustmentsHorizontal, IconTablePlus } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PivotLayout, PivotRow } from '../../../shared/pivots';
import { GRID } from '../../components/data-grid/constants';
import { GridSkeleton } from '../../components/data-grid/grid-skeleton';
import { errorMessage } from '../../lib/error-message';
import type { PivotData } from './pivot-data';
import { PivotGridHeader } from './pivot-grid-header';
import { PivotGridRow } from './pivot-grid-row';
import { PIVOT_SCROLLER_STYLE } from './pivot-grid-styles';
import { headerCells, pivotColumnWidths } from './pivot-layout';

/**
 * The pivot's data, or in its place: a prompt to open the editor while the pivot is empty, the
 * skeleton while the first chunk loads, the server's message when the pivot cannot be shown.
 */
export function PivotGrid({ data, onEdit }: { data: PivotData; onEdit?: () => void }) {
  if (data.empty) {
    return (
      <Prompt
        title="Build your pivot table"
        text="Choose the fields that make its rows and columns, and the values to sum up, count or average."
        onEdit={onEdit}
      />
    );
  }
  if (data.error) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={16} />} title="The pivot cannot be shown">
        <Text size="sm">{errorMessage(data.error)}</Text>
        {onEdit && (
          <Button size="xs" variant="light" color="red" mt="sm" onClick={onEdit}>
            Edit pivot
          </Button>
        )}
      </Alert>
    );
  }
  if (data.loading || !data.layout) {
    return (
      <Box style={PIVOT_SCROLLER_STYLE}>
        <GridSkeleton />
      </Box>
    );
  }
  if (data.layout.columns.length === 0) {
    return (
      <Prompt
        title="Add a value"
        text="The pivot has columns but nothing to show in them: add a value such as the sum of an amount."
        onEdit={onEdit}
      />
    );
  }
  // A new layout is a new grid: fresh widths for the virtualizers, scrolled to the top left.
  const shape = data.layout.columns.map((c) => `${c.key}:${c.percent}:${c.path.join('\u0001')}`).join('\u0002');
  return (
    <PivotTable
      key={shape}
      layout={data.layout}
      rows={data.rows}
      hasMore={data.hasMore}
      loadMore={data.loadMore}
      stale={data.stale}
    />
  );
}

function Prompt({ title, text, onEdit }: { title: string; text: string; onEdit?: () => void }) {
  return (
    <Box style={{ ...PIVOT_SCROLLER_STYLE, display: 'grid', placeItems: 'center', minHeight: 320 }}>
      <EmptyState
        title={title}
        description={text}
        icon={<IconTablePlus size={28} stroke={1.5} />}
        variant="light"
        maw={420}
        p="xl"
      >
        {onEdit && (
          <EmptyState.Actions>
            <Button leftSection={<IconAdjustmentsHorizontal size={16} />} onClick={onEdit}>
              Edit pivot
            </Button>
          </EmptyState.Actions>
        )}
      </EmptyState>
    </Box>
  );
}

interface PivotTableProps {
  layout: PivotLayout;
  rows: PivotRow[];
  hasMore: boolean;
  loadMore: () => void;
  stale: boolean;
}

/** Rows and value columns are both virtual; the next chunk loads 900 px before the end (spec §9). */
function PivotTable({ layout, rows, hasMore, loadMore, stale }: PivotTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const { columns } = layout;
  const stickyCount = columns.filter((c) => c.kind === 'row-field').length;
  // Measured once per layout (the grid is keyed by it), from the rows of the first chunk.
  const [offsets] = useState(() => {
    const result = [0];
    for (const width of pivotColumnWidths(columns, layout.values, rows)) result.push(result.at(-1)! + width);
    return result;
  });
  const header = useMemo(() => headerCells(columns), [columns]);
  const stickyWidth = offsets[stickyCount] ?? 0;
  const totalWidth = offsets.at(-1) ?? 0;

  const rowVirtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => GRID.rowHeight,
    overscan: 12,
  });
  const columnVirtual = useVirtualizer({
    horizontal: true,
    count: columns.length - stickyCount,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (offsets[stickyCount + i + 1] ?? 0) - (offsets[stickyCount + i] ?? 0),
    paddingStart: stickyWidth,
    overscan: 3,
  });

  const items = rowVirtual.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasMore && (rows.length - 1 - lastIndex) * GRID.rowHeight < GRID.prefetchPx) loadMore();
  }, [hasMore, lastIndex, rows.length, loadMore]);

  const shownColumns = columnVirtual.getVirtualItems();
  const visible = {
    from: stickyCount + (shownColumns[0]?.index ?? 0),
    to: stickyCount + (shownColumns.at(-1)?.index ?? -1),
  };
  // The box fits a small pivot (no empty grid around it) and scrolls past 60vh or the page width.
  const bodyHeight = rows.length === 0 ? 80 : rows.length * GRID.rowHeight;
  const contentHeight = header.depth * GRID.headerHeight + bodyHeight + 2;

  return (
    <Box
      ref={scroller}
      role="grid"
      aria-rowcount={rows.length}
      aria-colcount={columns.length}
      aria-busy={stale}
      tabIndex={0}
      style={{
        ...PIVOT_SCROLLER_STYLE,
        height: `min(${GRID.maxHeight}, ${contentHeight}px)`,
        minHeight: undefined,
        width: 'fit-content',
        maxWidth: '100%',
        opacity: stale ? 0.55 : 1,
        transition: 'opacity 120ms',
      }}
    >
      <PivotGridHeader
        cells={header.cells}
        depth={header.depth}
        stickyCount={stickyCount}
        offsets={offsets}
        visible={visible}
      />
      {rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" size="sm" style={{ position: 'sticky', left: 0, width: '100%' }}>
          No rows match this pivot.
        </Text>
      ) : (
        <div style={{ position: 'relative', height: rowVirtual.getTotalSize(), width: totalWidth }}>
          {items.map((item) => (
            <PivotGridRow
              key={item.index}
              rows={rows}
              index={item.index}
              start={item.start}
              columns={columns}
              values={layout.values}
              stickyCount={stickyCount}
              offsets={offsets}
              visible={visible}
            />
          ))}
        </div>
      )}
    </Box>
  );
}
