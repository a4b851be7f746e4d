import { Button, Checkbox, Group, Paper, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import { useState } from 'react';
import type { AutomationDefinition, AutomationTrigger, TriggerType } from '../../../shared/automations';
import { formatDateTime } from '../../lib/format';
import { useNarrow } from '../../lib/use-narrow';
import { trpc } from '../../trpc';
import { ScheduleSettingsDialog, type ScheduleSettings } from '../-integrations/schedule-dialog';
import { useDefinitionChanged } from './use-definition';

const TRIGGER_LABELS: Record<TriggerType, string> = {
  Manual: 'Manual',
  Schedule: 'Schedule',
  AfterSync: "After an integration's sync",
};

/** A schedule in words: 'Every day at 06:00 UTC', 'Cron 0 6 * * 1-5 (UTC)'. */
export function scheduleText(schedule: ScheduleSettings | null): string {
  if (!schedule || schedule.type === 'Manual') return 'No schedule set';
  if (schedule.cron) return `Cron ${schedule.cron} (UTC)`;
  const at = `at ${schedule.time ?? '00:00'} UTC`;
  if (schedule.frequency === 'Week') return `Every ${schedule.weekDay ?? 'Monday'} ${at}`;
  if (schedule.frequency === 'Month') return `Every month on day ${schedule.monthDay ?? 1} ${at}`;
  return `Every day ${at}`;
}

/**
 * The trigger: Manual ('Run now' only), a Schedule (the integration schedule dialog), or after an
 * integration's sync completes (optionally only when it brought new rows).
 */
export function TriggerCard({ automation, canWrite }: { automation: AutomationDefinition; canWrite: boolean }) {
  const { id, trigger } = automation;
  const [scheduling, setScheduling] = useState(false);
  const narrow = useNarrow('sm');
  const update = trpc.automations.update.useMutation(useDefinitionChanged());
  const integrations = trpc.integrations.list.useQuery(undefined, { enabled: trigger.type === 'AfterSync' });
  const save = (patch: Partial<AutomationTrigger>) => update.mutate({ id, trigger: { ...trigger, ...patch } });

  return (
    <Paper p="md" withBorder>
      <Stack gap="sm">
        <Title order={3} size="h5">
          Trigger
        </Title>
        <SegmentedControl
          aria-label="Trigger"
          disabled={!canWrite || update.isPending}
          data={(Object.keys(TRIGGER_LABELS) as TriggerType[]).map((value) => ({
            value,
            label: TRIGGER_LABELS[value],
          }))}
          value={trigger.type}
          // On a phone the three choices stack instead of running off the card.
          orientation={narrow ? 'vertical' : 'horizontal'}
          style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
          onChange={(value) => {
            const type = value as TriggerType;
            // A schedule is asked for before it is saved; cancelling the dialog keeps the old trigger.
            if (type === 'Schedule' && !trigger.schedule) setScheduling(true);
            else save({ type });
          }}
        />
        {trigger.type === 'Manual' && (
          <Text size="sm" c="dimmed">
            Runs only when you choose &apos;Run now&apos;.
          </Text>
        )}
        {trigger.type === 'Schedule' && (
          <Group gap="sm" wrap="wrap">
            <Text size="sm">{scheduleText(trigger.schedule)}</Text>
            {automation.nextRunAt && (
              <Text size="sm" c="dimmed">
                Next run {formatDateTime(automation.nextRunAt)}
              </Text>
            )}
            {canWrite && (
              <Button
                size="xs"
                variant="default"
                leftSection={<IconCalendarTime size={14} />}
                onClick={() => setScheduling(true)}
              >
                Change schedule
              </Button>
            )}
          </Group>
        )}
        {trigger.type === 'AfterSync' && (
          <Stack gap="xs">
            <Select
              label="Integration"
              placeholder="Choose the integration whose sync starts a run"
              disabled={!canWrite}
              data={(integrations.data ?? []).map((i) => ({ value: i.id, label: i.name }))}
              value={trigger.integrationId}
              onChange={(value) => save({ integrationId: value })}
              maw={420}
            />
            <Checkbox
              label="Only when it brought new rows"
              disabled={!canWrite}
              checked={trigger.onlyWithNewRows}
              onChange={(e) => save({ onlyWithNewRows: e.currentTarget.checked })}
            />
          </Stack>
        )}
      </Stack>
      {scheduling && (
        <ScheduleSettingsDialog
          title="Schedule"
          initial={trigger.schedule ?? { type: 'Scheduled' }}
          manualOption={false}
          manualText=""
          intro="The automation runs on this schedule (UTC)."
          saving={update.isPending}
          onSave={(schedule) =>
            update.mutate(
              { id, trigger: { ...trigger, type: 'Schedule', schedule } },
              { onSuccess: () => setScheduling(false) },
            )
          }
          onClose={() => setScheduling(false)}
        />
      )}
    </Paper>
  );
}
