import { Alert, Anchor, Group, Pagination, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { INTEGRATION_TIMINGS, RUNS_PAGE_SIZE } from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { RUN_KIND_LABEL, formatDuration, formatRunTime, isMoving } from './run-format';
import { RunStatusBadge } from './run-status';

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' };

/**
 * Every run of the integration, newest first, a page at a time (the paged jobs call, refreshed every
 * 10 s as the spec says). Each run's start time links to its page; the whole row opens it on click.
 */
export function RunHistory({
  integrationId,
  page,
  onPage,
}: {
  integrationId: string;
  page: number;
  onPage: (page: number) => void;
}) {
  const navigate = useNavigate();
  const jobs = trpc.integrations.jobs.useQuery(
    { id: integrationId, page, pageSize: RUNS_PAGE_SIZE },
    {
      placeholderData: (previous) => previous,
      refetchInterval: (q) =>
        q.state.data?.data.some(isMoving) ? INTEGRATION_TIMINGS.logsPollMs : INTEGRATION_TIMINGS.jobsPollMs,
    },
  );
  if (jobs.isError) return <Alert color="red">{errorMessage(jobs.error)}</Alert>;
  if (jobs.isPending) return <Skeleton h={160} />;
  const { data: runs, count, totalPages } = jobs.data;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={3} size="h5">
          Run history
        </Title>
        <Text size="sm" c="dimmed" data-testid="run-count">
          {count} run(s)
        </Text>
      </Group>
      {runs.length === 0 ? (
        <Text size="sm" c="dimmed">
          {count === 0 ? 'No runs yet.' : 'No runs on this page.'}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={320}>
          <Table highlightOnHover aria-label="Run history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Started</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th visibleFrom="sm">Kind</Table.Th>
                <Table.Th ta="right">Records</Table.Th>
                <Table.Th ta="right" visibleFrom="sm">
                  Duration
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((run) => {
                const params = { id: integrationId, runId: run.id };
                return (
                  <Table.Tr
                    key={run.id}
                    data-run-id={run.id}
                    style={{ cursor: 'pointer' }}
                    onClick={(event) => {
                      // The link itself handles its own clicks (and new-tab clicks).
                      if ((event.target as HTMLElement).closest('a')) return;
                      void navigate({ to: '/integrations/$id/runs/$runId', params });
                    }}
                  >
                    <Table.Td>
                      <Anchor
                        size="sm"
                        renderRoot={(props) => <Link {...props} to="/integrations/$id/runs/$runId" params={params} />}
                      >
                        {formatRunTime(run.startedAt ?? run.createdAt)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <RunStatusBadge status={run.status} />
                    </Table.Td>
                    <Table.Td visibleFrom="sm">{RUN_KIND_LABEL[run.kind]}</Table.Td>
                    <Table.Td ta="right">{run.recordsProcessed.toLocaleString()}</Table.Td>
                    <Table.Td ta="right" visibleFrom="sm">
                      {formatDuration(run.startedAt, run.endedAt)}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {totalPages > 1 && (
        <Group justify="flex-end">
          <Pagination
            size="sm"
            total={totalPages}
            value={Math.min(page, totalPages)}
            onChange={onPage}
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
          />
        </Group>
      )}
    </Stack>
  );
}
