import { Alert, Badge, Code, Skeleton, Stack, Text, Title } from '@mantine/core';
import { INTEGRATION_TIMINGS, type RunLog } from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { formatDate, formatDateTime } from '../../lib/format';
import { trpc } from '../../trpc';

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

/** One run's log lines grouped by day; polled every 2 s while the run moves (spec §9). */
export function RunLogs({ integrationId, runId, moving }: { integrationId: string; runId: string; moving: boolean }) {
  const logs = trpc.integrations.logs.useQuery(
    { id: integrationId, jobId: runId },
    { refetchInterval: moving ? INTEGRATION_TIMINGS.logsPollMs : false },
  );
  if (logs.isError) return <Alert color="red">{errorMessage(logs.error)}</Alert>;
  if (logs.isPending) return <Skeleton h={120} />;
  const groups = byDay(logs.data);
  if (groups.length === 0)
    return (
      <Text c="dimmed" ta="center" py="md">
        No logs available
      </Text>
    );
  return (
    <Stack gap="md" data-testid="run-logs">
      {groups.map(([day, lines]) => (
        <Stack key={day} gap={4}>
          <Title order={4} size="h6">
            <Badge variant="default" tt="none">
              {day}
            </Badge>
          </Title>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
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
