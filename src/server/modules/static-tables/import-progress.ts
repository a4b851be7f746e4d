/**
 * How far each running CSV import has got, for the import dialog to poll (staticTables.importProgress):
 * kept in memory under the token the client chose, for the user and account that started it.
 */
import type { ImportProgress, ImportStage } from '../../../shared/static-table-import';

/**
 * Where each stage sits in the whole import (0..1), from a 1M-row import's timings: DuckDB reading
 * the file and writing the rows into the warehouse are nearly all of it, in about equal parts.
 */
const SPAN: Record<ImportStage, readonly [number, number]> = {
  Reading: [0, 0.5],
  Checking: [0.5, 0.54],
  Writing: [0.54, 0.93],
  Saving: [0.93, 0.99],
  Done: [1, 1],
};

/** An import's progress is kept this long after its last report (a finished one: after it finished). */
const KEPT_MS = { running: 30 * 60_000, done: 60_000 };
/** At most this many imports are followed at once; the oldest report goes first. */
const MAX_FOLLOWED = 1000;

/** Reports a stage and how far within it (0..1) the import is. */
export type ReportImport = (stage: ImportStage, within?: number) => void;

export interface ImportProgressBoard {
  /** Follows one import under `token` (nothing is followed without one); `end` forgets a failed import. */
  follow(
    owner: { userId: string; accountId: string },
    token: string | undefined,
  ): { report: ReportImport; end(): void };
  /** The import's progress; null when none is known under the token for this user and account. */
  read(owner: { userId: string; accountId: string }, token: string): ImportProgress | null;
}

export function createImportProgressBoard(now: () => number = Date.now): ImportProgressBoard {
  const followed = new Map<string, { progress: ImportProgress; expires: number }>();
  const keyOf = (owner: { userId: string; accountId: string }, token: string) =>
    `${owner.userId}\0${owner.accountId}\0${token}`;
  const sweep = () => {
    const at = now();
    for (const [key, entry] of followed) if (entry.expires <= at) followed.delete(key);
    // Map order is insertion order; a report re-inserts its entry, so the first is the stalest.
    while (followed.size > MAX_FOLLOWED) followed.delete(followed.keys().next().value as string);
  };

  return {
    follow(owner, token) {
      if (token === undefined) return { report: () => undefined, end: () => undefined };
      const key = keyOf(owner, token);
      sweep();
      const set = (progress: ImportProgress) => {
        followed.delete(key);
        const done = progress.stage === 'Done';
        followed.set(key, { progress, expires: now() + (done ? KEPT_MS.done : KEPT_MS.running) });
      };
      set({ stage: 'Reading', fraction: 0 });
      return {
        report(stage, within = 0) {
          const [from, to] = SPAN[stage];
          const fraction = from + (to - from) * Math.min(1, Math.max(0, within));
          const before = followed.get(key)?.progress.fraction ?? 0;
          // Never backwards: a retried read (types chosen from every row) keeps the bar where it was.
          set({ stage, fraction: Math.max(before, fraction) });
        },
        end: () => void followed.delete(key),
      };
    },
    read(owner, token) {
      sweep();
      return followed.get(keyOf(owner, token))?.progress ?? null;
    },
  };
}
