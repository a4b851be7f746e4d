import '@mantine/charts/styles.css';
import { AreaChart, BarChart, LineChart, PieChart } from '@mantine/charts';
import { Alert, Box, Button, EmptyState, Group, Menu, Select, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconChartBar,
  IconDownload,
  IconFileDescription,
  IconPhoto,
  IconVectorBezier2,
} from '@tabler/icons-react';
import { useRef, useState, type ReactNode } from 'react';
import { CHART_LIMITS, type ChartType } from '../../../shared/charts';
import { errorMessage } from '../../lib/error-message';
import { CATEGORY_KEY, formatChartValue, pieSlices, type ChartData } from './chart-data';
import { chartFileName, chartSvg, saveBlob, svgToPng } from './chart-export';

const CHART_HEIGHT = 360;

interface SheetChartProps {
  data: ChartData | null;
  loading: boolean;
  error: unknown;
  type: ChartType;
  /** The chart's title in exported files and their file name (the model or pivot name). */
  title: string;
  /** What to do when there is nothing to draw yet (e.g. "Add a value to the pivot"). */
  empty: { title: string; text: string; action?: ReactNode };
  /** Adds 'Save as report…' to Export chart (a PDF report draws the chart itself). */
  onSaveReport?: () => void;
}

/**
 * A pivot or model sheet drawn as a bar, line, area or pie chart (recharts through Mantine), with
 * 'Export chart' as PNG or SVG. Loading, failure ('Failed to load chart'), nothing to draw, and more
 * categories than a chart shows (the first 50, with a note) each have their own look.
 */
export function SheetChart({ data, loading, error, type, title, empty, onSaveReport }: SheetChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [pieKey, setPieKey] = useState<string | null>(null);

  if (error) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={16} />} title="Failed to load chart">
        <Text size="sm">{errorMessage(error)}</Text>
      </Alert>
    );
  }
  if (loading || !data) return <Skeleton h={CHART_HEIGHT + 40} aria-label="Loading chart" />;
  if (data.records.length === 0 || data.series.length === 0) {
    return (
      <Box style={{ display: 'grid', placeItems: 'center', minHeight: CHART_HEIGHT }}>
        <EmptyState
          title={empty.title}
          description={empty.text}
          icon={<IconChartBar size={28} stroke={1.5} />}
          variant="light"
          maw={420}
          p="xl"
        >
          {empty.action && <EmptyState.Actions>{empty.action}</EmptyState.Actions>}
        </EmptyState>
      </Box>
    );
  }

  const series = data.series.map((s) => ({ name: s.key, label: s.label, color: s.color }));
  const format = (value: number) => formatChartValue(value, data.percent);
  const pieSeries = data.series.find((s) => s.key === pieKey) ?? data.series[0]!;
  const slices = type === 'pie' ? pieSlices(data, pieSeries.key) : [];
  const crowded = data.records.length > 8;
  const xAxisProps = crowded ? { angle: -35, textAnchor: 'end' as const, height: 70, interval: 0 } : {};
  const legend =
    type === 'pie'
      ? slices.map((slice) => ({ label: slice.name, color: `var(--mantine-color-${slice.color.replace('.', '-')})` }))
      : data.series.map((s) => ({ label: s.label, color: `var(--mantine-color-${s.color.replace('.', '-')})` }));

  const exportAs = async (format: 'png' | 'svg') => {
    try {
      if (!box.current) return;
      const file = chartSvg({ root: box.current, title, legend });
      const blob =
        format === 'svg'
          ? new Blob([file.svg], { type: 'image/svg+xml' })
          : await svgToPng(file.svg, file.width, file.height);
      saveBlob(blob, chartFileName(title, format));
    } catch (cause) {
      notifications.show({ color: 'red', title: 'Export failed', message: errorMessage(cause) });
    }
  };

  let chart: ReactNode;
  if (type === 'pie') {
    chart = (
      <PieChart
        data={slices}
        h={CHART_HEIGHT}
        size={Math.min(300, CHART_HEIGHT - 40)}
        withLabels
        labelsType="percent"
        labelsPosition="inside"
        withTooltip
        tooltipDataSource="segment"
        valueFormatter={format}
        pieProps={{ isAnimationActive: false }}
        mx="auto"
      />
    );
  } else {
    const common = {
      h: CHART_HEIGHT,
      data: data.records,
      dataKey: CATEGORY_KEY,
      series,
      withLegend: true,
      legendProps: { verticalAlign: 'bottom' as const },
      valueFormatter: format,
      xAxisProps,
      tickLine: 'y' as const,
    };
    chart =
      type === 'bar' ? (
        <BarChart {...common} barProps={{ isAnimationActive: false }} />
      ) : type === 'line' ? (
        <LineChart {...common} curveType="linear" lineProps={{ isAnimationActive: false }} connectNulls />
      ) : (
        <AreaChart {...common} curveType="linear" areaProps={{ isAnimationActive: false }} connectNulls />
      );
  }

  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs">
          {type === 'pie' && data.series.length > 1 && (
            <Select
              size="xs"
              w={240}
              aria-label="Pie of"
              data={data.series.map((s) => ({ value: s.key, label: s.label }))}
              value={pieSeries.key}
              allowDeselect={false}
              onChange={setPieKey}
            />
          )}
          {data.truncated && (
            <Text size="xs" c="dimmed" data-testid="chart-note">
              Showing the first {CHART_LIMITS.maxCategories} categories; filter the data to see others.
            </Text>
          )}
          {type === 'pie' && slices.length < data.records.length && (
            <Text size="xs" c="dimmed">
              Categories with no or negative values are not in the pie.
            </Text>
          )}
        </Group>
        <Menu shadow="md" position="bottom-end">
          <Menu.Target>
            <Button size="xs" variant="default" leftSection={<IconDownload size={14} />}>
              Export chart
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPhoto size={14} />} onClick={() => void exportAs('png')}>
              PNG
            </Menu.Item>
            <Menu.Item leftSection={<IconVectorBezier2 size={14} />} onClick={() => void exportAs('svg')}>
              SVG
            </Menu.Item>
            {onSaveReport && (
              <>
                <Menu.Divider />
                <Menu.Item leftSection={<IconFileDescription size={14} />} onClick={onSaveReport}>
                  Save as report…
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Box
        ref={box}
        role="figure"
        aria-label={`${title} chart`}
        data-chart-type={type}
        p="sm"
        style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, background: 'white' }}
      >
        {chart}
      </Box>
    </Stack>
  );
}
