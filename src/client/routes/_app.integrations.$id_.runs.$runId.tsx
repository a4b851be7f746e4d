import { Alert, Anchor, Breadcrumbs, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, createFileRoute } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { INTEGRATION_TIMINGS, type Job } from '../../shared/integrations';
import { errorMessage } from '../lib/error-message';
import { trpc } from '../trpc';
import { RunDatasets } from './-integrations/run-datasets';
import { RUN_KIND_LABEL, formatDuration, formatRunTime, isMoving } from './-integrations/run-format';
import { RunLogs } from './-integrations/run-logs';
import { RunStatusBadge } from './-integrations/run-status';

/** One run of an integration: its figures, each dataset's figures and errors, and its own log lines. */
export const Route = createFileRoute('/_app/integrations/$id_/runs/$runId')({
  component: RunPage,
});

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </Stack>
  );
}

function RunPage() {
  const { id, runId } = Route.useParams();
  const integration = trpc.integrations.get.useQuery({ id });
  const job = trpc.integrations.job.useQuery(
    { id, jobId: runId },
    { refetchInterval: (q) => (isMoving(q.state.data) ? INTEGRATION_TIMINGS.logsPollMs : false) },
  );
  const name = integration.data?.name ?? 'Integration';
  const crumbs = (
    <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
      <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/integrations" />}>
        Integrations
      </Anchor>
      <Anchor
        size="sm"
        renderRoot={(props) => (
          <Link {...props} to="/integrations/$id" params={{ id }} search={{ tab: 'ActivityLog' }} />
        )}
      >
        {name}
      </Anchor>
      <Text size="sm">Run</Text>
    </Breadcrumbs>
  );
  if (job.isError)
    return (
      <Stack gap="sm">
        {crumbs}
        <Alert color="red">{errorMessage(job.error)}</Alert>
      </Stack>
    );
  if (!job.data)
    return (
      <Stack gap="sm">
        {crumbs}
        <Skeleton h={300} />
      </Stack>
    );
  return <RunView crumbs={crumbs} integrationId={id} job={job.data} />;
}

function RunView({ crumbs, integrationId, job }: { crumbs: ReactNode; integrationId: string; job: Job }) {
  const attempt = job.attempts.at(-1);
  const started = job.startedAt ?? job.createdAt;
  return (
    <Stack gap="md">
      {crumbs}
      <Group gap="sm" wrap="wrap">
        <Title order={2} size="h3">
          {RUN_KIND_LABEL[job.kind]} of {formatRunTime(started)}
        </Title>
        <RunStatusBadge status={job.status} />
      </Group>
      <Paper p="md" withBorder>
        <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="md" verticalSpacing="sm">
          <Figure label="Started">{formatRunTime(job.startedAt) || 'Not started'}</Figure>
          <Figure label="Ended">{formatRunTime(job.endedAt) || '—'}</Figure>
          <Figure label="Duration">{formatDuration(job.startedAt, job.endedAt)}</Figure>
          <Figure label="Records">{job.recordsProcessed.toLocaleString()}</Figure>
          <Figure label="Attempts">{job.attempts.length}</Figure>
        </SimpleGrid>
      </Paper>
      <Stack gap="xs">
        <Title order={3} size="h5">
          Datasets
        </Title>
        <RunDatasets datasets={attempt?.progress.datasets ?? []} />
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h5">
          Logs
        </Title>
        <RunLogs integrationId={integrationId} runId={job.id} moving={isMoving(job)} />
      </Stack>
    </Stack>
  );
}
