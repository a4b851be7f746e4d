/**
 * Sync schedules: Manual, or Scheduled as a 5-field cron in UTC (spec §5), built from a Day, Week
 * or Month preset or given as is. Next run times come from croner.
 */
import { Cron } from 'croner';
import { INTEGRATION_MESSAGES, WEEK_DAYS, type ScheduleSettings } from '../../../shared/integrations';
import { badInput } from '../../errors';

/** The cron of a preset: every day, a week day or a month day, at HH:MM UTC. */
export function cronOfPreset(settings: ScheduleSettings): string {
  const [hour, minute] = (settings.time ?? '00:00').split(':').map(Number) as [number, number];
  switch (settings.frequency ?? 'Day') {
    case 'Day':
      return `${minute} ${hour} * * *`;
    case 'Week': {
      // Cron counts Sunday as 0; the spec's week starts on Monday.
      const day = (WEEK_DAYS.indexOf(settings.weekDay ?? 'Monday') + 1) % 7;
      return `${minute} ${hour} * * ${day}`;
    }
    case 'Month':
      return `${minute} ${hour} ${settings.monthDay ?? 1} * *`;
  }
}

/** Checks a cron expression: exactly 5 fields that croner understands, else 'Invalid cron expression'. */
export function validCron(pattern: string): string {
  const trimmed = pattern.trim().replace(/\s+/g, ' ');
  if (trimmed.split(' ').length !== 5) throw badInput(INTEGRATION_MESSAGES.invalidCron);
  try {
    new Cron(trimmed, { timezone: 'UTC', paused: true });
  } catch {
    throw badInput(INTEGRATION_MESSAGES.invalidCron);
  }
  return trimmed;
}

/** The first time after `after` the pattern fires, in UTC. */
export function nextRunAfter(pattern: string, after: Date): Date | null {
  const cron = new Cron(pattern, { timezone: 'UTC', paused: true });
  try {
    return cron.nextRun(after);
  } finally {
    cron.stop();
  }
}
