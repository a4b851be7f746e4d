import { relativeTimeLabel } from '../../shared/relative-time';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '';
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? date.format(new Date(iso)) : '';
}

/** "Today, 14:02", "Last week" or the date for older times; "Never" when there is none. */
export function formatRecent(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return 'Never';
  const at = new Date(iso);
  const label = relativeTimeLabel(at, now);
  if (label === 'Today' || label === 'Yesterday') return `${label}, ${time.format(at)}`;
  return label ?? date.format(at);
}

export function initials(name: string, email: string): string {
  const source = name.trim() || email;
  return (source[0] ?? '?').toUpperCase();
}
