import { Group, SegmentedControl, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { DownloadMenu } from './download-menu';
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
  actions?: ReactNode;
  downloadUrl?: string;
  downloadQuery?: GridQuery;
  view: GridView;
  onViewChange?: (view: GridView) => void;
  /** 'Displaying N row(s)', or that rows are loading. */
  status: string;
}

/** Above the grid: Filter, Sort, Go to column, the owner's actions, Download, Scroll/Pages and the row count. */
export function GridToolbar(props: GridToolbarProps) {
  const { columns, query, onQueryChange, view, onViewChange } = props;
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
        {props.actions}
        {props.downloadUrl && (
          <DownloadMenu
            url={props.downloadUrl}
            query={props.downloadQuery ?? query}
            filtered={query.filterGroups.length > 0}
          />
        )}
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
