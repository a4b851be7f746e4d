import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { INTEGRATION_TIMINGS } from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { DATASET_GRID_KEY } from './dataset-data';

/**
 * 'Sync data now' (spec §4): start a sync, then poll the job status every 5 s while one runs or waits,
 * stopping when none does. When the run ends the integration, its runs and its data are read again.
 */
export function useSyncNow(id: string, enabled: boolean) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const status = trpc.integrations.jobStatus.useQuery(
    { id },
    {
      enabled,
      refetchInterval: (query) => (query.state.data?.isRunning ? INTEGRATION_TIMINGS.syncStatusPollMs : false),
    },
  );
  const refreshAll = () =>
    Promise.all([
      utils.integrations.get.invalidate({ id }),
      utils.integrations.jobs.invalidate({ id }),
      utils.integrations.list.invalidate(),
      utils.tables.invalidate(),
      // The dataset grids cache their rows under their own keys (see DATASET_GRID_KEY).
      queryClient.invalidateQueries({ queryKey: [DATASET_GRID_KEY] }),
    ]);
  const trigger = trpc.integrations.trigger.useMutation({
    onSuccess: async () => {
      await utils.integrations.jobStatus.invalidate({ id });
      await utils.integrations.jobs.invalidate({ id });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  // A run that just ended changed runs, row counts and data: read them again once.
  const wasRunning = useRef(false);
  const running = status.data?.isRunning === true;
  useEffect(() => {
    if (wasRunning.current && !running) void refreshAll();
    wasRunning.current = running;
    // refreshAll is rebuilt each render; only the running flag decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running]);
  return {
    isRunning: status.data?.isRunning === true || trigger.isPending,
    latestStatus: status.data?.status ?? null,
    start: () => trigger.mutate({ id }),
    refreshAll,
  };
}
