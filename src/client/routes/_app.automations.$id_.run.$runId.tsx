import { Alert, Anchor, Button, Code, Group, Menu, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconChevronDown, IconPlayerStop, IconRefresh } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import {
  AUTOMATION_MESSAGES,
  STEP_KIND_LABELS,
  type AutomationLogLine,
  type AutomationRunDetail,
  type InputValue,
  type StepRun,
} from '../../shared/automations';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { formatDateTime } from '../lib/format';
import { useAccess } from '../lib/use-access';
import { trpc } from '../trpc';
import { LiveBannerAlert, useAutomationLive } from './-automations/live';
import { LogLines } from './-automations/run-logs';
import { AutomationStatusBadge, isMoving } from './-automations/status';

export const Route = createFileRoute('/_app/automations/$id_/run/$runId')({
  component: RunPage,
});

/** While a run moves, its steps are read again this often besides the live events (a missed event heals). */
const MOVING_POLL_MS = 3_000;

function RunPage() {
  const { id, runId } = Route.useParams();
  const live = useAutomationLive((message) => message.runId === runId || message.automationId === runId);
  const run = trpc.automationRuns.get.useQuery(
    { runId },
    { refetchInterval: (q) => (q.state.data && isMoving(q.state.data.status) ? MOVING_POLL_MS : false) },
  );
  const logs = trpc.automationRuns.logs.useQuery(
    { runId },
    { refetchInterval: run.data && isMoving(run.data.status) ? MOVING_POLL_MS : false },
  );
  return (
    <Stack gap="sm">
      <BreadcrumbBar
        title={`Automation Run - ${runId}`}
        actions={run.data && <RunActions automationId={id} run={run.data} />}
      />
      <LiveBannerAlert banner={live.banner} onClose={live.dismiss} />
      {run.isError ? (
        <Text c="red" role="alert">
          {AUTOMATION_MESSAGES.loadRunFailed}
        </Text>
      ) : !run.data ? (
        <Skeleton h={300} />
      ) : (
        <RunView automationId={id} run={run.data} logs={logs.data ?? []} />
      )}
    </Stack>
  );
}

/** 'Rerun automation' (from the start, or from the failed step) and Cancel while it runs. */
function RunActions({ automationId, run }: { automationId: string; run: AutomationRunDetail }) {
  const access = useAccess();
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const rerun = trpc.automationRuns.rerun.useMutation({
    onSuccess: async (next) => {
      await utils.automationRuns.invalidate();
      await navigate({ to: '/automations/$id/run/$runId', params: { id: automationId, runId: next.id } });
    },
  });
  const cancel = trpc.automationRuns.cancel.useMutation({
    onSuccess: () => utils.automationRuns.invalidate(),
  });
  if (!access.canWrite) return null;
  const failedStep = run.steps.find(
    (step) => step.status === 'Failed' || step.status === 'TimedOut' || step.status === 'Cancelled',
  );
  const resumable = !isMoving(run.status) && run.status !== 'Completed' && failedStep !== undefined;
  return (
    <>
      {isMoving(run.status) && (
        <Button
          variant="default"
          color="red"
          leftSection={<IconPlayerStop size={16} />}
          loading={cancel.isPending}
          onClick={() => cancel.mutate({ runId: run.id })}
        >
          Cancel
        </Button>
      )}
      {resumable ? (
        <Menu position="bottom-end">
          <Menu.Target>
            <Button
              leftSection={<IconRefresh size={16} />}
              rightSection={<IconChevronDown size={14} />}
              loading={rerun.isPending}
            >
              Rerun automation
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => rerun.mutate({ runId: run.id, from: 'FailedStep' })}>
              From the failed step ({failedStep.name})
            </Menu.Item>
            <Menu.Item onClick={() => rerun.mutate({ runId: run.id, from: 'Start' })}>From the start</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ) : (
        <Button
          leftSection={<IconRefresh size={16} />}
          loading={rerun.isPending}
          disabled={isMoving(run.status)}
          onClick={() => rerun.mutate({ runId: run.id, from: 'Start' })}
        >
          Rerun automation
        </Button>
      )}
    </>
  );
}

const seconds = (from: string | null, to: string | null) =>
  from && to ? `${Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000))}s` : '';

