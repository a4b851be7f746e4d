import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { useId } from 'react';
import { INTEGRATION_MESSAGES, type Integration } from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format';
import { trpc } from '../../trpc';
import { RunStrip } from './run-strip';
import { useSyncNow } from './use-sync-now';

interface SyncControlsProps {
  integration: Integration;
  /** Owners and admins; a read_only member sees the state without the controls. */
  canWrite: boolean;
  /** Why 'Sync data now' cannot run yet (no dataset chosen, discovery still running), or null. */
  blockedReason: string | null;
  /** Turning syncing on with no schedule: the schedule dialog asks for one (cancelling leaves it off). */
  onScheduleNeeded: () => void;
}

/** A synced integration's controls: Data syncing toggle, the recent runs, 'Next data sync' and 'Sync data now'. */
export function SyncControls({ integration, canWrite, blockedReason, onScheduleNeeded }: SyncControlsProps) {
  const { id } = integration;
  const utils = trpc.useUtils();
  const sync = useSyncNow(id, true);
  const reasonId = useId();
  const toggle = trpc.integrations.saveSchedule.useMutation({
    onSuccess: async (saved) => {
      utils.integrations.get.setData({ id }, saved);
      await utils.integrations.list.invalidate();
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  // On means on a schedule: one saved Active without a schedule (before the server refused that) reads
  // as off, and turning it on asks for a schedule.
  const active = integration.syncStatus === 'Active' && integration.syncFrequency !== null;
  const flip = () => {
    if (active) return toggle.mutate({ id, status: 'Inactive' });
    // On needs a schedule to follow; without one, ask for it rather than show "on" and never sync.
    if (!integration.syncFrequency) return onScheduleNeeded();
    toggle.mutate({ id, status: 'Active' });
  };
  const reason = integration.requiresReAuthentication ? INTEGRATION_MESSAGES.reauthRequired : blockedReason;
  const next = active
    ? integration.nextRunAt
      ? formatDateTime(integration.nextRunAt)
      : `No upcoming time (cron ${integration.syncFrequency?.pattern ?? ''}, UTC)`
    : 'Not scheduled';

  return (
    <Stack gap="sm">
      {integration.requiresReAuthentication && <Alert color="orange">{INTEGRATION_MESSAGES.reauthRequired}</Alert>}
      <Paper p="md" withBorder>
        <Group justify="space-between" gap="md" wrap="wrap">
          <Group gap="lg" wrap="wrap">
            {canWrite ? (
              <Switch label="Data syncing" checked={active} disabled={toggle.isPending} onChange={flip} />
            ) : (
              <Group gap={6} wrap="nowrap">
                <Text size="sm">Data syncing</Text>
                <Badge variant="light" color={active ? 'teal' : 'gray'} tt="none" data-testid="syncing-state">
                  {active ? 'On' : 'Off'}
                </Badge>
              </Group>
            )}
            <RunStrip
              integrationId={id}
              recentRuns={integration.recentRuns}
              nextRunAt={active ? integration.nextRunAt : null}
            />
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Next data sync
              </Text>
              <Text size="sm" fw={500} data-testid="next-sync">
                {next}
              </Text>
            </Stack>
          </Group>
          {canWrite && (
            <Tooltip label={reason} disabled={reason === null} multiline maw={280} withArrow>
              {/* Not `disabled`: a disabled button cannot be focused, so its reason could not be read. */}
              {/* While a sync runs the label stays (a bare spinner said nothing) and a spinner replaces the icon. */}
              <Button
                leftSection={sync.isRunning ? <Loader size={14} /> : <IconRefresh size={16} />}
                data-disabled={reason !== null || sync.isRunning || undefined}
                aria-disabled={reason !== null || sync.isRunning || undefined}
                aria-busy={sync.isRunning || undefined}
                aria-describedby={reason !== null ? reasonId : undefined}
                onClick={(event) => {
                  if (reason !== null || sync.isRunning) return event.preventDefault();
                  sync.start();
                }}
              >
                {sync.isRunning ? 'Syncing…' : 'Sync data now'}
              </Button>
            </Tooltip>
          )}
        </Group>
        {canWrite && reason !== null && <VisuallyHidden id={reasonId}>{reason}</VisuallyHidden>}
      </Paper>
    </Stack>
  );
}
