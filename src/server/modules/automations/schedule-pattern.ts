/**
 * A Schedule trigger's cron, reusing the integrations' schedule rules (Day / Week / Month presets
 * or a 5-field UTC cron; croner for the next time), so both schedule dialogs mean the same thing.
 */
import type { AutomationTrigger } from '../../../shared/automations';
import { cronOfPreset, nextRunAfter, validCron as checkedCron } from '../integrations/schedule';

/** The normalised expression, or null when it is not a valid 5-field cron. */
export function validCron(pattern: string): string | null {
  try {
    return checkedCron(pattern);
  } catch {
    return null;
  }
}

/** The cron a schedule runs on; null for Manual, no schedule or an invalid expression. */
export function patternOf(schedule: AutomationTrigger['schedule']): string | null {
  if (!schedule || schedule.type === 'Manual') return null;
  const { cron, ...preset } = schedule;
  return validCron(cron ?? cronOfPreset(preset));
}

/** When a schedule fires next after `after`, as ISO text; null without a valid pattern. */
export function nextRunOf(pattern: string | null, after: Date): string | null {
  if (!pattern) return null;
  return nextRunAfter(pattern, after)?.toISOString() ?? null;
}
