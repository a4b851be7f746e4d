import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { INTEGRATION_MESSAGES, INTEGRATION_TIMINGS } from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';

/**
 * The integration's datasets, polled every 2 s while discovery is processing (spec §4), with the
 * discovery banner to show: 'Discovering available datasets' or 'Failed to discover datasets'.
 */
export function useDatasets(id: string, enabled: boolean, canRefresh = true) {
  const utils = trpc.useUtils();
  const datasets = trpc.integrations.datasets.useQuery(
    { id },
    {
      enabled,
      refetchInterval: (q) => (q.state.data?.status === 'Processing' ? INTEGRATION_TIMINGS.datasetsPollMs : false),
    },
  );
  const refresh = trpc.integrations.refreshDatasets.useMutation({
    onSuccess: async (response) => {
      utils.integrations.datasets.setData({ id }, response);
      await utils.integrations.get.invalidate({ id });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const status = datasets.data?.status;
  const banner =
    status === 'Processing' ? (
      <Alert color="blue">
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">{INTEGRATION_MESSAGES.discovering}</Text>
        </Group>
      </Alert>
    ) : status === 'Error' ? (
      <Alert color="red" title={INTEGRATION_MESSAGES.discoveryFailed}>
        {datasets.data?.message && <Text size="sm">{datasets.data.message}</Text>}
        {canRefresh && (
          <Button
            size="xs"
            mt="xs"
            variant="light"
            color="red"
            loading={refresh.isPending}
            onClick={() => refresh.mutate({ id })}
          >
            Refresh datasets
          </Button>
        )}
      </Alert>
    ) : null;
  return { datasets: datasets.data?.datasets ?? [], loaded: status === 'Loaded', banner };
}
