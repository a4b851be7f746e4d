/** The notices of columns that did not keep their discovered format, and their run log lines. */
import type { Staging } from './types';

/** Adds `count` misfits of a column to its notice: the first format stays, the latest target wins. */
export function note(staging: Staging, column: string, count: number, from: string, to: string, reason: string): void {
  const seen = staging.notices.get(column);
  staging.notices.set(column, {
    column,
    count: (seen?.count ?? 0) + count,
    from: seen?.from ?? from,
    to,
    reason: seen && seen.to === to ? seen.reason : reason,
  });
}

/** The columns that did not keep their discovered format, in column order, as run log lines. */
export function noticeLines(staging: Staging): string[] {
  return staging.columns.flatMap((column) => {
    const notice = staging.notices.get(column.name);
    if (!notice) return [];
    const stored = notice.to === 'text' ? 'exact text' : notice.to === 'json' ? 'JSON' : 'an exact decimal';
    return [`Column ${notice.column}: ${notice.reason}; it is stored as ${stored} (discovered as ${notice.from}).`];
  });
}
