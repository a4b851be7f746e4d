import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileKeyBoundPage, compilePageQuery, KEY_BOUND_SLACK, type TableQuery } from '../../../src/engine';
import { pageVia, countVia } from '../../../src/server/warehouse/ordered-copies';
import type { WarehouseExecutor } from '../../../src/server/warehouse/types';
import { makeWarehouse, sleep, sql } from './helpers';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const SETTINGS = { minRows: 10, maxCopies: 4, maxRows: 10_000 };
// Recent answers off: these tests watch where the ordered copies' answers come from.
const NO_ANSWERS = { maxEntries: 0, maxRows: 0 };

/** `static.t_1` with `n` rows whose `v` is `(i * factor) % 97`. */
async function fill(executor: WarehouseExecutor, n: number, factor: number): Promise<void> {
  await executor.exclusive('table:static.t_1', () =>
    executor.run(
      `CREATE SCHEMA IF NOT EXISTS static; CREATE OR REPLACE TABLE static.t_1 AS
       SELECT i AS _row_id, (i * ${factor}) % 97 AS v FROM range(1, ${n + 1}) r(i)`,
    ),
  );
}

const sortedQuery = (page = 1, pageSize = 10): TableQuery => ({
  source: { kind: 'table', schema: 'static', name: 't_1' },
  columns: [{ columnKey: 'v', type: 'Number' }],
  rowKey: '_row_id',
  select: ['_row_id', 'v'],
  filterGroups: [],
  sorting: [{ columnKey: 'v', direction: 'Descending' }],
  page: { page, pageSize },
});

const page = (executor: WarehouseExecutor, query: TableQuery, rowEstimate: number | null = 100) =>
  pageVia(executor, { query, rowEstimate, keyBoundPage: compileKeyBoundPage(query) }, compilePageQuery(query));

const copyTables = async (executor: WarehouseExecutor) =>
  (await executor.all(sql("SELECT table_name FROM duckdb_tables() WHERE database_name = 'ordered_copies'"))).map((r) =>
    String(r.table_name),
  );

