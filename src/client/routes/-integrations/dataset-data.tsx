import { Alert, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { DataGrid } from '../../components/data-grid/data-grid';
import type { GridPagination, GridQuery, GridRow, GridSource, GridView } from '../../components/data-grid/types';
import { errorMessage } from '../../lib/error-message';
import { trpc, trpcUtils } from '../../trpc';

/** The first part of every dataset grid's cache key, so a finished sync can drop them all. */
export const DATASET_GRID_KEY = 'integration-dataset';

/** Spec §9: dataset rows are read 100 at a time. */
const DATASET_CHUNK = 100;

interface DatasetDataProps {
  datasets: { id: string; name: string; hasData: boolean }[];
  /** The dataset query parameter: a dataset name; the first with data when absent. */
  selected: string | undefined;
  onSelect: (name: string) => void;
  query: GridQuery;
  onQueryChange: (query: GridQuery) => void;
  pagination?: GridPagination;
  onViewChange: (view: GridView) => void;
}

/** The Data tab: a dataset picker over a read-only grid of the chosen dataset's table. */
export function DatasetData({ datasets, selected, onSelect, ...grid }: DatasetDataProps) {
  const withData = datasets.filter((d) => d.hasData);
  const current = withData.find((d) => d.name === selected) ?? withData[0];
  if (!current)
    return (
      <Text c="dimmed" ta="center" py="xl">
        No data available
      </Text>
    );
  const picker = (
    <Select
      aria-label="Dataset"
      size="xs"
      w={240}
      data={withData.map((d) => d.name)}
      value={current.name}
      allowDeselect={false}
      searchable={withData.length > 5}
      onChange={(name) => name && onSelect(name)}
    />
  );
  return <DatasetGrid key={current.id} datasetId={current.id} picker={picker} {...grid} />;
}

function DatasetGrid({
  datasetId,
  picker,
  query,
  onQueryChange,
  pagination,
  onViewChange,
}: Omit<DatasetDataProps, 'datasets' | 'selected' | 'onSelect'> & { datasetId: string; picker: ReactNode }) {
  const table = trpc.tables.get.useQuery({ type: 'IntegrationDataset', id: datasetId });
  const source: GridSource = useMemo(
    () => ({
      key: [DATASET_GRID_KEY, datasetId],
      fetchPage: async (q) => {
        const page = await trpcUtils.tables.page.fetch(
          // The grid counts with its own call, so the first page never waits for a count.
          { type: 'IntegrationDataset', id: datasetId, ...q, withCount: false },
          { staleTime: 0 },
        );
        return { ...page, data: page.data as GridRow[] };
      },
      fetchCount: async (q) =>
        (await trpcUtils.tables.count.fetch({ type: 'IntegrationDataset', id: datasetId, ...q }, { staleTime: 0 }))
          .totalCount,
    }),
    [datasetId],
  );
  if (table.isError)
    return <Alert color="red">Error: Could not display dataset data. {errorMessage(table.error)}</Alert>;
  if (!table.data) return <Skeleton h={300} />;
  const columns = table.data.columns.map((c) => ({
    key: c.columnKey,
    name: c.displayName,
    type: c.type,
    description: c.description,
  }));
  return (
    <Stack gap="xs">
      <DataGrid
        columns={columns}
        source={source}
        query={query}
        onQueryChange={onQueryChange}
        chunkSize={DATASET_CHUNK}
        pagination={pagination}
        onViewChange={onViewChange}
        downloadUrl={`/api/tables/IntegrationDataset/${encodeURIComponent(datasetId)}/download`}
        actions={[{ key: 'dataset', label: 'Dataset', pinned: true, inline: picker }]}
      />
    </Stack>
  );
}
