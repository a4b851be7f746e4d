import { Button } from '@mantine/core';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { ChartType } from '../../../shared/charts';
import { pivotChartData } from './chart-data';
import type { PivotData } from './pivot-data';
import { SheetChart } from './sheet-chart';

/**
 * The pivot as a chart: its rows (the first chunk's, at most 50) are the categories, its value
 * columns the series. `onEdit` is absent for a reader, who gets no button that changes the pivot.
 */
export function PivotChartView({
  data,
  type,
  title,
  onEdit,
  onSaveReport,
}: {
  data: PivotData;
  type: ChartType;
  title: string;
  onEdit?: () => void;
  onSaveReport?: () => void;
}) {
  const chartData = useMemo(
    () => (data.layout ? pivotChartData(data.layout, data.rows, data.hasMore) : null),
    [data.layout, data.rows, data.hasMore],
  );
  const action = onEdit && (
    <Button leftSection={<IconAdjustmentsHorizontal size={16} />} onClick={onEdit}>
      Edit pivot
    </Button>
  );
  const empty = data.empty
    ? { title: 'Build your pivot table', text: 'Choose its rows and the values to chart.', action }
    : {
        title: 'Nothing to chart',
        text: 'Add a value such as the sum of an amount: each value column is a series.',
        action,
      };
  return (
    <SheetChart
      data={data.empty ? { records: [], series: [], percent: false, truncated: false } : chartData}
      loading={!data.empty && data.loading}
      error={data.error}
      type={type}
      title={title}
      empty={empty}
      onSaveReport={onSaveReport}
    />
  );
}
