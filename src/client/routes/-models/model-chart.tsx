import { Group, MultiSelect, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  CHART_LIMITS,
  CHART_TYPES,
  CHART_TYPE_LABELS,
  MODEL_CHART_AGGREGATIONS,
  type ChartType,
  type ModelChartAggregation,
} from '../../../shared/charts';
import type { Model, ModelColumn } from '../../../shared/models';
import { useSaveReport } from '../../components/save-report/use-save-report';
import { useAccess } from '../../lib/use-access';
import {
  AGGREGATION_LABELS,
  PIVOT_TIME_GRAINS,
  PIVOT_TIME_GRAIN_LABELS,
  isPivotableType,
  takesTimeGrain,
  type PivotTimeGrain,
} from '../../../shared/pivots';
import { trpc } from '../../trpc';
import { pivotChartData } from './chart-data';
import { SheetChart } from './sheet-chart';

/** A model chart's settings. They last the browser session (the model has no saved view settings). */
export interface ModelChartSettings {
  type: ChartType;
  category: string | null;
  grain: PivotTimeGrain | null;
  series: string[];
  aggregation: ModelChartAggregation;
}

const storageKey = (modelId: string) => `model-chart:${modelId}`;

function readSettings(modelId: string): Partial<ModelChartSettings> {
  try {
    return JSON.parse(sessionStorage.getItem(storageKey(modelId)) ?? '{}') as Partial<ModelChartSettings>;
  } catch {
    return {};
  }
}

/** Column names that say the numbers are identifiers, not amounts: "id", "Order ID", "customer_id", "OrderId". */
const looksLikeId = (name: string) => /(^|[\s_-])id$|^id[\s_-]/i.test(name) || /[a-z](Id|ID)$/.test(name);

/** The stored settings where they still name the model's columns, else a first useful chart. */
function initialSettings(modelId: string, columns: readonly ModelColumn[]): ModelChartSettings {
  const stored = readSettings(modelId);
  const known = new Set(columns.map((c) => c.columnKey));
  const dated = columns.find((c) => takesTimeGrain(c.type));
  const text = columns.find((c) => c.type === 'Text');
  const category = stored.category && known.has(stored.category) ? stored.category : (dated ?? text)?.columnKey;
  const numbers = columns.filter((c) => c.type === 'Number').map((c) => c.columnKey);
  const series = (stored.series ?? []).filter((key) => numbers.includes(key));
  // Summing identifiers (Order ID, customer_id) charts nothing useful: a measure comes first.
  const measures = columns.filter((c) => c.type === 'Number' && !looksLikeId(c.displayName));
  const categoryColumn = columns.find((c) => c.columnKey === category);
  return {
    type: stored.type && CHART_TYPES.includes(stored.type) ? stored.type : 'bar',
    category: category ?? null,
    grain: categoryColumn && takesTimeGrain(categoryColumn.type) ? (stored.grain ?? 'month') : null,
    series: series.length > 0 ? series : [measures[0]?.columnKey ?? numbers[0]].filter((key) => key !== undefined),
    aggregation:
      stored.aggregation && MODEL_CHART_AGGREGATIONS.includes(stored.aggregation) ? stored.aggregation : 'Sum',
  };
}

/**
 * The model sheet as a chart: the rows grouped by a category column (a date by a time grain) and
 * one or more number columns summed, averaged or counted per category on the server, at most 50
 * categories. The choices are kept for the browser session.
 */
