import { Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { AUTOMATION_MESSAGES, type AutomationRun } from '../../../shared/automations';
import { formatDate, formatDateTime } from '../../lib/format';
import { trpc } from '../../trpc';
import { RunLogs } from './run-logs';
import { AutomationStatusIcon } from './status';

/** Runs by calendar day of their start, newest first (as the server answers them). */
function byDay(runs: AutomationRun[]): [string, AutomationRun[]][] {
  const groups = new Map<string, AutomationRun[]>();
  for (const run of runs) {
    const day = formatDate(run.startedAt ?? run.createdAt);
    groups.set(day, [...(groups.get(day) ?? []), run]);
  }
  return [...groups];
}

/** Activity log: the automation's runs grouped by day, each with its status, 'View run' and logs. */
export function ActivityLogTab({ automationId }: { automationId: string }) {
  const runs = trpc.automationRuns.list.useQuery({ automationDefinitionId: automationId, limit: 100 });
  if (runs.isPending) return <Skeleton h={200} />;
  if (runs.isError)
    return (
      <Text c="red" role="alert">
        {AUTOMATION_MESSAGES.loadRunsFailed}
      </Text>
    );
  if (runs.data.length === 0)
    return (
      <Text c="dimmed" ta="center" py="xl">
        {AUTOMATION_MESSAGES.noRuns}
      </Text>
    );
  return (
    <Stack gap="lg" data-testid="activity-log">
      {byDay(runs.data).map(([day, dayRuns]) => (
        <Stack key={day} gap="xs">
          <Badge variant="default" tt="none" size="lg">
            {day}
          </Badge>
          {dayRuns.map((run) => (
            <RunRow key={run.id} automationId={automationId} run={run} />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}

function RunRow({ automationId, run }: { automationId: string; run: AutomationRun }) {
  const [open, setOpen] = useState(false);
  return (
    <Paper p="sm" withBorder data-testid="activity-run">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <AutomationStatusIcon status={run.status} />
          <div style={{ minWidth: 0 }}>
            <Text fw={600} size="sm">
              Run #{run.runNumber} - {run.status}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(run.startedAt ?? run.createdAt)}
              {run.durationInSeconds != null ? ` · ${Math.round(run.durationInSeconds)}s` : ''}
            </Text>
          </div>
        </Group>
        <Group gap="sm">
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
            aria-expanded={open}
            onClick={() => setOpen((v) => !v)}
          >
            Logs
          </Button>
          <Anchor
            size="sm"
            renderRoot={(props) => (
              <Link {...props} to="/automations/$id/run/$runId" params={{ id: automationId, runId: run.id }} />
            )}
          >
            View run
          </Anchor>
        </Group>
      </Group>
      {run.error && (
        <Text size="sm" c="red" mt={4} style={{ overflowWrap: 'anywhere' }}>
          {run.error}
        </Text>
      )}
      {open && (
        <Stack mt="xs">
          <RunLogs runId={run.id} />
        </Stack>
      )}
    </Paper>
  );
}
