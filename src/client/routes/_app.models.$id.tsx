import { Alert, Button, Center, Menu, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconChartGridDots, IconColumns, IconPlugConnected, IconPlus, IconTableOptions } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { newPivot } from '../../shared/pivots';
import { DataGrid } from '../components/data-grid/data-grid';
import { SheetTabs } from '../components/data-grid/sheet-tabs';
import { ResponsiveToolbar, type ToolbarEntry } from '../components/responsive-toolbar';
import type { GridQuery } from '../components/data-grid/types';
import { errorMessage } from '../lib/error-message';
import { useAccess } from '../lib/use-access';
import { ColumnsPanel, type ColumnsPanelView } from './-models/columns-panel';
import { ModelHeader } from './-models/model-header';
import { modelGridSource } from './-models/model-grid-source';
import { ModelChart, ModelViewSwitch, useModelSheetView } from './-models/model-chart';
import { useModel } from './-models/use-model';
import { useSaveReport } from '../components/save-report/use-save-report';

export const Route = createFileRoute('/_app/models/$id')({
  component: ModelPage,
});

/** What the grid source sends (none: the version applies the model's filters and sort), and so the download. */
const NO_QUERY: GridQuery = { filterGroups: [], sorting: [] };

/** Model rows come in chunks of 100, like datasets. */
const MODEL_CHUNK = 100;

