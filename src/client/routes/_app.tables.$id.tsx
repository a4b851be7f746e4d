import { Alert, Button, FileButton, Group, Skeleton, Stack, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconColumnInsertRight,
  IconFileImport,
  IconRowInsertBottom,
  IconTrash,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import type { CsvImportAnswer, TableChange } from '../../shared/static-tables';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataGrid } from '../components/data-grid/data-grid';
import type { DataGridProps, GridRow, GridSource } from '../components/data-grid/types';
import { gridSearchSchema } from '../components/data-grid/url-state';
import { useGridUrlState } from '../components/data-grid/use-grid-url-state';
import { SaveOnBlurInput } from '../components/save-on-blur-input';
import { gridReportContents, useSaveReport } from '../components/save-report/use-save-report';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { useAccess } from '../lib/use-access';
import { trpc, trpcUtils } from '../trpc';
import { ColumnSettingsDialog } from './-tables/column-settings-dialog';
import { ImportDialog } from './-tables/import-dialog';
import { ImportReport } from './-tables/import-report';
import { SaveIndicator } from './-tables/save-indicator';
import { useTableChanges } from './-tables/use-table-changes';

export const Route = createFileRoute('/_app/tables/$id')({
  validateSearch: gridSearchSchema,
  component: StaticTablePage,
});

export const DELETE_PROMPT = 'Are you sure you want to delete this table?';

/** Static tables are read in larger chunks than datasets: their rows are narrow and local. */
const STATIC_TABLE_CHUNK = 1000;

