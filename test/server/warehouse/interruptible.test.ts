import { describe, expect, it } from 'vitest';
import { interruptible } from '../../../src/server/warehouse/interruptible';
import { makeWarehouse, sql } from './helpers';

const ACCOUNT = '55555555-5555-4555-8555-555555555555';
// Long enough that it cannot finish before the abort on any machine (minutes of work).
const SLOW = 'SELECT count(*) AS n FROM range(100000000000) a WHERE a.range % 7 = 3';

describe('interruptible statements', () => {
  it('an abort stops the running statement and rejects with the signal’s reason; the connection serves again', async () => {
    const { warehouse } = makeWarehouse();
    const executor = warehouse.forAccount(ACCOUNT);
    const controller = new AbortController();
    const started = Date.now();
    const running = interruptible(executor, controller.signal, (connection) => connection.all(sql(SLOW)));
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 300);
    await expect(running).rejects.toThrow('cancelled by the test');
    expect(Date.now() - started).toBeLessThan(20_000);
    // The pool's connections still answer.
    expect(await executor.all(sql('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
  });

  it('an aborted signal runs nothing; a transaction it interrupts rolls back', async () => {
    const { warehouse } = makeWarehouse();
    const executor = warehouse.forAccount(ACCOUNT);
    const aborted = new AbortController();
    aborted.abort(new Error('too late'));
    let ran = false;
    await expect(
      interruptible(executor, aborted.signal, async () => {
        ran = true;
      }),
    ).rejects.toThrow('too late');
    expect(ran).toBe(false);

    await executor.run('CREATE TABLE kept (n INTEGER)');
    const controller = new AbortController();
    const writing = interruptible(executor, controller.signal, (connection) =>
      connection.transaction(async (tx) => {
        await tx.run('INSERT INTO kept VALUES (1)');
        await tx.all(sql(SLOW));
      }),
    );
    setTimeout(() => controller.abort(new Error('stop')), 300);
    await expect(writing).rejects.toThrow('stop');
    expect(await executor.all(sql('SELECT count(*)::INTEGER AS n FROM kept'))).toEqual([{ n: 0 }]);
  });
});