function ModelPage() {
  const { id } = Route.useParams();
  const navigate = useNavigate({ from: Route.fullPath });
  const handle = useModel(id);
  const [panel, setPanel] = useState<ColumnsPanelView | null>(null);
  const [view, setView] = useModelSheetView(id);
  const model = handle.model.data;
  // A reader sees the model in view mode: no edit controls, and grid filters and sort of their own.
  const canEdit = useAccess().canWrite;
  const saveReport = useSaveReport();
  const [ownQuery, setOwnQuery] = useState<GridQuery | null>(null);

  // The grid's filters and sort are the model's own (saved to the draft, spec §7), so the rows come
  // filtered and sorted from the version; the grid source sends none of its own.
  const query: GridQuery = useMemo(
    () => ({ filterGroups: model?.filterGroups ?? [], sorting: model?.sort ?? [] }),
    [model?.filterGroups, model?.sort],
  );
  const setQuery = (next: GridQuery) => {
    if (!canEdit) return setOwnQuery(next);
    if (JSON.stringify(next.filterGroups) !== JSON.stringify(query.filterGroups)) {
      handle.setFilterGroups.mutate({ id, filterGroups: next.filterGroups });
    }
    if (JSON.stringify(next.sorting) !== JSON.stringify(query.sorting))
      handle.setSort.mutate({ id, sort: next.sorting });
  };
  const source = useMemo(
    () => (model ? modelGridSource(model.versionId, model.modifiedAt, !canEdit) : null),
    [model?.versionId, model?.modifiedAt, canEdit], // eslint-disable-line react-hooks/exhaustive-deps
  );

  if (handle.model.isError) return <Alert color="red">{errorMessage(handle.model.error)}</Alert>;
  if (!model || !source) return <Skeleton h={400} />;

  const addPivot = () => {
    const pivot = newPivot(model.pivots);
    handle.setPivots.mutate({ id, pivots: [...model.pivots, pivot] }, { onSuccess: () => openPivot(pivot.key) });
  };
  const sheets = [{ key: 'data', name: 'Data model' }, ...model.pivots.map((p) => ({ key: p.key, name: p.name }))];
  const openPivot = (pivotKey: string) =>
    void navigate({ to: '/models/$id/pivot/$pivotKey', params: { id, pivotKey } });
  const sheetTabs = (
    <SheetTabs
      sheets={sheets}
      active="data"
      addLabel="Add pivot"
      onAdd={canEdit ? addPivot : undefined}
      onChange={(key) => key !== 'data' && openPivot(key)}
    />
  );
  // The view switch stays in sight; on a phone Pivot and 'Columns and relationships' go into '…'.
  const toolbar: ToolbarEntry[] = [
    { key: 'view', label: 'Show as', pinned: true, inline: <ModelViewSwitch view={view} onChange={setView} /> },
    {
      key: 'pivot',
      label: 'Pivot',
      inline: (
        <Menu position="bottom-start" shadow="md">
          <Menu.Target>
            <Button size="xs" variant="default" leftSection={<IconChartGridDots size={14} />}>
              Pivot
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {model.pivots.map((p) => (
              <Menu.Item key={p.key} onClick={() => openPivot(p.key)}>
                {p.name}
              </Menu.Item>
            ))}
            {canEdit && model.pivots.length > 0 && <Menu.Divider />}
            {canEdit && (
              <Menu.Item leftSection={<IconPlus size={14} />} onClick={addPivot}>
                Add pivot
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      ),
      items: [
        ...model.pivots.map((p) => ({
          key: `pivot-${p.key}`,
          label: p.name,
          icon: <IconChartGridDots size={14} />,
          onClick: () => openPivot(p.key),
        })),
        ...(canEdit ? [{ key: 'add-pivot', label: 'Add pivot', icon: <IconPlus size={14} />, onClick: addPivot }] : []),
      ],
    },
    canEdit && {
      key: 'columns',
      label: 'Columns and relationships',
      icon: <IconTableOptions size={14} />,
      onClick: () => setPanel('columns'),
    },
  ];

  return (
    <Stack gap="sm">
      <ModelHeader model={model} handle={handle} />
      {model.columns.length === 0 ? (
        <Paper withBorder p="xl">
          <Center>
            <Stack align="center" gap="sm" maw={460}>
              <IconColumns size={36} stroke={1.4} />
              <Title order={3}>Setup your Model</Title>
              <Text c="dimmed" ta="center" size="sm">
                Choose columns from your tables or integrations, join them, and add function columns. The data shows
                here as you build.
              </Text>
              {canEdit && (
                <>
                  <Button leftSection={<IconPlus size={16} />} onClick={() => setPanel('add')}>
                    Add columns
                  </Button>
                  <Button
                    variant="subtle"
                    leftSection={<IconPlugConnected size={16} />}
                    renderRoot={(props) => <Link {...props} to="/integrations" />}
                  >
                    Create integration
                  </Button>
                </>
              )}
            </Stack>
          </Center>
        </Paper>
      ) : (
        <>
          {!model.errors.hasBreakingErrors && !model.viewSql && (
            <Alert color="yellow">The model cannot show data yet. Check its columns and relationships.</Alert>
          )}
          {model.errors.texts.length > 0 && (
            <Alert color="red" title="Problems">
              {model.errors.texts.map((t) => (
                <Text key={t} size="sm">
                  {t}
                </Text>
              ))}
            </Alert>
          )}
          {view === 'chart' && (
            <>
              <ResponsiveToolbar actions={toolbar} collapseBelow="sm" justify="flex-start" />
              <ModelChart model={model} />
              {sheetTabs}
            </>
          )}
          {view === 'table' && (
            <DataGrid
              columns={model.columns.map((c) => ({
                key: c.columnKey,
                name: c.displayName,
                type: c.type,
                description: c.description,
                format: c.format,
              }))}
              source={source}
              query={canEdit ? query : (ownQuery ?? query)}
              onQueryChange={setQuery}
              chunkSize={MODEL_CHUNK}
              downloadUrl={`/api/tables/ModelVersion/${encodeURIComponent(model.versionId)}/download`}
              downloadQuery={NO_QUERY}
              onSaveReport={
                canEdit
                  ? () =>
                      saveReport.open({
                        source: { kind: 'Model', modelId: model.id, versionId: model.versionId, ...NO_QUERY },
                        name: model.name,
                        what: 'every row of the model sheet, with its filters and sort',
                      })
                  : undefined
              }
              actions={toolbar}
              footer={sheetTabs}
            />
          )}
        </>
      )}
      {canEdit && (
        <ColumnsPanel model={model} handle={handle} view={panel} onView={setPanel} onClose={() => setPanel(null)} />
      )}
      {saveReport.dialog}
    </Stack>
  );
}
