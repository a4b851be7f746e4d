import { describe, expect, it } from 'vitest';
import type { SqlRunner } from '../../../src/engine/sql';
import { makeWarehouse, sql, sleep } from './helpers';

const ACCOUNT = '44444444-4444-4444-8444-444444444444';

describe('warehouse executor', () => {
  it('implements the engine’s SqlRunner, binding $1..$n in order', async () => {
    const { warehouse } = makeWarehouse();
    const runner: SqlRunner = warehouse.forAccount(ACCOUNT);
    const tricky = '\'; DROP TABLE t; -- "x" ☃';
    const rows = await runner.all(
      sql(
        'SELECT $1 AS s, $2 AS i, $3 AS f, $4 AS b, $5 IS NULL AS n, $6 AS big, $7 AS huge, $8 AS e, $2 + 1 AS again',
        tricky,
        42,
        1.25,
        true,
        null,
        9_007_199_254_740_993n,
        2n ** 100n,
        1e20,
      ),
    );
    expect(rows).toEqual([
      {
        s: tricky,
        i: 42,
        f: 1.25,
        b: true,
        n: true,
        big: '9007199254740993',
        huge: '1267650600228229401496703205376',
        e: 1e20,
        again: 43,
      },
    ]);
  });

  it('compares bound text with typed columns through casts in the SQL', async () => {
    const { warehouse } = makeWarehouse();
    const a = warehouse.forAccount(ACCOUNT);
    await a.run("CREATE TABLE t AS SELECT * FROM (VALUES (1, DATE '2024-01-01'), (2, DATE '2024-02-01')) v(id, d)");
    expect(await a.all(sql('SELECT id FROM t WHERE d >= $1::DATE AND id <> $2 ORDER BY id', '2024-01-15', 0))).toEqual([
      { id: 2 },
    ]);
  });

  it('runs DDL and writes, reporting rows changed; a text without parameters may hold several statements', async () => {
    const { warehouse } = makeWarehouse();
    const a = warehouse.forAccount(ACCOUNT);
    await a.run('CREATE SCHEMA static; CREATE TABLE static.t (x INTEGER, y VARCHAR)');
    expect(await a.run('INSERT INTO static.t VALUES ($1, $2), ($3, $4)', [1, 'a', 2, 'b'])).toBe(2);
    expect(await a.run('UPDATE static.t SET y = $1 WHERE x > $2', ['z', 0])).toBe(2);
    expect(await a.all(sql('SELECT * FROM static.t ORDER BY x'))).toEqual([
      { x: 1, y: 'z' },
      { x: 2, y: 'z' },
    ]);
    await expect(a.run('SELECT $1', [])).rejects.toThrow(/parameter/i);
  });

  it('streams large results in chunks, and a loop that stops early gives its connection back', async () => {
    const { warehouse } = makeWarehouse({ idleMs: 30 });
    const a = warehouse.forAccount(ACCOUNT);
    const sizes: number[] = [];
    let last: unknown = null;
    for await (const chunk of a.stream(sql('SELECT range AS n FROM range($1) ORDER BY n', 5000))) {
      sizes.push(chunk.length);
      last = chunk.at(-1);
    }
    expect(sizes).toEqual([2048, 2048, 904]);
    expect(last).toEqual({ n: 4999 });

    for await (const chunk of a.stream(sql('SELECT range AS n FROM range(1000000)'))) {
      expect(chunk[0]).toEqual({ n: 0 });
      break;
    }
    // Every lease returned: the idle timer can close the instance.
    await sleep(120);
    expect(warehouse.isOpen(ACCOUNT)).toBe(false);
  });

  it('keeps a session on one connection, so temporary tables survive between its statements', async () => {
    const { warehouse } = makeWarehouse();
    const a = warehouse.forAccount(ACCOUNT);
    const total = await a.session(async (s) => {
      await s.run('CREATE TEMP TABLE scratch AS SELECT range AS n FROM range(10)');
      const [row] = await s.all(sql('SELECT sum(n)::INTEGER AS total FROM scratch'));
      return row?.total;
    });
    expect(total).toBe(45);
  });

  it('commits a transaction as a whole, and rolls it all back on any error', async () => {
    const { warehouse } = makeWarehouse();
    const a = warehouse.forAccount(ACCOUNT);
    await a.run('CREATE TABLE t (x INTEGER)');
    await a.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (1)');
      await tx.run('INSERT INTO t VALUES (2)');
    });
    await expect(
      a.transaction(async (tx) => {
        await tx.run('INSERT INTO t VALUES (3)');
        await tx.run('DROP TABLE t');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      a.transaction(async (tx) => {
        await tx.run('INSERT INTO t VALUES (4)');
        await tx.run("INSERT INTO t VALUES ('not a number')");
      }),
    ).rejects.toThrow(/Could not convert/);
    expect(await a.all(sql('SELECT x FROM t ORDER BY x'))).toEqual([{ x: 1 }, { x: 2 }]);
    // The connections went back clean: a plain statement afterwards is not inside a transaction.
    await a.run('INSERT INTO t VALUES (5)');
    expect(await a.all(sql('SELECT count(*)::INTEGER AS n FROM t'))).toEqual([{ n: 3 }]);
  });
});
