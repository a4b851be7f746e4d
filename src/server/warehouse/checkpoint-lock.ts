/**
 * DuckDB refuses a CHECKPOINT while another connection of the instance has a write transaction open
 * ("Cannot CHECKPOINT: there are other write transactions active"), and FORCE CHECKPOINT would abort
 * those transactions. Durable writes checkpoint right after their commit (durability/write-journal.ts),
 * so two writes of one account at once (two tabs, two colleagues, a sync beside an edit) made the
 * second's transaction fail the first's checkpoint: a 500 after its data had committed.
 *
 * So per account: explicit transactions share the account, a checkpoint waits until none is open and
 * holds it alone while it runs. Transactions never wait for a checkpoint that is only queued (a
 * transaction may open another inside its work, which must not deadlock behind it); single
 * statements outside transactions (a sync's staging INSERTs) are not covered here, so a refused
 * checkpoint is retried until they finish (checkpointWhenFree).
 */
export interface CheckpointLock {
  /** Runs a write transaction; waits only while a checkpoint runs. */
  transaction<T>(accountId: string, work: () => Promise<T>): Promise<T>;
  /** Runs a checkpoint once no transaction of the account is open, alone. */
  checkpoint<T>(accountId: string, work: () => Promise<T>): Promise<T>;
}

interface AccountState {
  open: number;
  checkpointing: boolean;
  /** Transactions waiting for the running checkpoint to end. */
  waitingTransactions: (() => void)[];
  /** Checkpoints waiting for open transactions (or another checkpoint) to end. */
  waitingCheckpoints: (() => void)[];
}

export function createCheckpointLock(): CheckpointLock {
  const states = new Map<string, AccountState>();
  const stateOf = (accountId: string): AccountState => {
    let state = states.get(accountId);
    if (!state) {
      state = { open: 0, checkpointing: false, waitingTransactions: [], waitingCheckpoints: [] };
      states.set(accountId, state);
    }
    return state;
  };

  /** Lets in whoever may go now; forgets an idle account so the map does not grow. */
  const wake = (accountId: string, state: AccountState) => {
    if (state.checkpointing) return;
    if (state.waitingTransactions.length > 0) {
      const waiting = state.waitingTransactions.splice(0);
      state.open += waiting.length;
      for (const go of waiting) go();
      return;
    }
    if (state.open === 0 && state.waitingCheckpoints.length > 0) {
      state.checkpointing = true;
      state.waitingCheckpoints.shift()?.();
      return;
    }
    if (state.open === 0) states.delete(accountId);
  };

  return {
    async transaction(accountId, work) {
      const state = stateOf(accountId);
      if (state.checkpointing) await new Promise<void>((go) => state.waitingTransactions.push(go));
      else state.open += 1;
      try {
        return await work();
      } finally {
        state.open -= 1;
        wake(accountId, state);
      }
    },

    async checkpoint(accountId, work) {
      const state = stateOf(accountId);
      if (state.open === 0 && !state.checkpointing) state.checkpointing = true;
      else await new Promise<void>((go) => state.waitingCheckpoints.push(go));
      try {
        return await work();
      } finally {
        state.checkpointing = false;
        wake(accountId, state);
      }
    },
  };
}

const OTHER_WRITERS = /other write transactions active/i;

/**
 * Runs `checkpoint` (a CHECKPOINT statement) until DuckDB accepts it: a statement outside any
 * transaction may still be writing. Waits grow from 5 ms to 250 ms; after `patienceMs` the refusal
 * is thrown, as the write cannot be made durable now.
 */
export async function checkpointWhenFree(
  checkpoint: () => Promise<void>,
  patienceMs = 10 * 60_000,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  const started = Date.now();
  for (let wait = 5; ; wait = Math.min(wait * 2, 250)) {
    try {
      await checkpoint();
      return;
    } catch (error) {
      if (!(error instanceof Error) || !OTHER_WRITERS.test(error.message)) throw error;
      if (Date.now() - started + wait > patienceMs) throw error;
      await sleep(wait);
    }
  }
}
