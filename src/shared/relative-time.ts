/** The recent-time labels of spec section 9, from nearest to furthest. */
export const RELATIVE_TIME_LABELS = [
  'Today',
  'Yesterday',
  'This week',
  'Last week',
  'This month',
  'Last month',
  'This year',
  'Last year',
] as const;
export type RelativeTimeLabel = (typeof RELATIVE_TIME_LABELS)[number];

function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

/** Calendar days, not 24-hour steps, so a daylight-saving change does not move the boundary. */
function addDays(d: Date, days: number): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days);
}

/** Weeks start on Monday. */
function startOfWeek(d: Date): Date {
  const day = startOfDay(d);
  return addDays(day, -((day.getDay() + 6) % 7));
}

/**
 * The label of the nearest period holding `date`, in local time, or null when it is older
 * than last year (or in the future, where no label fits).
 */
export function relativeTimeLabel(date: Date, now: Date = new Date()): RelativeTimeLabel | null {
  const t = date.getTime();
  const today = startOfDay(now);
  if (t > now.getTime() + 60_000) return null;
  if (t >= today.getTime()) return 'Today';
  if (t >= addDays(today, -1).getTime()) return 'Yesterday';
  const week = startOfWeek(now);
  if (t >= week.getTime()) return 'This week';
  if (t >= addDays(week, -7).getTime()) return 'Last week';
  const month = new Date(now.getFullYear(), now.getMonth(), 1);
  if (t >= month.getTime()) return 'This month';
  if (t >= new Date(now.getFullYear(), now.getMonth() - 1, 1).getTime()) return 'Last month';
  if (t >= new Date(now.getFullYear(), 0, 1).getTime()) return 'This year';
  if (t >= new Date(now.getFullYear() - 1, 0, 1).getTime()) return 'Last year';
  return null;
}
