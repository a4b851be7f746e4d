import type { Run } from './integrations';

export const RUN_STRIP_SLOTS = 5;

export type RunStripSlot = { kind: 'run'; run: Run } | { kind: 'next'; at: string } | { kind: 'empty' };

/**
 * The detail page's strip of recent runs (spec §4): up to 5 slots, oldest left, padded with empty
 * ones; while nothing runs and a sync is scheduled, the last slot is the next scheduled run instead
 * of the oldest run.
 */
export function runStrip(recentRuns: readonly Run[], nextRunAt: string | null): RunStripSlot[] {
  const newestFirst = [...recentRuns].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const running = newestFirst.some((run) => run.status === 'Running' || run.status === 'Pending');
  const showNext = !running && nextRunAt !== null;
  const runs = newestFirst.slice(0, showNext ? RUN_STRIP_SLOTS - 1 : RUN_STRIP_SLOTS).reverse();
  const slots: RunStripSlot[] = runs.map((run) => ({ kind: 'run', run }));
  if (showNext) slots.push({ kind: 'next', at: nextRunAt });
  while (slots.length < RUN_STRIP_SLOTS) slots.unshift({ kind: 'empty' });
  return slots;
}