function StaticTablePage() {
  const { id } = Route.useParams();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const table = trpc.staticTables.get.useQuery({ id });
  const [deleting, setDeleting] = useState(false);
  const [settingsFor, setSettingsFor] = useState<string | null>(null);
  const [deletingColumn, setDeletingColumn] = useState<string | null>(null);
  const [imported, setImported] = useState<{ fileName: string; answer: CsvImportAnswer } | null>(null);
  const [importing, setImporting] = useState<File | null>(null);
  const saveReport = useSaveReport();

  const grid = useGridUrlState(
    search,
    (patch) => void navigate({ search: (s) => ({ ...s, ...patch }), replace: true }),
  );

  const source: GridSource = useMemo(
    () => ({
      key: ['static-table', id],
      fetchPage: async (q) => {
        // The grid counts with its own call, so the first page never waits for a count.
        const page = await trpcUtils.tables.page.fetch(
          { type: 'StaticTable', id, ...q, withCount: false },
          { staleTime: 0 },
        );
        // Static tables always return their row key, `_row_id`, with every row.
        return { ...page, data: page.data as GridRow[] };
      },
      fetchCount: async (q) =>
        (await trpcUtils.tables.count.fetch({ type: 'StaticTable', id, ...q }, { staleTime: 0 })).totalCount,
    }),
    [id],
  );

  const refresh = useCallback(
    () => Promise.all([utils.staticTables.get.invalidate({ id }), utils.staticTables.list.invalidate()]),
    [utils, id],
  );
  const changes = useTableChanges(id, source, refresh);
  const { history, setSaveState } = changes;
  const [discarding, setDiscarding] = useState(false);
  // A read_only member sees the table in view mode: no edit control, nothing edited by typing.
  const access = useAccess();
  const { canWrite } = access;
  // Rows and columns added or removed: saved in turn with the edits, then the table is read again.
  const structural = useMutation({ mutationFn: (batch: TableChange[]) => changes.send(batch) });
  const rename = trpc.staticTables.rename.useMutation({ onSuccess: refresh });
  const remove = trpc.staticTables.delete.useMutation({
    onSuccess: async () => {
      await utils.staticTables.list.invalidate();
      await navigate({ to: '/tables' });
    },
  });

  const onImported = async (fileName: string, answer: CsvImportAnswer) => {
    setImporting(null);
    if (answer.mode === 'New') {
      await utils.staticTables.list.invalidate();
      notifications.show({ color: 'teal', message: `Created a new table from ${fileName}.` });
      await navigate({ to: '/tables/$id', params: { id: answer.tableId }, search: {} });
      return;
    }
    // Undo exchanges the table with the copy the import kept (use-edit-history.ts).
    if (answer.keptToken) history.record({ kind: 'kept', token: answer.keptToken });
    setSaveState('saved');
    setImported({ fileName, answer });
    await refresh();
    await queryClient.invalidateQueries({ queryKey: source.key });
  };

  if (table.isError) return <Alert color="red">{table.error.message}</Alert>;
  if (!table.data) return <Skeleton h={400} />;
  const data = table.data;
  const columns = data.columns.map((c) => ({
    key: c.columnKey,
    name: c.displayName,
    type: c.type,
    description: c.description,
    format: c.format ?? null,
  }));
  const settingsColumn = data.columns.find((c) => c.columnKey === settingsFor);

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="sm" wrap="wrap" style={{ flex: 1, minWidth: 0 }}>
          {canWrite ? (
            <SaveOnBlurInput
              aria-label="Table name"
              value={data.name}
              variant="unstyled"
              size="lg"
              fw={650}
              w={420}
              maw="100%"
              onSave={(name) => rename.mutateAsync({ id, name })}
            />
          ) : (
            <>
              <Title order={2} size="h3">
                {data.name}
              </Title>
              {!access.loading && <ViewOnlyBadge />}
            </>
          )}
          <SaveIndicator
            state={changes.saveState}
            progress={changes.progress}
            failure={changes.failure}
            unsavedCount={changes.unsavedCount}
            onRetry={changes.retry}
            onDiscard={() => setDiscarding(true)}
          />
        </Group>
        {canWrite && (
          <Group gap="xs" wrap="nowrap">
            <Tooltip label="Undo (Ctrl+Z)">
              <Button size="xs" variant="default" aria-label="Undo" disabled={!history.canUndo} onClick={history.undo}>
                <IconArrowBackUp size={16} />
              </Button>
            </Tooltip>
            <Tooltip label="Redo (Ctrl+Shift+Z)">
              <Button size="xs" variant="default" aria-label="Redo" disabled={!history.canRedo} onClick={history.redo}>
                <IconArrowForwardUp size={16} />
              </Button>
            </Tooltip>
            <FileButton accept="text/csv,.csv" onChange={setImporting}>
              {(props) => (
                <Button {...props} size="xs" variant="default" leftSection={<IconFileImport size={16} />}>
                  Import CSV
                </Button>
              )}
            </FileButton>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => setDeleting(true)}
            >
              Delete
            </Button>
          </Group>
        )}
      </Group>
      {imported && (
        <ImportReport fileName={imported.fileName} answer={imported.answer} onClose={() => setImported(null)} />
      )}
      {saveReport.dialog}
      {importing && (
        <ImportDialog
          key={`${importing.name}-${importing.lastModified}-${importing.size}`}
          tableId={id}
          file={importing}
          onImported={(answer) => void onImported(importing.name, answer)}
          onClose={() => setImporting(null)}
        />
      )}
      <DataGrid
        columns={columns}
        source={source}
        query={grid.query}
        onQueryChange={grid.setQuery}
        chunkSize={STATIC_TABLE_CHUNK}
        pagination={grid.pagination}
        onViewChange={grid.setView}
        downloadUrl={`/api/tables/StaticTable/${encodeURIComponent(id)}/download`}
        unsaved={changes.unsaved}
        markUnsaved={changes.saveState === 'error'}
        {...(canWrite &&
          ({
            onEdit: changes.onEdit,
            onPaste: changes.onPaste,
            onColumnSettings: setSettingsFor,
            onDeleteRow: (rowId) => structural.mutate([{ kind: 'deleteRows', rowIds: [Number(rowId)] }]),
            onMoveRow: changes.onMoveRow,
            onDeleteColumn: setDeletingColumn,
            onMoveColumn: (columnKey, toIndex) => structural.mutate([{ kind: 'moveColumn', columnKey, toIndex }]),
            onSaveReport: (query) =>
              saveReport.open({
                source: { kind: 'StaticTable', id, ...query },
                name: table.data?.name ?? 'Table',
                what: gridReportContents(query.filterGroups.length > 0),
              }),
            actions: [
              {
                key: 'add-row',
                label: 'Add row',
                icon: <IconRowInsertBottom size={14} />,
                onClick: () => structural.mutate([{ kind: 'addRows', count: 1 }]),
              },
              {
                key: 'add-column',
                label: 'Add column',
                icon: <IconColumnInsertRight size={14} />,
                onClick: () =>
                  structural.mutate([{ kind: 'addColumn', column: { displayName: `Column ${columns.length + 1}` } }]),
              },
            ],
          } satisfies Partial<DataGridProps>))}
      />
      <ConfirmDialog
        opened={discarding}
        danger
        message={`Give up ${changes.unsavedCount === 1 ? 'the change' : `the ${changes.unsavedCount.toLocaleString()} changes`} not saved? The table is read again as the server has it.`}
        onCancel={() => setDiscarding(false)}
        onConfirm={() => {
          changes.discard();
          setDiscarding(false);
        }}
      />
      <ConfirmDialog
        opened={deleting}
        danger
        message={DELETE_PROMPT}
        loading={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() => remove.mutate({ id })}
      />
      <ConfirmDialog
        opened={deletingColumn !== null}
        danger
        message={`Delete the column "${data.columns.find((c) => c.columnKey === deletingColumn)?.displayName ?? ''}" and all its values?`}
        loading={structural.isPending}
        onCancel={() => setDeletingColumn(null)}
        onConfirm={() =>
          deletingColumn &&
          structural.mutate([{ kind: 'deleteColumn', columnKey: deletingColumn }], {
            onSettled: () => setDeletingColumn(null),
          })
        }
      />
      {settingsColumn && (
        <ColumnSettingsDialog
          tableId={id}
          column={settingsColumn}
          readOnly={!canWrite}
          onClose={() => setSettingsFor(null)}
          saveSettings={(patch) =>
            structural.mutateAsync([{ kind: 'updateColumn', columnKey: settingsColumn.columnKey, ...patch }])
          }
          onTypeChanged={async (keptToken) => {
            history.record({ kind: 'kept', token: keptToken });
            await refresh();
            await queryClient.invalidateQueries({ queryKey: source.key });
          }}
        />
      )}
    </Stack>
  );
}
