import { Alert, CloseButton, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { z } from 'zod';
import { AUTOMATION_MESSAGES, AUTOMATION_RUN_STATUSES, type AutomationHubEvent } from '../../../shared/automations';
import { useHubEvent } from '../../lib/hub';
import { trpc } from '../../trpc';

/** What every /api/hubs/automations event carries; parsed, since it comes from the wire. */
const hubMessageSchema = z.object({
  automationId: z.string(),
  automationDefinitionId: z.string(),
  runId: z.string(),
  runNumber: z.number(),
  name: z.string(),
  status: z.enum(AUTOMATION_RUN_STATUSES),
  error: z.string().nullable(),
});
export type LiveMessage = z.infer<typeof hubMessageSchema>;

type BannerEvent = Exclude<AutomationHubEvent, 'stepProgress'>;
export interface LiveBanner {
  event: BannerEvent;
  message: LiveMessage;
}

const BANNER_COLOR: Record<BannerEvent, string> = {
  started: 'blue',
  completed: 'teal',
  failed: 'red',
  cancelled: 'gray',
};

/**
 * Follows the automations hub (spec: live events set the status; on each event the run lists and
 * latest runs are refreshed). Answers the latest banner event whose message matches `filter`.
 */
export function useAutomationLive(filter: (message: LiveMessage) => boolean): {
  banner: LiveBanner | null;
  dismiss: () => void;
} {
  const utils = trpc.useUtils();
  const [banner, setBanner] = useState<LiveBanner | null>(null);
  const on = (event: AutomationHubEvent) => (raw: unknown) => {
    void utils.automationRuns.invalidate();
    void utils.automations.list.invalidate();
    const parsed = hubMessageSchema.safeParse(raw);
    if (!parsed.success || event === 'stepProgress' || !filter(parsed.data)) return;
    setBanner({ event, message: parsed.data });
  };
  useHubEvent('automations', 'started', on('started'));
  useHubEvent('automations', 'completed', on('completed'));
  useHubEvent('automations', 'failed', on('failed'));
  useHubEvent('automations', 'cancelled', on('cancelled'));
  useHubEvent('automations', 'stepProgress', on('stepProgress'));
  return { banner, dismiss: () => setBanner(null) };
}

/** 'Automation has started / completed / failed / been cancelled', with the run's number and error. */
export function LiveBannerAlert({ banner, onClose }: { banner: LiveBanner | null; onClose: () => void }) {
  if (!banner) return null;
  const { event, message } = banner;
  return (
    <Alert color={BANNER_COLOR[event]} role="status" aria-live="polite" data-testid="automation-banner">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} size="sm">
            {AUTOMATION_MESSAGES.banners[event]}
          </Text>
          <Text size="sm" c="dimmed">
            Run #{message.runNumber}
            {message.error ? ` - ${message.error}` : ''}
          </Text>
        </div>
        <CloseButton aria-label="Dismiss" onClick={onClose} />
      </Group>
    </Alert>
  );
}
