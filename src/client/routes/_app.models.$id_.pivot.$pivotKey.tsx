import { Alert, Anchor, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import type { Model } from '../../shared/models';
import { newPivot, type Pivot } from '../../shared/pivots';
import { SheetTabs } from '../components/data-grid/sheet-tabs';
import { SaveOnBlurInput } from '../components/save-on-blur-input';
import { errorMessage } from '../lib/error-message';
import { useAccess } from '../lib/use-access';
import { useSaveReport } from '../components/save-report/use-save-report';
import type { PivotChart } from '../../shared/charts';
import { PivotChartView } from './-models/pivot-chart';
import { PivotViewSwitch } from './-models/pivot-view-switch';
import { ColumnsPanel, type ColumnsPanelView } from './-models/columns-panel';
import { ModelHeader } from './-models/model-header';
import { usePivotData } from './-models/pivot-data';
import { pivotProblems, replacePivot, type PivotSection } from './-models/pivot-draft';
import { PivotEditor } from './-models/pivot-editor';
import { PivotGrid } from './-models/pivot-grid';
import { PivotToolbar } from './-models/pivot-toolbar';
import { useModel, type ModelHandle } from './-models/use-model';

/**
 * The pivot page, /models/{id}/pivot/{pivotKey}. `$id_` keeps it out of the model page's layout:
 * it is a page of its own (with the model's header), not a child rendered inside the model grid.
 */
export const Route = createFileRoute('/_app/models/$id_/pivot/$pivotKey')({
  component: PivotPage,
});

function PivotPage() {
  const { id, pivotKey } = Route.useParams();
  const handle = useModel(id);
  // Set while this pivot is being deleted, so its absence does not read as "not found" meanwhile.
  const [deleting, setDeleting] = useState(false);
  const model = handle.model.data;

  if (handle.model.isError) return <Alert color="red">{errorMessage(handle.model.error)}</Alert>;
  if (!model) return <Skeleton h={400} />;
  const pivot = model.pivots.find((p) => p.key === pivotKey);
  if (!pivot) {
    if (deleting) return <Skeleton h={400} />;
    return (
      <Alert color="yellow" title="Pivot not found">
        <Text size="sm">This pivot does not exist in the model, or it was deleted.</Text>
        <Button
          size="xs"
          mt="sm"
          variant="light"
          renderRoot={(props) => <Link {...props} to="/models/$id" params={{ id }} />}
        >
          Back to {model.name}
        </Button>
      </Alert>
    );
  }
  return <PivotView key={pivot.key} model={model} handle={handle} pivot={pivot} onDeleting={setDeleting} />;
}

interface EditorState {
  opened: boolean;
  session: number;
  focus: PivotSection | null;
}

function PivotView({
  model,
  handle,
  pivot,
  onDeleting,
}: {
  model: Model;
  handle: ModelHandle;
  pivot: Pivot;
  onDeleting: (deleting: boolean) => void;
}) {
  const navigate = useNavigate();
  const data = usePivotData(model, pivot);
  const problems = useMemo(() => pivotProblems(model, pivot.key), [model, pivot.key]);
  const [panel, setPanel] = useState<ColumnsPanelView | null>(null);
  const [editor, setEditor] = useState<EditorState>({ opened: false, session: 0, focus: null });
  // Readers (read_only members) view, chart and export the pivot; nothing they do is saved.
  const { canWrite } = useAccess();
  const saveReport = useSaveReport();
  const onSaveReport = canWrite
    ? () =>
        saveReport.open({
          source: { kind: 'Pivot', modelId: model.id, versionId: model.versionId, pivotKey: pivot.key },
          name: `${model.name} - ${pivot.name}`,
          what: 'the pivot and, in a PDF, its chart',
        })
    : undefined;
  // The chart choice shows at once; a writer's is saved with the pivot, a reader's lasts the visit.
  const [chart, setChart] = useState<PivotChart | null>(pivot.chart);
  const changeChart = (next: PivotChart) => {
    setChart(next);
    if (canWrite) void save({ ...pivot, chart: next }).catch(() => setChart(pivot.chart));
  };

  /** Saves the model's pivots with this one changed (or removed). */
  const save = (next: Pivot | null) =>
    handle.setPivots.mutateAsync({ id: model.id, pivots: replacePivot(model.pivots, pivot.key, next) });
  const openEditor = (focus: PivotSection | null = null) =>
    setEditor((e) => ({ opened: true, session: e.session + 1, focus }));
  const openPivot = (key: string) =>
    void navigate({ to: '/models/$id/pivot/$pivotKey', params: { id: model.id, pivotKey: key } });
  const addPivot = () => {
    const added = newPivot(model.pivots);
    handle.setPivots.mutate(
      { id: model.id, pivots: [...model.pivots, added] },
      { onSuccess: () => openPivot(added.key) },
    );
  };
  const deletePivot = async () => {
    onDeleting(true);
    try {
      await save(null);
      await navigate({ to: '/models/$id', params: { id: model.id } });
    } catch (error) {
      onDeleting(false);
      throw error;
    }
  };

  // Total and subtotal rows are not rows of data: the count leaves them out.
  const dataRows = data.rows.filter((row) => !row.isTotal).length;
  const status = data.empty
    ? ''
    : data.loading
      ? 'Loading rows...'
      : `Displaying ${dataRows} row(s)${data.hasMore ? ', more as you scroll' : ''}`;
  // On a phone the model's name and the pivot's wrap onto lines of their own, never cut short.
  const title = (
    <Group gap={4} wrap="wrap" style={{ minWidth: 0, flex: '1 1 auto' }}>
      <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
        <Anchor
          renderRoot={(props) => <Link {...props} to="/models/$id" params={{ id: model.id }} />}
          c="dimmed"
          fw={650}
          size="lg"
          style={{ overflowWrap: 'anywhere' }}
        >
          {model.name}
        </Anchor>
        <IconChevronRight size={18} color="var(--mantine-color-gray-5)" style={{ flex: 'none' }} />
      </Group>
      {canWrite ? (
        <SaveOnBlurInput
          aria-label="Pivot name"
          value={pivot.name}
          variant="unstyled"
          size="lg"
          fw={650}
          miw={160}
          maw={340}
          style={{ flex: '1 1 0' }}
          onSave={(name) => save({ ...pivot, name })}
        />
      ) : (
        <Text size="lg" fw={650} style={{ overflowWrap: 'anywhere' }}>
          {pivot.name}
        </Text>
      )}
    </Group>
  );
  const sheets = [{ key: 'data', name: 'Data model' }, ...model.pivots.map((p) => ({ key: p.key, name: p.name }))];

  return (
    <Stack gap="sm">
      <ModelHeader model={model} handle={handle} title={title} />
      <PivotToolbar
        model={model}
        pivot={pivot}
        problems={problems}
        status={status}
        onEdit={openEditor}
        onSave={save}
        onColumns={() => setPanel('columns')}
        canWrite={canWrite}
        view={<PivotViewSwitch chart={chart} onChange={changeChart} />}
        onSaveReport={onSaveReport}
      />
      {saveReport.dialog}
      {chart?.shown ? (
        <PivotChartView
          data={data}
          type={chart.type}
          title={`${model.name} - ${pivot.name}`}
          onEdit={canWrite ? () => openEditor() : undefined}
          onSaveReport={onSaveReport}
        />
      ) : (
        <PivotGrid data={data} onEdit={canWrite ? () => openEditor() : undefined} />
      )}
      <SheetTabs
        sheets={sheets}
        active={pivot.key}
        addLabel="Add pivot"
        onAdd={canWrite ? addPivot : undefined}
        onChange={(key) =>
          key === 'data' ? void navigate({ to: '/models/$id', params: { id: model.id } }) : openPivot(key)
        }
      />
      {canWrite && (
        <PivotEditor
          opened={editor.opened}
          session={editor.session}
          focus={editor.focus}
          model={model}
          pivot={pivot}
          problems={problems}
          onClose={() => setEditor((e) => ({ ...e, opened: false }))}
          onApply={save}
          onDelete={deletePivot}
        />
      )}
      {canWrite && (
        <ColumnsPanel model={model} handle={handle} view={panel} onView={setPanel} onClose={() => setPanel(null)} />
      )}
    </Stack>
  );
}
