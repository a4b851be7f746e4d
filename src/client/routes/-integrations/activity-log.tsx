import { Alert, Anchor, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { INTEGRATION_TIMINGS, type Job } from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format';
import { trpc } from '../../trpc';
import { RunDatasets } from './run-datasets';
import { isMoving } from './run-format';
import { RunHistory } from './run-history';
import { RunLogs } from './run-logs';
import { RunStatusBadge } from './run-status';

/** The latest run: its progress by dataset and its log lines by day (spec: the Activity log shows both). */
function LatestRun({ integrationId, job, moving }: { integrationId: string; job: Job; moving: boolean }) {
  return (
    <Paper p="md" withBorder>
      <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Text fw={600}>Latest run</Text>
          <RunStatusBadge status={job.status} />
        </Group>
        <Group gap="sm">
          <Text size="sm" c="dimmed">
            {formatDateTime(job.startedAt ?? job.createdAt)} · {job.recordsProcessed.toLocaleString()} record(s)
          </Text>
          <Anchor
            size="sm"
            renderRoot={(props) => (
              <Link {...props} to="/integrations/$id/runs/$runId" params={{ id: integrationId, runId: job.id }} />
            )}
          >
            Open run
          </Anchor>
        </Group>
      </Group>
      <Stack gap="md">
        <RunDatasets datasets={job.attempts.at(-1)?.progress.datasets ?? []} />
        <RunLogs integrationId={integrationId} runId={job.id} moving={moving} />
      </Stack>
    </Paper>
  );
}

/**
 * The Activity log tab: the latest run's progress and log lines grouped by day (polled while it runs),
 * then every run (paged, newest first, each opening its page).
 */
export function ActivityLog({
  integrationId,
  runsPage,
  onRunsPage,
}: {
  integrationId: string;
  runsPage: number;
  onRunsPage: (page: number) => void;
}) {
  const jobs = trpc.integrations.jobs.useQuery(
    { id: integrationId, page: 1, pageSize: 1 },
    { refetchInterval: (q) => (isMoving(q.state.data?.data[0]) ? INTEGRATION_TIMINGS.logsPollMs : false) },
  );
  const latest = jobs.data?.data[0];

  // The run just ended: its last log lines, the run list and the sync button's status are read once more.
  const utils = trpc.useUtils();
  const moving = isMoving(latest);
  const wasMoving = useRef(moving);
  useEffect(() => {
    if (wasMoving.current && !moving) {
      void utils.integrations.logs.invalidate({ id: integrationId });
      void utils.integrations.jobs.invalidate({ id: integrationId });
      void utils.integrations.jobStatus.invalidate({ id: integrationId });
    }
    wasMoving.current = moving;
  }, [moving, integrationId, utils]);

  if (jobs.isError) return <Alert color="red">{errorMessage(jobs.error)}</Alert>;
  if (jobs.isPending) return <Skeleton h={200} />;
  if (!latest)
    return (
      <Text c="dimmed" ta="center" py="xl">
        No logs available
      </Text>
    );
  return (
    <Stack gap="lg">
      <LatestRun integrationId={integrationId} job={latest} moving={moving} />
      <RunHistory integrationId={integrationId} page={runsPage} onPage={onRunsPage} />
    </Stack>
  );
}
