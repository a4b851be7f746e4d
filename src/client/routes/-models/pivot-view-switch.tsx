import { Group, SegmentedControl, Select } from '@mantine/core';
import { CHART_TYPES, CHART_TYPE_LABELS, type ChartType, type PivotChart } from '../../../shared/charts';

/**
 * Grid or Chart, and which chart: what the pivot page shows. The choice is the pivot's own
 * (saved with it by the page when the user may change the pivot).
 */
export function PivotViewSwitch({
  chart,
  onChange,
}: {
  chart: PivotChart | null;
  onChange: (next: PivotChart) => void;
}) {
  const shown = chart?.shown ?? false;
  const type: ChartType = chart?.type ?? 'bar';
  return (
    <Group gap={6} wrap="nowrap">
      <SegmentedControl
        size="xs"
        aria-label="Show the pivot as"
        value={shown ? 'chart' : 'table'}
        onChange={(value) => onChange({ type, shown: value === 'chart' })}
        data={[
          { value: 'table', label: 'Grid' },
          { value: 'chart', label: 'Chart' },
        ]}
      />
      {shown && (
        <Select
          size="xs"
          w={96}
          aria-label="Chart type"
          data={CHART_TYPES.map((t) => ({ value: t, label: CHART_TYPE_LABELS[t] }))}
          value={type}
          allowDeselect={false}
          onChange={(value) => value && onChange({ type: value as ChartType, shown: true })}
        />
      )}
    </Group>
  );
}
