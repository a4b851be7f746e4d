import { Button, Group, NumberInput, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { z } from 'zod';
import {
  SCHEDULE_PRESETS,
  WEEK_DAYS,
  type Integration,
  type scheduleSettingsSchema,
  type SchedulePreset,
  type WeekDay,
} from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { Dialog } from '../../components/dialog';

const CRON_FIELDS = 5;

/** A schedule as saved: a preset at a UTC time, or a cron that wins over it. */
export type ScheduleSettings = z.output<typeof scheduleSettingsSchema>;

/**
 * Sync schedule (spec §4): Manual saves Inactive; Scheduled (a Day, Week or Month preset at a UTC
 * time, or a 5-field UTC cron) saves Active with the schedule. `turningOn`: opened by the Data syncing
 * toggle of an integration without a schedule, so it asks only for the schedule; cancelling leaves
 * syncing off.
 */
export function ScheduleDialog({
  integration,
  turningOn = false,
  onClose,
}: {
  integration: Integration;
  turningOn?: boolean;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const save = trpc.integrations.saveSchedule.useMutation({
    onSuccess: async (saved) => {
      utils.integrations.get.setData({ id: integration.id }, saved);
      await utils.integrations.list.invalidate();
      onClose();
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  return (
    <ScheduleSettingsDialog
      title="Sync schedule"
      initial={integration.schedule}
      turningOn={turningOn}
      manualText="Data syncs only when you choose 'Sync data now'."
      intro="Data syncing follows a schedule. Choose when to sync; syncing turns on when you save."
      saving={save.isPending}
      onSave={(schedule) => save.mutate({ id: integration.id, schedule })}
      onClose={onClose}
    />
  );
}

/**
 * The schedule form as a dialog (Manual, or a Day / Week / Month preset at a UTC time, or a 5-field
 * UTC cron), shared by an integration's sync schedule and an automation's Schedule trigger.
 */
export function ScheduleSettingsDialog({
  title,
  initial,
  turningOn = false,
  manualOption = true,
  manualText,
  intro,
  saving,
  onSave,
  onClose,
}: {
  title: string;
  initial: Partial<ScheduleSettings> | null;
  turningOn?: boolean;
  /** False: only a schedule can be chosen (the segmented Manual/Scheduled control is hidden). */
  manualOption?: boolean;
  manualText: string;
  intro?: string;
  saving: boolean;
  onSave: (schedule: ScheduleSettings) => void;
  onClose: () => void;
}) {
  const current = initial ?? {};
  const askOnlySchedule = turningOn || !manualOption;
  const [type, setType] = useState<'Manual' | 'Scheduled'>(askOnlySchedule ? 'Scheduled' : (current.type ?? 'Manual'));
  const [frequency, setFrequency] = useState<SchedulePreset>(current.frequency ?? 'Day');
  const [time, setTime] = useState(current.time ?? '00:00');
  const [weekDay, setWeekDay] = useState<WeekDay>(current.weekDay ?? 'Monday');
  const [monthDay, setMonthDay] = useState<number>(current.monthDay ?? 1);
  const [cron, setCron] = useState(current.cron ?? '');
  const cronError =
    cron.trim() !== '' && cron.trim().split(/\s+/).length !== CRON_FIELDS ? 'Invalid cron expression' : undefined;
  const timeError = /^([01]\d|2[0-3]):[0-5]\d$/.test(time) ? undefined : 'Time must be HH:MM (UTC).';
  const invalid = type === 'Scheduled' && (cronError !== undefined || (cron.trim() === '' && timeError !== undefined));

  const submit = () => {
    if (invalid) return;
    if (type === 'Manual') return onSave({ type: 'Manual' });
    const schedule: ScheduleSettings = {
      type,
      frequency,
      time,
      ...(frequency === 'Week' ? { weekDay } : {}),
      ...(frequency === 'Month' ? { monthDay } : {}),
      ...(cron.trim() ? { cron: cron.trim() } : {}),
    };
    onSave(schedule);
  };

  return (
    <Dialog opened onClose={onClose} title={title}>
      <Stack gap="sm">
        {askOnlySchedule ? (
          intro && <Text size="sm">{intro}</Text>
        ) : (
          <SegmentedControl
            data={['Manual', 'Scheduled']}
            value={type}
            onChange={(v) => setType(v as 'Manual' | 'Scheduled')}
          />
        )}
        {type === 'Manual' && (
          <Text size="sm" c="dimmed">
            {manualText}
          </Text>
        )}
        {type === 'Scheduled' && (
          <>
            <Select
              label="Frequency"
              data={SCHEDULE_PRESETS.map((p) => ({ value: p, label: `Every ${p.toLowerCase()}` }))}
              value={frequency}
              allowDeselect={false}
              onChange={(v) => v && setFrequency(v as SchedulePreset)}
            />
            {frequency === 'Week' && (
              <Select
                label="Day of the week"
                data={[...WEEK_DAYS]}
                value={weekDay}
                allowDeselect={false}
                onChange={(v) => v && setWeekDay(v as WeekDay)}
              />
            )}
            {frequency === 'Month' && (
              <NumberInput
                label="Day of the month"
                min={1}
                max={28}
                value={monthDay}
                onChange={(v) => setMonthDay(typeof v === 'number' ? v : 1)}
              />
            )}
            <TextInput
              label="Time (UTC)"
              value={time}
              error={timeError}
              onChange={(e) => setTime(e.currentTarget.value)}
            />
            <TextInput
              label="Cron expression (optional, UTC)"
              description="Five fields; when given it replaces the frequency above."
              placeholder="0 6 * * 1-5"
              value={cron}
              error={cronError}
              onChange={(e) => setCron(e.currentTarget.value)}
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={invalid} loading={saving} onClick={submit}>
            {turningOn ? 'Save and turn on' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
