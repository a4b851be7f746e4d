import { Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { Dialog } from '../../components/dialog';

export const REFRESH_PROMPT =
  'Refreshing replaces the chosen datasets with a fresh copy of all their data. Do you want to continue?';

/** 'Refresh data' (spec §5): at least one dataset chosen, then a confirm, then a full-refresh run. */
export function RefreshDataDialog({
  integrationId,
  datasetNames,
  onClose,
}: {
  integrationId: string;
  datasetNames: string[];
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const [chosen, setChosen] = useState<string[]>(datasetNames);
  const [confirming, setConfirming] = useState(false);
  const refresh = trpc.integrations.triggerFullRefresh.useMutation({
    onSuccess: async () => {
      await utils.integrations.jobStatus.invalidate({ id: integrationId });
      await utils.integrations.jobs.invalidate({ id: integrationId });
      notifications.show({ color: 'teal', message: 'Data refresh started.' });
      onClose();
    },
    onError: (error) => {
      setConfirming(false);
      notifications.show({ color: 'red', message: errorMessage(error) });
    },
  });
  return (
    <>
      <Dialog opened={!confirming} onClose={onClose} title="Refresh data">
        <Stack gap="sm">
          <Text size="sm">Choose the datasets to load again from the start.</Text>
          <Checkbox.Group value={chosen} onChange={setChosen}>
            <Stack gap="xs">
              {datasetNames.map((name) => (
                <Checkbox key={name} value={name} label={name} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button disabled={chosen.length === 0} onClick={() => setConfirming(true)}>
              Refresh
            </Button>
          </Group>
        </Stack>
      </Dialog>
      <ConfirmDialog
        opened={confirming}
        message={REFRESH_PROMPT}
        loading={refresh.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => refresh.mutate({ id: integrationId, datasets: chosen })}
      />
    </>
  );
}
