import { performance } from 'node:perf_hooks';
import type { CopyStats } from '../../src/server/warehouse/ordered-copy-store';
import type { RecentAnswerStats } from '../../src/server/warehouse/recent-answers';
import type { WarehouseExecutor } from '../../src/server/warehouse/types';

/**
 * How the API answered, read from the account's ordered-copy and recent-answer counters (the bench
 * runs the server in-process): 'answer' is the same request's recent answer (recent-answers.ts),
 * 'keyBound' a page read by its row-key bound instead of the plain SQL (ordered-copies.ts, plainPage).
 */
export type CopyUse = 'hit' | 'miss' | 'plain' | 'answer' | 'keyBound';

/** What ordered copies did for one measurement: the first (cold) request, the build, the timed runs. */
export interface CopyReport {
  coldMs: number;
  cold: CopyUse;
  /** From the cold request's end until no build ran or waited; 0 when none was started. */
  buildMs: number;
  /** Timed API runs answered from a copy, of all timed runs. */
  runsFromCopy: number;
  /** Timed API runs answered from the same request's recent answer. */
  runsFromAnswers: number;
  /** Timed API runs read by the page's row-key bound. */
  runsByKeyBound: number;
  runs: number;
}

interface Counters {
  copies: CopyStats;
  answers: RecentAnswerStats;
}

function useBetween(before: Counters, after: Counters): CopyUse {
  if (after.answers.hits > before.answers.hits) return 'answer';
  if (after.copies.hits > before.copies.hits) return 'hit';
  if (after.copies.keyBound > before.copies.keyBound) return 'keyBound';
  return after.copies.misses > before.copies.misses ? 'miss' : 'plain';
}

/** Wraps API calls so each one's answer source is known. */
export class CopyWatch {
  private readonly uses: CopyUse[] = [];

  constructor(private readonly warehouse: WarehouseExecutor) {}

  /** `call`, recording where its answer came from. */
  wrap<T>(call: () => Promise<T>): () => Promise<T> {
    return async () => {
      const before = this.counters();
      const result = await call();
      this.uses.push(useBetween(before, this.counters()));
      return result;
    };
  }

  private counters(): Counters {
    return { copies: { ...this.warehouse.orderedCopies.stats }, answers: { ...this.warehouse.recentAnswers.stats } };
  }

  /** The first request, timed, then the wait for any copy it started. */
  async cold<T>(call: () => Promise<T>): Promise<{ result: T; coldMs: number; cold: CopyUse; buildMs: number }> {
    const start = performance.now();
    const result = await this.wrap(call)();
    const coldMs = performance.now() - start;
    const cold = this.uses.pop() ?? 'plain';
    const buildStart = performance.now();
    await this.warehouse.orderedCopies.idle();
    const buildMs = cold === 'miss' ? performance.now() - buildStart : 0;
    return { result, coldMs, cold, buildMs };
  }

  /** Forgets the uses recorded so far (warm-ups), so `report` counts the timed runs only. */
  reset(): void {
    this.uses.length = 0;
  }

  report(cold: { coldMs: number; cold: CopyUse; buildMs: number }, timedRuns: number): CopyReport {
    // timePair runs warm-ups first: the timed runs are the last ones.
    const timed = this.uses.slice(-timedRuns);
    return {
      coldMs: Math.round(cold.coldMs * 10) / 10,
      cold: cold.cold,
      buildMs: Math.round(cold.buildMs),
      runsFromCopy: timed.filter((use) => use === 'hit').length,
      runsFromAnswers: timed.filter((use) => use === 'answer').length,
      runsByKeyBound: timed.filter((use) => use === 'keyBound').length,
      runs: timed.length,
    };
  }
}

export function describeCopies(report: CopyReport): string {
  const build = report.cold === 'miss' ? `, copy built in ${report.buildMs} ms` : '';
  return (
    `cold ${report.coldMs} ms (${report.cold})${build}; of ${report.runs} timed runs ${report.runsFromCopy} ` +
    `from a copy, ${report.runsFromAnswers} from recent answers, ${report.runsByKeyBound} by the row-key bound`
  );
}
