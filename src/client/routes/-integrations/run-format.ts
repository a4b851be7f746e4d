import type { Run } from '../../../shared/integrations';

/** "<1 s", "42 s", "3 min 5 s", "2 h 4 min": how long from start to end (or to now while running). */
export function formatDuration(startIso: string | null | undefined, endIso: string | null | undefined): string {
  if (!startIso) return '—';
  const ms = new Date(endIso ?? Date.now()).getTime() - new Date(startIso).getTime();
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const seconds = Math.floor(ms / 1000);
  if (seconds < 1) return '<1 s';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const RUN_KIND_LABEL: Record<Run['kind'], string> = { Sync: 'Sync', FullRefresh: 'Full refresh' };

export const isMoving = (run: Pick<Run, 'status'> | undefined) =>
  run?.status === 'Running' || run?.status === 'Pending';

const TIME = { hour: 'numeric', minute: '2-digit', second: '2-digit' } as const;
const thisYear = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', ...TIME });
const otherYear = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', ...TIME });

/**
 * A run's time to the second (runs minutes apart, or less, still read apart in a list); the year only
 * when it is not this one, so the time fits a phone's column.
 */
export function formatRunTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  return (at.getFullYear() === new Date().getFullYear() ? thisYear : otherYear).format(at);
}
