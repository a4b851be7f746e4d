import { Alert, Badge, Code, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { INTEGRATION_TIMINGS, type Job, type RunLog } from '../../../shared/integrations';
import { formatDate, formatDateTime } from '../../lib/format';
import { trpc } from '../../trpc';
import { RunStatusBadge } from './run-status';

const isMoving = (job: Job | undefined) => job?.status === 'Running' || job?.status === 'Pending';

/** Log lines by calendar day, in the order they were written. */
function byDay(logs: RunLog[]): [string, RunLog[]][] {
  const groups = new Map<string, RunLog[]>();
  for (const log of logs) {
    const day = formatDate(log.at);
    groups.set(day, [...(groups.get(day) ?? []), log]);
  }
  return [...groups];
}

const LEVEL_COLOR = { ERROR: 'red', WARN: 'orange', INFO: undefined } as const;

function LatestProgress({ job }: { job: Job }) {
  const attempt = job.attempts.at(-1);
  const datasets = attempt?.progress.datasets ?? [];
  return (
    <Paper p="md" withBorder>
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Text fw={600}>Latest run</Text>
          <RunStatusBadge status={job.status} />
        </Group>
        <Text size="sm" c="dimmed">
          {formatDateTime(job.startedAt ?? job.createdAt)} · {job.recordsProcessed.toLocaleString()} record(s)
        </Text>
      </Group>
      {datasets.length > 0 && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Dataset</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Records</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {datasets.map((d) => (
              <Table.Tr key={d.name}>
                <Table.Td>
                  {d.name}
                  {d.errors.map((e, i) => (
                    <Text key={i} size="xs" c={e.type === 'TransientError' ? 'orange' : 'red'}>
                      {e.type}: {e.message}
                    </Text>
                  ))}
                </Table.Td>
                <Table.Td>
                  <RunStatusBadge status={d.status} />
                </Table.Td>
                <Table.Td>{d.recordsProcessed.toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

/** The Activity log tab: the latest run's progress and its log lines grouped by day, polled while running. */
export function ActivityLog({ integrationId }: { integrationId: string }) {
  const jobs = trpc.integrations.jobs.useQuery(
    { id: integrationId, page: 1, pageSize: 1 },
    { refetchInterval: (q) => (isMoving(q.state.data?.data[0]) ? INTEGRATION_TIMINGS.logsPollMs : false) },
  );
  const latest = jobs.data?.data[0];
  const logs = trpc.integrations.logs.useQuery(
    { id: integrationId, jobId: latest?.id ?? '' },
    { enabled: latest !== undefined, refetchInterval: isMoving(latest) ? INTEGRATION_TIMINGS.logsPollMs : false },
  );

  // The run just ended: its last log lines and the sync button's status are read once more.
  const utils = trpc.useUtils();
  const moving = isMoving(latest);
  const wasMoving = useRef(moving);
  useEffect(() => {
    if (wasMoving.current && !moving) {
      void utils.integrations.logs.invalidate({ id: integrationId });
      void utils.integrations.jobStatus.invalidate({ id: integrationId });
    }
    wasMoving.current = moving;
  }, [moving, integrationId, utils]);

  if (jobs.isError || logs.isError) return <Alert color="red">Something went wrong..</Alert>;
  if (jobs.isPending) return <Skeleton h={200} />;
  if (!latest)
    return (
      <Text c="dimmed" ta="center" py="xl">
        No logs available
      </Text>
    );
  const groups = byDay(logs.data ?? []);
  return (
    <Stack gap="md">
      <LatestProgress job={latest} />
      {logs.isPending && <Skeleton h={120} />}
      {logs.data && groups.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          No logs available
        </Text>
      )}
      {groups.map(([day, lines]) => (
        <Stack key={day} gap={4}>
          <Title order={4} size="h6">
            <Badge variant="default" tt="none">
              {day}
            </Badge>
          </Title>
          <Code block>
            {lines.map((log) => (
              <Text key={log.id} component="div" size="xs" ff="monospace" c={LEVEL_COLOR[log.level]}>
                {formatDateTime(log.at)} {log.line}
              </Text>
            ))}
          </Code>
        </Stack>
      ))}
    </Stack>
  );
}