function RunView({
  automationId,
  run,
  logs,
}: {
  automationId: string;
  run: AutomationRunDetail;
  logs: AutomationLogLine[];
}) {
  const runLines = logs.filter((line) => line.stepId === null);
  return (
    <Stack gap="md">
      <Paper p="md" withBorder>
        <Group gap="sm" wrap="wrap">
          <Anchor
            fw={600}
            renderRoot={(props) => <Link {...props} to="/automations/$id" params={{ id: automationId }} />}
          >
            {run.name}
          </Anchor>
          <Text fw={600}>Run #{run.runNumber}</Text>
          <AutomationStatusBadge status={run.status} />
          <Text size="sm" c="dimmed">
            {run.origin}
            {run.startedAt
              ? ` · started ${formatDateTime(run.startedAt)}`
              : ` · created ${formatDateTime(run.createdAt)}`}
            {run.durationInSeconds != null ? ` · ${Math.round(run.durationInSeconds)}s` : ''}
          </Text>
        </Group>
        {run.rerunOf && (
          <Text size="sm" mt={4}>
            Rerun of{' '}
            <Anchor
              renderRoot={(props) => (
                <Link
                  {...props}
                  to="/automations/$id/run/$runId"
                  params={{ id: automationId, runId: run.rerunOf ?? '' }}
                />
              )}
            >
              {run.rerunOf}
            </Anchor>
            {run.resumedFromStepId ? ', from its failed step' : ', from the start'}
          </Text>
        )}
        {run.error && (
          <Alert color="red" mt="sm" p="xs">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {run.error}
            </Text>
          </Alert>
        )}
      </Paper>
      {run.steps.map((step) => (
        <StepRunCard key={step.stepId} step={step} logs={logs.filter((line) => line.stepId === step.stepId)} />
      ))}
      {runLines.length > 0 && (
        <Stack gap={4}>
          <Title order={3} size="h6">
            Run logs
          </Title>
          <LogLines lines={runLines} />
        </Stack>
      )}
    </Stack>
  );
}

function Values({ label, values }: { label: string; values: Record<string, InputValue> | null }) {
  if (!values || Object.keys(values).length === 0) return null;
  return (
    <Stack gap={2}>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {JSON.stringify(values, null, 2)}
      </Code>
    </Stack>
  );
}

/** A step of the run: status, attempts, resolved inputs, output, timings and its log lines. */
function StepRunCard({ step, logs }: { step: StepRun; logs: AutomationLogLine[] }) {
  const [showLogs, setShowLogs] = useState(step.status === 'Failed');
  return (
    <Paper
      p="md"
      withBorder
      component="section"
      aria-label={`Step ${step.position + 1}: ${step.name}`}
      data-testid="run-step"
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>
              {step.position + 1}. {step.name}
            </Text>
            <Text size="sm" c="dimmed">
              {STEP_KIND_LABELS[step.kind]}
            </Text>
            <AutomationStatusBadge status={step.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {step.attempt > 0 ? `Attempt ${step.attempt}` : 'Not started'}
            {step.startedAt ? ` · ${formatDateTime(step.startedAt)}` : ''}
            {step.endedAt ? ` · ${seconds(step.startedAt, step.endedAt)}` : ''}
          </Text>
        </Group>
        {step.progress && isMoving(step.status) && <Text size="sm">{step.progress}</Text>}
        {step.error && (
          <Alert color="red" p="xs">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {step.error}
            </Text>
          </Alert>
        )}
        <Values label="Input" values={step.inputs} />
        <Values label="Output" values={step.output} />
        {step.attempts.length > 1 && (
          <Table.ScrollContainer minWidth={480} type="native">
            <Table fz="xs" withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Attempt</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Started</Table.Th>
                  <Table.Th>Took</Table.Th>
                  <Table.Th>Error</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {step.attempts.map((attempt) => (
                  <Table.Tr key={attempt.attempt}>
                    <Table.Td>{attempt.attempt}</Table.Td>
                    <Table.Td>
                      <AutomationStatusBadge status={attempt.status} />
                    </Table.Td>
                    <Table.Td>{formatDateTime(attempt.startedAt)}</Table.Td>
                    <Table.Td>{seconds(attempt.startedAt, attempt.endedAt)}</Table.Td>
                    <Table.Td>
                      {attempt.errorType && (
                        <Text span size="xs" c={attempt.errorType === 'TransientError' ? 'orange' : 'red'}>
                          {attempt.errorType}:{' '}
                        </Text>
                      )}
                      {attempt.error}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {logs.length > 0 && (
          <>
            <Button
              size="compact-sm"
              variant="subtle"
              style={{ alignSelf: 'flex-start' }}
              aria-expanded={showLogs}
              onClick={() => setShowLogs((v) => !v)}
            >
              {showLogs ? 'Hide logs' : `Logs (${logs.length})`}
            </Button>
            {showLogs && <LogLines lines={logs} />}
          </>
        )}
      </Stack>
    </Paper>
  );
}
