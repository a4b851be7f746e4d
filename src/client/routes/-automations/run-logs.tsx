import { Alert, Code, Skeleton, Text } from '@mantine/core';
import type { AutomationLogLine } from '../../../shared/automations';
import { errorMessage } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format';
import { trpc } from '../../trpc';

const LEVEL_COLOR = { ERROR: 'red', WARN: 'orange', INFO: undefined } as const;

/** Log lines as a block; [ERROR] and [WARN] lines styled as errors and warnings (spec §8). */
export function LogLines({ lines }: { lines: AutomationLogLine[] }) {
  if (lines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No logs available
      </Text>
    );
  return (
    <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="run-logs">
      {lines.map((line) => (
        <Text key={line.id} component="div" size="xs" ff="monospace" c={LEVEL_COLOR[line.level]}>
          {formatDateTime(line.createdAt)} [{line.level}] {line.message}
        </Text>
      ))}
    </Code>
  );
}

/** A run's log lines, read when shown (the live events refresh them). */
export function RunLogs({ runId }: { runId: string }) {
  const logs = trpc.automationRuns.logs.useQuery({ runId });
  if (logs.isPending) return <Skeleton h={60} />;
  if (logs.isError) return <Alert color="red">{errorMessage(logs.error)}</Alert>;
  return <LogLines lines={logs.data} />;
}
