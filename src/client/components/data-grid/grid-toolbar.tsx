import { Group, SegmentedControl, Text, Tooltip } from '@mantine/core';
import { ResponsiveToolbar, type ToolbarEntry } from '../responsive-toolbar';
import { useDownloadAction } from './download-menu';
import { FilterPopup } from './filter-popup';
import { GoToColumn } from './go-to-column';
import { SortPopup } from './sort-popup';
import type { GridColumn, GridQuery, GridView } from './types';

export type FilterSeed = { columnKey: string; value?: string | number | boolean | null } | null;

interface GridToolbarProps {
  columns: GridColumn[];
  query: GridQuery;
  onQueryChange: (query: GridQuery) => void;
  filterOpen: boolean;
  filterSeed: FilterSeed;
  onFilterOpenChange: (opened: boolean) => void;
  onGoToColumn: (key: string) => void;
  /** The page's own actions; on a phone the unpinned ones move into the '…' menu with Download. */
  actions?: ToolbarEntry[];
  downloadUrl?: string;
  downloadQuery?: GridQuery;
  onSaveReport?: (query: GridQuery) => void;
  view: GridView;
  onViewChange?: (view: GridView) => void;
  /** 'Displaying N row(s)', or that rows are loading. */
  status: string;
}

/**
 * Above the grid: Filter, Sort, Go to column, the page's actions, Download, Scroll/Pages and the row
 * count. Below 768 px the page's unpinned actions and Download go into a 'More actions' menu, so a
 * phone keeps one line of tools instead of four.
 */
export function GridToolbar(props: GridToolbarProps) {
  const { columns, query, onQueryChange, view, onViewChange } = props;
  const download = useDownloadAction(
    props.downloadUrl,
    props.downloadQuery ?? query,
    query.filterGroups.length > 0,
    props.onSaveReport,
  );
  return (
    <Group justify="space-between" gap="xs">
      <Group gap="xs">
        <FilterPopup
          columns={columns}
          value={query.filterGroups}
          onApply={(filterGroups) => onQueryChange({ ...query, filterGroups })}
          seed={props.filterSeed}
          opened={props.filterOpen}
          onOpenedChange={props.onFilterOpenChange}
        />
        <SortPopup
          columns={columns}
          value={query.sorting}
          onApply={(sorting) => onQueryChange({ ...query, sorting })}
        />
        <GoToColumn columns={columns} onGo={props.onGoToColumn} />
        <ResponsiveToolbar
          actions={[...(props.actions ?? []), download.action]}
          collapseBelow="sm"
          justify="flex-start"
        />
        {download.frame}
      </Group>
      <Group gap="sm" wrap="nowrap">
        {onViewChange && (
          <Tooltip label="Read rows page by page, or as one list that loads while scrolling" openDelay={500}>
            <SegmentedControl
              size="xs"
              aria-label="Row view"
              value={view}
              onChange={(v) => onViewChange(v as GridView)}
              data={[
                { value: 'scroll', label: 'Scroll' },
                { value: 'pages', label: 'Pages' },
              ]}
            />
          </Tooltip>
        )}
        <Text size="xs" c="dimmed" aria-live="polite">
          {props.status}
        </Text>
      </Group>
    </Group>
  );
}
