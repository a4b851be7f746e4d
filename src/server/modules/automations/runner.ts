/**
 * The automation worker of this process. Runs are rows; a worker claims one by writing its random
 * id and a lease expiry on it (a compare-and-set, so two workers never hold the same run), renews
 * the lease with a heartbeat every leaseMs/3 and runs at most `automations.concurrency` at once.
 * At start and on every heartbeat it also takes over runs whose lease expired (their worker crashed
 * or the server restarted): each resumes at its first step without a saved output
 * (run-execution.ts). The heartbeat also reads the run's cancel flag and deadline, so a cancel
 * asked through any worker, or a run out of time, aborts the work in progress.
 */
import crypto from 'node:crypto';
import type { Deps } from '../../context';
import type { CoreServices } from '../../services';
import { executeRun, type StopReason } from './run-execution';

export interface AutomationRunner {
  /** This worker's id, written as lease_owner on the runs it holds. */
  readonly workerId: string;
  /** Looks for runs to claim now (a run was queued). */
  wake(): void;
  /** A cancel was asked: when this worker runs it, its work is aborted at once (else the heartbeat of its worker sees the flag). */
  cancelLocal(runId: string): void;
  /** One heartbeat now (tests move the clock, then beat): leases renewed, flags read, expired leases taken over. */
  beat(): Promise<void>;
  /** Resolves when this worker runs nothing and nothing is ready to claim. */
  idle(): Promise<void>;
  start(): Promise<void>;
  /** Stops claiming and stops the runs in progress without recording anything: their leases expire and the next start resumes them. */
  close(): Promise<void>;
}

interface Active {
  controller: AbortController;
  reason: StopReason | null;
  deadlineTimer: NodeJS.Timeout | null;
  done: Promise<void>;
}

export function createAutomationRunner(deps: Deps, core: CoreServices): AutomationRunner {
  const { db, clock } = deps;
  const { leaseMs } = deps.config.automations;
  const concurrency = () => deps.config.automations.concurrency;
  const workerId = `w-${crypto.randomBytes(8).toString('hex')}`;
  const active = new Map<string, Active>();
  let closed = false;
  let started = false;
  let heartbeat: NodeJS.Timeout | null = null;
  let pumping: Promise<void> | null = null;
  let again = false;

  const leaseUntil = () => new Date(clock().getTime() + leaseMs).toISOString();

  const stop = (runId: string, reason: StopReason) => {
    const run = active.get(runId);
    if (!run || run.reason !== null) return;
    run.reason = reason;
    run.controller.abort(reason);
  };

  /** Claims one run ready to go (Pending, or Running with an expired lease), oldest first; null when none. */
  async function claimNext(): Promise<string | null> {
    const now = clock().toISOString();
    const candidates = await db
      .selectFrom('automation_runs')
      .select(['id', 'lease_expires_at'])
      .where('status', 'in', ['Pending', 'Running'])
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .where((eb) => eb.or([eb('not_before', 'is', null), eb('not_before', '<=', now)]))
      .orderBy('created_at')
      .orderBy('id')
      .limit(active.size + concurrency() + 10)
      .execute();
    for (const candidate of candidates) {
      if (active.has(candidate.id)) continue;
      const claimed = await db
        .updateTable('automation_runs')
        .set({ lease_owner: workerId, lease_expires_at: leaseUntil() })
        .where('id', '=', candidate.id)
        .where('status', 'in', ['Pending', 'Running'])
        .where((eb) =>
          candidate.lease_expires_at === null
            ? eb('lease_expires_at', 'is', null)
            : eb('lease_expires_at', '=', candidate.lease_expires_at),
        )
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 1) return candidate.id;
    }
    return null;
  }

  function launch(runId: string): void {
    const controller = new AbortController();
    const entry: Active = { controller, reason: null, deadlineTimer: null, done: Promise.resolve() };
    active.set(runId, entry);
    entry.done = executeRun(
      { deps, core, workerId },
      {
        id: runId,
        signal: controller.signal,
        stopReason: () => entry.reason,
        setDeadline(at) {
          const wait = at.getTime() - clock().getTime();
          if (wait <= 0) return stop(runId, 'runTimeout');
          // Timers hold at most ~24.8 days; longer limits are seen by the heartbeat.
          if (wait < 2 ** 31 - 1) {
            entry.deadlineTimer = setTimeout(() => stop(runId, 'runTimeout'), wait);
            entry.deadlineTimer.unref();
          }
        },
      },
    )
      .catch((error: unknown) => console.error(`Automation run ${runId} crashed`, error))
      .finally(() => {
        if (entry.deadlineTimer) clearTimeout(entry.deadlineTimer);
        active.delete(runId);
        void pump();
      });
  }

  /** Fills free slots with claimable runs; calls while one is going make it look again. */
  function pump(): Promise<void> {
    if (closed || !started) return Promise.resolve();
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        while (!closed && active.size < concurrency()) {
          const runId = await claimNext();
          if (!runId) break;
          launch(runId);
        }
      } while (again && !closed);
    })()
      .catch((error: unknown) => console.error('Could not claim automation runs', error))
      .finally(() => {
        pumping = null;
      });
    return pumping;
  }

  async function beat(): Promise<void> {
    const now = clock();
    for (const [runId, entry] of active) {
      if (entry.reason !== null) continue;
      const row = await db
        .updateTable('automation_runs')
        .set({ lease_expires_at: new Date(now.getTime() + leaseMs).toISOString() })
        .where('id', '=', runId)
        .where('lease_owner', '=', workerId)
        .returning(['cancel_requested', 'deadline_at'])
        .executeTakeFirst();
      if (!row) stop(runId, 'leaseLost');
      else if (row.cancel_requested === 1) stop(runId, 'cancel');
      else if (row.deadline_at && Date.parse(row.deadline_at) <= now.getTime()) stop(runId, 'runTimeout');
    }
    await pump();
  }

  return {
    workerId,
    wake: () => void pump(),
    cancelLocal: (runId) => stop(runId, 'cancel'),
    beat: () => beat().catch((error: unknown) => console.error('Automation heartbeat failed', error)),
    async idle() {
      for (;;) {
        await pump();
        if (active.size === 0) return;
        await Promise.allSettled([...active.values()].map((a) => a.done));
      }
    },
    async start() {
      if (started || closed) return;
      started = true;
      heartbeat = setInterval(() => void beat().catch(() => undefined), Math.max(50, Math.floor(leaseMs / 3)));
      heartbeat.unref();
      await pump();
    },
    async close() {
      closed = true;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      await pumping;
      for (const runId of active.keys()) stop(runId, 'shutdown');
      await Promise.allSettled([...active.values()].map((a) => a.done));
    },
  };
}
