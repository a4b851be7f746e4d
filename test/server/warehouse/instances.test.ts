import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { makeApp } from '../helpers';
import { makeWarehouse, sleep, sql } from './helpers';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('warehouse instances', () => {
  it('keeps one DuckDB file per account, and one account never sees another one’s tables', async () => {
    const { warehouse, dataDir } = makeWarehouse();
    const a = warehouse.forAccount(A);
    const b = warehouse.forAccount(B);
    await a.run('CREATE SCHEMA static; CREATE TABLE static.t_1 AS SELECT 42 AS answer');
    await b.run('CREATE TABLE mine AS SELECT 1 AS x');

    expect(fs.existsSync(path.join(dataDir, 'accounts', A, 'warehouse.duckdb'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'accounts', B, 'warehouse.duckdb'))).toBe(true);
    expect(await a.all(sql('SELECT answer FROM static.t_1'))).toEqual([{ answer: 42 }]);
    await expect(b.all(sql('SELECT * FROM static.t_1'))).rejects.toThrow(/static/);
    await expect(a.all(sql('SELECT * FROM mine'))).rejects.toThrow(/mine/);
    const tables = await b.all(
      sql(
        "SELECT table_name FROM information_schema.tables WHERE table_schema NOT IN ('information_schema', '_workspace')",
      ),
    );
    expect(tables).toEqual([{ table_name: 'mine' }]);
  });

  it('refuses account ids that are not a safe folder name, before touching the disk', () => {
    const { warehouse, dataDir } = makeWarehouse();
    for (const id of ['', '..', '../other', 'a/b', 'a\\b', '.hidden', 'x'.repeat(200), 'a b']) {
      expect(() => warehouse.forAccount(id), id).toThrow(/Unsafe account id/);
    }
    expect(fs.existsSync(path.join(dataDir, 'accounts'))).toBe(false);
  });

  it('opens an instance on first use, reuses it, and closes it when idle; the data stays', async () => {
    const { warehouse } = makeWarehouse({ idleMs: 100 });
    const a = warehouse.forAccount(A);
    expect(warehouse.isOpen(A)).toBe(false);
    await a.run('CREATE TABLE t AS SELECT 7 AS n');
    expect(warehouse.openAccounts()).toEqual([A]);
    await a.all(sql('SELECT 1 AS one'));
    await sleep(40);
    // Used again before the idle time ran out, which restarts the wait.
    await a.session(async (s) => s.run('CREATE TEMP TABLE scratch AS SELECT 1 AS x'));
    expect(warehouse.isOpen(A)).toBe(true);

    await sleep(300);
    expect(warehouse.isOpen(A)).toBe(false);
    expect(await a.all(sql('SELECT n FROM t'))).toEqual([{ n: 7 }]);
    expect(warehouse.isOpen(A)).toBe(true);
  });

  it('does not close an instance while a query or stream still holds a connection', async () => {
    const { warehouse } = makeWarehouse({ idleMs: 20 });
    const a = warehouse.forAccount(A);
    const rows = a.stream(sql('SELECT range AS n FROM range(10000)'));
    let seen = 0;
    for await (const chunk of rows) {
      seen += chunk.length;
      await sleep(30);
      expect(warehouse.isOpen(A)).toBe(true);
    }
    expect(seen).toBe(10000);
    await sleep(150);
    expect(warehouse.isOpen(A)).toBe(false);
  });

  it('runs many queries at once, on one account and across accounts', async () => {
    const { warehouse } = makeWarehouse({ callLimit: 3 });
    const a = warehouse.forAccount(A);
    const b = warehouse.forAccount(B);
    const work = Array.from({ length: 8 }, (_, i) =>
      (i % 2 === 0 ? a : b).all(sql('SELECT sum(range)::BIGINT + $1 AS total FROM range(2000000)', i)),
    );
    const results = await Promise.all(work);
    results.forEach((rows, i) => expect(rows).toEqual([{ total: 1_999_999_000_000 + i }]));
    expect(warehouse.openAccounts().sort()).toEqual([A, B]);
  });

  it('opens each instance once even when the first queries arrive together', async () => {
    const { warehouse } = makeWarehouse();
    const create = vi.spyOn(DuckDBInstance, 'create');
    onTestFinished(() => create.mockRestore());
    const a = warehouse.forAccount(A);
    const rows = await Promise.all(Array.from({ length: 8 }, (_, i) => a.all(sql('SELECT $1 AS i', i))));
    expect(rows.flat()).toEqual(Array.from({ length: 8 }, (_, i) => ({ i })));
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('applies the memory limit and thread count to every instance', async () => {
    const { warehouse } = makeWarehouse({ memoryLimit: '512MiB', threads: 3 });
    for (const id of [A, B]) {
      const rows = await warehouse
        .forAccount(id)
        .all(sql("SELECT current_setting('memory_limit') AS memory, current_setting('threads')::INTEGER AS threads"));
      expect(rows).toEqual([{ memory: '512.0 MiB', threads: 3 }]);
    }
  });

  it('closes every instance on close, and refuses work afterwards', async () => {
    const { warehouse } = makeWarehouse();
    await warehouse.forAccount(A).run('CREATE TABLE t (x INTEGER)');
    await warehouse.forAccount(B).run('CREATE TABLE t (x INTEGER)');
    await warehouse.close();
    expect(warehouse.openAccounts()).toEqual([]);
    await expect(warehouse.forAccount(A).all(sql('SELECT 1'))).rejects.toThrow(/closed/);
  });

  it('is part of the app: built from the configuration and closed with the server', async () => {
    const t = await makeApp({ WAREHOUSE_MEMORY_LIMIT: '300MB', WAREHOUSE_THREADS: '2' });
    const a = t.deps.warehouse.forAccount(A);
    expect(await a.all(sql("SELECT current_setting('memory_limit') AS m, current_setting('threads') AS t"))).toEqual([
      { m: '286.1 MiB', t: 2 },
    ]);
    expect(fs.existsSync(path.join(t.dataDir, 'accounts', A, 'warehouse.duckdb'))).toBe(true);
    await t.server.close();
    expect(t.deps.warehouse.openAccounts()).toEqual([]);
  });
});