export function ModelChart({ model }: { model: Model }) {
  const { canWrite } = useAccess();
  const saveReport = useSaveReport();
  const columns = useMemo(() => model.columns.filter((c) => isPivotableType(c.type)), [model.columns]);
  const [settings, setSettingsState] = useState(() => initialSettings(model.id, columns));
  const setSettings = (next: ModelChartSettings) => {
    setSettingsState(next);
    sessionStorage.setItem(storageKey(model.id), JSON.stringify(next));
  };
  const categoryColumn = columns.find((c) => c.columnKey === settings.category);
  const numbers = columns.filter((c) => c.type === 'Number');
  const counting = settings.aggregation === 'Count';
  const ready = settings.category !== null && settings.series.length > 0;
  const answer = trpc.models.chartData.useQuery(
    {
      versionId: model.versionId,
      category: { column: settings.category ?? '', grain: settings.grain },
      series: settings.series.map((column) => ({ column, function: settings.aggregation })),
    },
    { enabled: ready, placeholderData: keepPreviousData, retry: false },
  );
  const data = useMemo(
    () => (answer.data ? pivotChartData(answer.data.layout, answer.data.rows, answer.data.hasMore) : null),
    [answer.data],
  );

  return (
    <Stack gap="sm">
      <Paper withBorder p="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            size="xs"
            w={200}
            label="Category"
            data={columns.map((c) => ({ value: c.columnKey, label: c.displayName }))}
            value={settings.category}
            allowDeselect={false}
            searchable={columns.length > 5}
            onChange={(key) => {
              const picked = columns.find((c) => c.columnKey === key);
              if (!picked) return;
              const grain = takesTimeGrain(picked.type) ? (settings.grain ?? 'month') : null;
              setSettings({ ...settings, category: picked.columnKey, grain });
            }}
          />
          {categoryColumn && takesTimeGrain(categoryColumn.type) && (
            <Select
              size="xs"
              w={120}
              label="Group by"
              data={PIVOT_TIME_GRAINS.map((g) => ({ value: g, label: PIVOT_TIME_GRAIN_LABELS[g] }))}
              value={settings.grain ?? 'month'}
              allowDeselect={false}
              onChange={(grain) => grain && setSettings({ ...settings, grain: grain as PivotTimeGrain })}
            />
          )}
          <MultiSelect
            size="xs"
            miw={220}
            maw={420}
            label={counting ? 'Count of' : 'Values'}
            placeholder={settings.series.length === 0 ? 'Choose number columns' : undefined}
            data={(counting ? columns : numbers).map((c) => ({ value: c.columnKey, label: c.displayName }))}
            value={settings.series}
            maxValues={CHART_LIMITS.maxSeries}
            onChange={(series) => setSettings({ ...settings, series })}
          />
          <Select
            size="xs"
            w={120}
            label="Aggregation"
            data={MODEL_CHART_AGGREGATIONS.map((a) => ({ value: a, label: AGGREGATION_LABELS[a] }))}
            value={settings.aggregation}
            allowDeselect={false}
            onChange={(value) => {
              if (!value) return;
              const aggregation = value as ModelChartAggregation;
              // Sums and averages take number columns only.
              const series =
                aggregation === 'Count'
                  ? settings.series
                  : settings.series.filter((key) => numbers.some((c) => c.columnKey === key));
              setSettings({ ...settings, aggregation, series });
            }}
          />
          <Select
            size="xs"
            w={96}
            label="Chart type"
            data={CHART_TYPES.map((t) => ({ value: t, label: CHART_TYPE_LABELS[t] }))}
            value={settings.type}
            allowDeselect={false}
            onChange={(type) => type && setSettings({ ...settings, type: type as ChartType })}
          />
        </Group>
        <Text size="xs" c="dimmed" mt={6}>
          Summed up over all the model&apos;s rows. These choices last for this browser session.
        </Text>
      </Paper>
      <SheetChart
        data={ready ? data : { records: [], series: [], percent: false, truncated: false }}
        loading={ready && answer.isPending}
        error={answer.isError ? answer.error : null}
        type={settings.type}
        title={model.name}
        onSaveReport={
          canWrite && ready
            ? () =>
                saveReport.open({
                  source: {
                    kind: 'ModelChart',
                    modelId: model.id,
                    versionId: model.versionId,
                    chart: {
                      category: { column: settings.category ?? '', grain: settings.grain },
                      series: settings.series.map((column) => ({ column, function: settings.aggregation })),
                    },
                    chartType: settings.type,
                  },
                  name: `${model.name} - Chart`,
                  what: 'the chart’s categories and values and, in a PDF, the chart',
                })
            : undefined
        }
        empty={{
          title: 'Nothing to chart yet',
          text:
            numbers.length === 0 && !counting
              ? 'This model has no number column: choose Count to chart how many rows each category has.'
              : 'Choose a category column and at least one number column.',
        }}
      />
      {saveReport.dialog}
    </Stack>
  );
}

export type ModelSheetView = 'table' | 'chart';

/** Whether the model page shows its sheet as the grid or as a chart, for this browser session. */
export function useModelSheetView(modelId: string): [ModelSheetView, (view: ModelSheetView) => void] {
  const key = `model-view:${modelId}`;
  const [view, setView] = useState<ModelSheetView>(() => (sessionStorage.getItem(key) === 'chart' ? 'chart' : 'table'));
  const change = (next: ModelSheetView) => {
    setView(next);
    sessionStorage.setItem(key, next);
  };
  return [view, change];
}

/** The Table/Chart switch of the model sheet's toolbar. */
export function ModelViewSwitch({
  view,
  onChange,
}: {
  view: ModelSheetView;
  onChange: (view: ModelSheetView) => void;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label="Show the model as"
      value={view}
      onChange={(value) => onChange(value === 'chart' ? 'chart' : 'table')}
      // 'Grid', not 'Table': the model's column editor has a field labelled Table.
      data={[
        { value: 'table', label: 'Grid' },
        { value: 'chart', label: 'Chart' },
      ]}
    />
  );
}