describe('ordered copies in the warehouse', () => {
  it('attaches the copies database to the instance, so every connection sees it and its tables', async () => {
    const { warehouse } = makeWarehouse({ orderedCopies: SETTINGS, recentAnswers: NO_ANSWERS });
    const a = warehouse.forAccount(A);
    await a.run('CREATE TABLE ordered_copies.seen AS SELECT 5 AS x');
    // Sessions held at once each lease a connection of their own.
    let release = () => {};
    const hold = new Promise<void>((resolve) => (release = resolve));
    const readers = Array.from({ length: 4 }, () =>
      a.session(async (session) => {
        const rows = await session.all(sql('SELECT x FROM ordered_copies.seen'));
        await hold;
        return rows;
      }),
    );
    await sleep(50);
    release();
    expect(await Promise.all(readers)).toEqual(Array.from({ length: 4 }, () => [{ x: 5 }]));
  });

  it('starts every instance with an empty copies file and forgets the copies of a closed one', async () => {
    const { warehouse, dataDir } = makeWarehouse({ orderedCopies: SETTINGS, recentAnswers: NO_ANSWERS, idleMs: 50 });
    const a = warehouse.forAccount(A);
    await fill(a, 100, 7);
    expect(await page(a, sortedQuery())).toMatchObject({ copy: 'miss' });
    await a.orderedCopies.idle();
    expect(await page(a, sortedQuery())).toMatchObject({ copy: 'hit' });
    expect(await copyTables(a)).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, 'accounts', A, 'ordered-copies.duckdb'))).toBe(true);

    await sleep(300);
    expect(warehouse.isOpen(A)).toBe(false);
    expect(a.orderedCopies.list()).toEqual([]);
    expect(await copyTables(a)).toEqual([]);
    expect(await page(a, sortedQuery())).toMatchObject({ copy: 'miss' });
    await a.orderedCopies.idle(); // the build that miss asked for, before the folder is removed
  });

  it('gives each account its own copies, even of relations with the same name', async () => {
    const { warehouse } = makeWarehouse({ orderedCopies: SETTINGS, recentAnswers: NO_ANSWERS });
    const a = warehouse.forAccount(A);
    const b = warehouse.forAccount(B);
    await fill(a, 100, 7);
    await fill(b, 100, 11);
    await page(a, sortedQuery());
    await a.orderedCopies.idle();
    const fromA = await page(a, sortedQuery());
    expect(fromA.copy).toBe('hit');
    expect(await copyTables(b)).toEqual([]);
    const plainB = await b.all(compilePageQuery(sortedQuery()));
    expect(plainB).not.toEqual(fromA.rows);
    expect(await page(b, sortedQuery())).toEqual({ rows: plainB, copy: 'miss' });
    await b.orderedCopies.idle();
    expect(await page(b, sortedQuery())).toEqual({ rows: plainB, copy: 'hit' });
    expect(await page(a, sortedQuery())).toEqual(fromA);
  });

  it('moves a relation version on when a writer of it settles, even a failed one, and drops its copies', async () => {
    const { warehouse } = makeWarehouse({ orderedCopies: SETTINGS, recentAnswers: NO_ANSWERS });
    const a = warehouse.forAccount(A);
    await fill(a, 100, 7);
    expect(a.relationVersion('static.t_1')).toBe(1);
    await a.exclusive('schema:static', async () => undefined);
    expect(a.relationVersion('static.t_1')).toBe(1);
    expect(warehouse.forAccount(B).relationVersion('static.t_1')).toBe(0);

    await page(a, sortedQuery());
    await a.orderedCopies.idle();
    expect(await copyTables(a)).toHaveLength(1);
    await expect(a.exclusive('table:static.t_1', () => Promise.reject(new Error('failed write')))).rejects.toThrow();
    expect(a.relationVersion('static.t_1')).toBe(2);
    expect(a.orderedCopies.list()).toEqual([]);
    await sleep(50);
    expect(await copyTables(a)).toEqual([]);
  });

  it('keeps the rows of all copies under maxRows, and skips relations below minRows or of unknown size', async () => {
    const { warehouse } = makeWarehouse({ recentAnswers: NO_ANSWERS, orderedCopies: { ...SETTINGS, maxRows: 150 } });
    const a = warehouse.forAccount(A);
    await fill(a, 100, 7);
    expect(await page(a, sortedQuery(), 9)).toMatchObject({ copy: 'plain' });
    expect(await page(a, sortedQuery(), null)).toMatchObject({ copy: 'plain' });
    await page(a, sortedQuery());
    await a.orderedCopies.idle();
    const ascending = { ...sortedQuery(), sorting: [{ columnKey: 'v' }] };
    await page(a, ascending);
    await a.orderedCopies.idle();
    // 200 rows would not fit: the older copy made room.
    expect(a.orderedCopies.list().map((c) => c.rowCount)).toEqual([100]);
    expect(await copyTables(a)).toHaveLength(1);
    expect(await page(a, ascending)).toMatchObject({ copy: 'hit' });
    expect(await page(a, sortedQuery())).toMatchObject({ copy: 'miss' });
  });

  it('builds a copy over maxRows on its own once, not on every request', async () => {
    const { warehouse } = makeWarehouse({ recentAnswers: NO_ANSWERS, orderedCopies: { ...SETTINGS, maxRows: 50 } });
    const a = warehouse.forAccount(A);
    await fill(a, 100, 7);
    // Unfiltered: 100 rows cannot fit, so no build at all.
    expect(await page(a, sortedQuery())).toMatchObject({ copy: 'plain' });
    const filtered: TableQuery = {
      ...sortedQuery(),
      filterGroups: [{ filters: [{ columnKey: 'v', operator: 'GreaterThan', value: 20 }] }],
    };
    for (let i = 0; i < 3; i += 1) {
      expect(await page(a, filtered)).toMatchObject({ copy: 'miss' });
      await a.orderedCopies.idle();
    }
    expect(a.orderedCopies.stats).toMatchObject({ builds: 1, evicted: 1, failures: 0 });
    expect(await copyTables(a)).toEqual([]);
  });

  it('counts filtered rows from a copy of the same filters, whatever its order', async () => {
    const { warehouse } = makeWarehouse({ orderedCopies: SETTINGS, recentAnswers: NO_ANSWERS });
    const a = warehouse.forAccount(A);
    await fill(a, 100, 7);
    const filtered: TableQuery = {
      ...sortedQuery(),
      filterGroups: [{ filters: [{ columnKey: 'v', operator: 'GreaterThan', value: 50 }] }],
    };
    await page(a, filtered);
    await a.orderedCopies.idle();
    const countQuery = { sql: 'SELECT count(*) AS "count" FROM static.t_1 WHERE v > 50', parameters: [] };
    const [plain] = await a.all(countQuery);
    const counted = await countVia(a, { query: { ...filtered, sorting: [] }, rowEstimate: 100 }, countQuery);
    expect(counted).toEqual({ count: Number(plain?.count), copy: 'hit' });
    // One build at a time: the copy being made answers nothing until it is kept.
    expect(a.orderedCopies.stats).toMatchObject({ builds: 1, failures: 0 });
  });

  it('reads a shallow unfiltered page by its row-key bound when that comes back full, else plainly, with the same rows', async () => {
    // No copies: the page is answered without one, as any page of a table under minRows.
    const { warehouse } = makeWarehouse({ orderedCopies: { ...SETTINGS, maxCopies: 0 }, recentAnswers: NO_ANSWERS });
    const a = warehouse.forAccount(A);
    await fill(a, 100, 7);
    const unsorted = (n: number, size: number): TableQuery => ({ ...sortedQuery(n, size), sorting: [] });
    const plainRows = async (query: TableQuery) => a.all(compilePageQuery(query));

    expect(await page(a, unsorted(2, 10))).toEqual({ rows: await plainRows(unsorted(2, 10)), copy: 'keyBound' });
    // The last page is short: the bound cannot tell it from a gap, so the plain page answers.
    expect(await page(a, unsorted(4, 30))).toEqual({ rows: await plainRows(unsorted(4, 30)), copy: 'plain' });

    // A few rows deleted: the bound's slack still holds the page.
    await a.exclusive('table:static.t_1', () => a.run('DELETE FROM static.t_1 WHERE _row_id IN (5, 6, 50)'));
    expect(await page(a, unsorted(2, 10))).toEqual({ rows: await plainRows(unsorted(2, 10)), copy: 'keyBound' });
    // More rows gone than the slack (keys 1-4, then from 5005): past the gap, the pages read plainly.
    const gap = KEY_BOUND_SLACK + 1000;
    await a.exclusive('table:static.t_1', () =>
      a.run(`UPDATE static.t_1 SET _row_id = _row_id + ${gap} WHERE _row_id > 4`),
    );
    expect(await page(a, unsorted(1, 4))).toEqual({ rows: await plainRows(unsorted(1, 4)), copy: 'keyBound' });
    for (const n of [1, 2, 3]) {
      const answer = await page(a, unsorted(n, 10));
      expect(answer).toEqual({ rows: await plainRows(unsorted(n, 10)), copy: 'plain' });
      expect(answer.rows).toHaveLength(10);
    }
    expect(a.orderedCopies.stats.keyBound).toBe(3);

    // A sorted or filtered page never reads by the bound.
    await page(a, sortedQuery(1, 10));
    expect(a.orderedCopies.stats.keyBound).toBe(3);
  });
});
