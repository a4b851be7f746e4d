import { describe, expect, it } from 'vitest';
import { checkpointWhenFree, createCheckpointLock } from '../../../src/server/warehouse/checkpoint-lock';

/** A promise with its resolver, to hold work open until the test lets it end. */
function held() {
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('checkpoint lock', () => {
  it('a checkpoint waits for the open transactions, and new ones wait for it', async () => {
    const lock = createCheckpointLock();
    const events: string[] = [];
    const first = held();
    const t1 = lock.transaction('a', async () => {
      events.push('t1 start');
      await first.done;
      events.push('t1 end');
    });
    const checkpoint = held();
    const c = lock.checkpoint('a', async () => {
      events.push('checkpoint start');
      await checkpoint.done;
      events.push('checkpoint end');
    });
    await tick();
    // Another account is not held up by account a's checkpoint.
    await lock.transaction('b', async () => void events.push('other account'));
    first.release();
    await t1;
    await tick();
    const t2 = lock.transaction('a', async () => void events.push('t2'));
    await tick();
    expect(events).toEqual(['t1 start', 'other account', 't1 end', 'checkpoint start']);
    checkpoint.release();
    await Promise.all([c, t2]);
    expect(events.slice(4)).toEqual(['checkpoint end', 't2']);
  });

  it('a transaction opened inside another never waits behind a queued checkpoint', async () => {
    const lock = createCheckpointLock();
    const events: string[] = [];
    let queued: Promise<void> | undefined;
    await lock.transaction('a', async () => {
      queued = lock.checkpoint('a', async () => void events.push('checkpoint'));
      await tick();
      await lock.transaction('a', async () => void events.push('inner'));
    });
    await queued;
    expect(events).toEqual(['inner', 'checkpoint']);
  });

  it('a failing transaction or checkpoint releases the account', async () => {
    const lock = createCheckpointLock();
    await expect(lock.transaction('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.checkpoint('a', () => Promise.reject(new Error('bang')))).rejects.toThrow('bang');
    await expect(lock.checkpoint('a', async () => 'ran')).resolves.toBe('ran');
    await expect(lock.transaction('a', async () => 'ran')).resolves.toBe('ran');
  });
});

describe('checkpointWhenFree', () => {
  const refused = new Error('TransactionContext Error: Cannot CHECKPOINT: there are other write transactions active.');

  it('retries while other writers are active, with growing waits', async () => {
    let calls = 0;
    const waits: number[] = [];
    await checkpointWhenFree(
      async () => {
        calls += 1;
        if (calls < 4) throw refused;
      },
      60_000,
      async (ms) => void waits.push(ms),
    );
    expect(calls).toBe(4);
    expect(waits).toEqual([5, 10, 20]);
  });

  it('throws any other error at once, and the refusal once out of patience', async () => {
    const sleep = async () => {};
    await expect(checkpointWhenFree(() => Promise.reject(new Error('disk full')), 60_000, sleep)).rejects.toThrow(
      'disk full',
    );
    await expect(checkpointWhenFree(() => Promise.reject(refused), 0, sleep)).rejects.toThrow('other write');
  });
});
