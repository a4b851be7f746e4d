import { Alert, Card, Group, Skeleton, Text, Title, Tooltip } from '@mantine/core';
import type { RecordsPerDay } from '../../../shared/integrations';
import { trpc } from '../../trpc';

const DAYS = 30;
const HEIGHT = 140;

/**
 * 'Integration data': records processed per day over the last 30 days, shown once the account has
 * an integration. Plain bars with a hover label per day; 'Failed to load chart' when it cannot load.
 */
export function IntegrationDataChart() {
  const integrations = trpc.integrations.list.useQuery();
  const hasIntegrations = (integrations.data?.length ?? 0) > 0;
  const stats = trpc.integrations.recordsPerDay.useQuery({ days: DAYS }, { enabled: hasIntegrations });
  if (!hasIntegrations) return null;
  return (
    <Card padding="lg" aria-label="Integration data">
      <Group justify="space-between" mb="md">
        <Title order={3} size="h4">
          Integration data
        </Title>
        <Text size="sm" c="dimmed">
          Records processed, last {DAYS} days
        </Text>
      </Group>
      {stats.isError && <Alert color="red">Failed to load chart</Alert>}
      {stats.isPending && <Skeleton h={HEIGHT} />}
      {stats.data && <Bars days={stats.data} />}
    </Card>
  );
}

function Bars({ days }: { days: RecordsPerDay[] }) {
  const max = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  return (
    <>
      <Group
        gap={3}
        align="flex-end"
        h={HEIGHT}
        wrap="nowrap"
        role="img"
        aria-label={`${total} records in ${days.length} days`}
      >
        {days.map((d) => (
          <Tooltip key={d.day} label={`${d.day}: ${d.count.toLocaleString()} records`} withArrow>
            <div
              data-day={d.day}
              style={{
                flex: 1,
                height: `${Math.max(2, (d.count / max) * HEIGHT)}px`,
                borderRadius: 3,
                background: d.count > 0 ? 'var(--mantine-color-blue-5)' : 'var(--mantine-color-gray-2)',
              }}
            />
          </Tooltip>
        ))}
      </Group>
      <Group justify="space-between" mt={6}>
        <Text size="xs" c="dimmed">
          {days[0]?.day}
        </Text>
        <Text size="xs" c="dimmed">
          {total.toLocaleString()} records in all
        </Text>
        <Text size="xs" c="dimmed">
          {days.at(-1)?.day}
        </Text>
      </Group>
    </>
  );
}
