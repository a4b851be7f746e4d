import { Alert, Button, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { INTEGRATION_MESSAGES, type Integration } from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format';
import { trpc } from '../../trpc';
import { RunStrip } from './run-strip';
import { useSyncNow } from './use-sync-now';

/** A synced integration's controls: Data syncing toggle, 'Next data sync' and 'Sync data now'. */
export function SyncControls({ integration }: { integration: Integration }) {
  const { id } = integration;
  const utils = trpc.useUtils();
  const sync = useSyncNow(id, true);
  const toggle = trpc.integrations.saveSchedule.useMutation({
    onSuccess: async (saved) => {
      utils.integrations.get.setData({ id }, saved);
      await utils.integrations.list.invalidate();
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const active = integration.syncStatus === 'Active';

  return (
    <Stack gap="sm">
      {integration.requiresReAuthentication && <Alert color="orange">{INTEGRATION_MESSAGES.reauthRequired}</Alert>}
      <Paper p="md" withBorder>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xl" wrap="nowrap">
            <Switch
              label="Data syncing"
              checked={active}
              disabled={toggle.isPending}
              onChange={() => toggle.mutate({ id, status: active ? 'Inactive' : 'Active' })}
            />
            <RunStrip recentRuns={integration.recentRuns} nextRunAt={active ? integration.nextRunAt : null} />
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Next data sync
              </Text>
              <Text size="sm" fw={500} data-testid="next-sync">
                {active && integration.nextRunAt ? formatDateTime(integration.nextRunAt) : 'Not scheduled'}
              </Text>
            </Stack>
          </Group>
          <Button
            leftSection={<IconRefresh size={16} />}
            loading={sync.isRunning}
            disabled={integration.requiresReAuthentication}
            onClick={sync.start}
          >
            Sync data now
          </Button>
        </Group>
      </Paper>
    </Stack>
  );
}
