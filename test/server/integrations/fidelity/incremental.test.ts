/**
 * Incremental syncs never lose or duplicate rows (a real PostgreSQL through the app): keys that
 * differ only past 2^53 stay apart, an update of a big key replaces only its own row, a row
 * written later with a cursor equal to the saved one is read, and re-reading the boundary adds
 * nothing: with AppendDedup (primary key) and with Append (no key). Column names a warehouse table
 * cannot hold side by side (case-only differences, `_row_id`) are stored under free names, the key
 * among them, and keep their values. A column named `rowid` (DuckDB's row pseudo-column, which
 * numbers the staged rows) keeps its values and never becomes the row number; columns named like
 * the aliases of the boundary check and of AppendDedup add no copy and lose no row. Rows without a
 * cursor value are read by every incremental sync (the first one included, when no row has one):
 * the key, or the append's copy check, keeps each once.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, signIn, type TestApp } from '../../helpers';
import { api, expectCompleted, ok, selectDatasets, syncNow, type Integration } from '../helpers';
import { adminClient, findPostgresBin, startPostgres, type PostgresPeer } from '../peers/postgres';
import { postgresIntegration } from './postgres-integration';
import { apiRows, downloadRows } from './exports';

const bin = findPostgresBin();

describe.skipIf(!bin)('incremental PostgreSQL syncs through the app', () => {
  let peer: PostgresPeer;
  let admin: pg.Client;

  beforeAll(async () => {
    peer = await startPostgres();
    admin = await adminClient(peer);
    await admin.query(`
      CREATE TABLE big_keys (id bigint PRIMARY KEY, label text, updated_at timestamptz NOT NULL);
      INSERT INTO big_keys VALUES
        (9007199254740992, 'a', '2024-01-01 00:00:00+00'),
        (9007199254740993, 'b', '2024-01-01 00:00:00+00'),
        (1234567890123456789, 'c', '2024-01-01 00:00:00+00'),
        (1234567890123456790, 'd', '2024-01-02 00:00:00+00'),
        (1234567890123456791, 'e', '2024-01-02 00:00:00+00');
      CREATE TABLE events (id bigint, label text, updated_at timestamptz NOT NULL);
      INSERT INTO events VALUES
        (1, 'one', '2024-01-01 00:00:00+00'),
        (2, 'two', '2024-01-02 00:00:00+00'),
        (3, 'three', '2024-01-02 00:00:00+00'),
        (3, 'three', '2024-01-02 00:00:00+00');
      CREATE TABLE clashing (a text, "A" bigint PRIMARY KEY, "_row_id" text, a_2 text, updated_at timestamptz NOT NULL);
      INSERT INTO clashing VALUES
        ('lower 1', 1, 'own 1', 'two 1', '2024-01-01 00:00:00+00'),
        ('lower 2', 2, 'own 2', 'two 2', '2024-01-01 00:00:00+00');
      CREATE TABLE rowid_full (id int PRIMARY KEY, rowid int, v text);
      INSERT INTO rowid_full VALUES (1, 5, 'a'), (2, 5, 'b'), (3, NULL, 'c'), (4, 1, 'd');
      CREATE TABLE rowid_keyed (id int PRIMARY KEY, "RowId" int, v text, updated_at timestamptz NOT NULL);
      INSERT INTO rowid_keyed VALUES (1, 9, 'a', '2024-01-01 00:00:00+00'), (2, 9, 'b', '2024-01-01 00:00:00+00');
      CREATE TABLE rowid_events ("ROWID" int, v text, updated_at timestamptz NOT NULL);
      INSERT INTO rowid_events VALUES (7, 'a', '2024-01-01 00:00:00+00'), (7, 'b', '2024-01-02 00:00:00+00');
      CREATE TABLE endless (id int, updated_at timestamptz NOT NULL);
      INSERT INTO endless VALUES (1, '2024-01-01 00:00:00+00'), (2, 'infinity');
      CREATE TABLE alias_names (s text, e text, copy int, copies int, _s text, rn int, v text, updated_at timestamptz NOT NULL);
      INSERT INTO alias_names VALUES
        ('s', 'e', 9, 0, '_s', 1, 'a', '2024-01-01 00:00:00+00'),
        ('s', 'e', 9, 0, '_s', 1, 'b', '2024-01-02 00:00:00+00');
      CREATE TABLE alias_keyed (id int PRIMARY KEY, rn int, v text, updated_at timestamptz NOT NULL);
      INSERT INTO alias_keyed VALUES (1, 2, 'a', '2024-01-01 00:00:00+00'), (2, 1, 'b', '2024-01-01 00:00:00+00');
      CREATE TABLE unstamped (id int PRIMARY KEY, v text, updated_at timestamptz);
      INSERT INTO unstamped VALUES (1, 'a', NULL), (2, 'b', NULL);
      CREATE TABLE number_keys (k numeric PRIMARY KEY, v text, updated_at timestamptz NOT NULL);
      INSERT INTO number_keys VALUES (1, 'one', '2024-01-01 00:00:00+00'), (2.5, 'two', '2024-01-01 00:00:00+00');
      CREATE TABLE number_events (n numeric, v text, updated_at timestamptz NOT NULL);
      INSERT INTO number_events VALUES (1, 'one', '2024-01-01 00:00:00+00'), (2.5, 'two', '2024-01-01 00:00:00+00');
      CREATE TABLE unstamped_events (id int, v text, updated_at timestamptz);
      INSERT INTO unstamped_events VALUES (1, 'a', NULL), (1, 'a', NULL), (2, 'b', '2024-01-01 00:00:00+00');`);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await peer?.stop();
  });

  async function integration(t: TestApp, cookie: string, schema: string) {
    const created = await postgresIntegration(t, cookie, peer, { name: schema });
    return created;
  }

  async function datasetId(t: TestApp, cookie: string, id: string, name: string): Promise<string> {
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${id}`));
    return detail.datasets.find((d) => d.name === name)!.id;
  }

  const labels = (rows: Record<string, unknown>[]) => rows.map((r) => [String(r.id), r.label]);

  it('AppendDedup: big keys compared exactly, an update replaces only its row, equal cursors are read', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie, 'keys');
    await selectDatasets(t, cookie, created.id, {
      big_keys: { syncType: 'Incremental', dataIngestionType: 'AppendDedup' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    const id = await datasetId(t, cookie, created.id, 'big_keys');
    expect(labels(await apiRows(t, cookie, id, 'id'))).toEqual([
      ['9007199254740992', 'a'],
      ['9007199254740993', 'b'],
      ['1234567890123456789', 'c'],
      ['1234567890123456790', 'd'],
      ['1234567890123456791', 'e'],
    ]);

    // An update of a big key, and a row written after the sync with the saved cursor's value.
    await admin.query(
      `UPDATE big_keys SET label = 'd2', updated_at = '2024-01-03 00:00:00+00' WHERE id = 1234567890123456790`,
    );
    await admin.query(`INSERT INTO big_keys VALUES (1234567890123456792, 'late', '2024-01-02 00:00:00+00')`);
    await admin.query(
      `UPDATE big_keys SET label = 'b2', updated_at = '2024-01-03 00:00:00+00' WHERE id = 9007199254740993`,
    );
    t.clock.advance(60_000);
    const second = await syncNow(t, cookie, created.id);
    expectCompleted(second);
    expect(second.logs).toContain(
      '[INFO] big_keys: Reading big_keys where updated_at >= 2024-01-02 00:00:00+00 or updated_at is empty',
    );
    const expected = [
      ['9007199254740992', 'a'],
      ['9007199254740993', 'b2'],
      ['1234567890123456789', 'c'],
      ['1234567890123456790', 'd2'],
      ['1234567890123456791', 'e'],
      ['1234567890123456792', 'late'],
    ];
    expect(labels(await apiRows(t, cookie, id, 'id'))).toEqual(expected);

    // Nothing new: the boundary rows are read again and absorbed by the key.
    t.clock.advance(60_000);
    expectCompleted(await syncNow(t, cookie, created.id));
    expect(labels(await apiRows(t, cookie, id, 'id'))).toEqual(expected);
  });

  it('Append without a key: rows at the saved cursor are not added twice, new ones at it are', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie, 'events');
    await selectDatasets(t, cookie, created.id, {
      events: { syncType: 'Incremental', dataIngestionType: 'Append' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    const id = await datasetId(t, cookie, created.id, 'events');
    const first = [
      ['1', 'one'],
      ['2', 'two'],
      ['3', 'three'],
      ['3', 'three'],
    ];
    expect(labels(await apiRows(t, cookie, id, 'id'))).toEqual(first);

    await admin.query(
      `INSERT INTO events VALUES (4, 'four', '2024-01-02 00:00:00+00'), (3, 'three', '2024-01-02 00:00:00+00')`,
    );
    t.clock.advance(60_000);
    expectCompleted(await syncNow(t, cookie, created.id));
    // The two copies of row 3 stored before stay two; the third copy written since is added.
    const second = [...first, ['3', 'three'], ['4', 'four']].sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(labels(await apiRows(t, cookie, id, 'id'))).toEqual(second);

    t.clock.advance(60_000);
    expectCompleted(await syncNow(t, cookie, created.id));
    expect(labels(await apiRows(t, cookie, id, 'id'))).toEqual(second);
  });

  it('stores names that differ only in case, and _row_id, under free names; the key among them dedups', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie, 'clashing');
    await selectDatasets(t, cookie, created.id, {
      clashing: { syncType: 'Incremental', dataIngestionType: 'AppendDedup' },
    });
    const first = await syncNow(t, cookie, created.id);
    expectCompleted(first);
    expect(first.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] clashing: Property "A" is stored as column "A_3": the warehouse does not tell column names apart by case, and another property has this name.',
      `[WARN] clashing: Property "_row_id" is stored as column "_row_id_2": _row_id is the name of the table's own row number.`,
    ]);
    const id = await datasetId(t, cookie, created.id, 'clashing');
    const table = ok(
      await api<{ columns: { columnKey: string }[] }>(t, cookie, 'GET', `/api/tables/IntegrationDataset/${id}`),
    );
    expect(table.columns.map((c) => c.columnKey)).toEqual(['a', 'A_3', '_row_id_2', 'a_2', 'updated_at']);
    const cells = (rows: Record<string, unknown>[]) => rows.map((r) => [r.a, r.A_3, r._row_id_2, r.a_2]);
    expect(cells(await apiRows(t, cookie, id, 'A_3'))).toEqual([
      ['lower 1', 1, 'own 1', 'two 1'],
      ['lower 2', 2, 'own 2', 'two 2'],
    ]);

    await admin.query(`UPDATE clashing SET a = 'lower 2b', updated_at = '2024-01-02 00:00:00+00' WHERE "A" = 2`);
    t.clock.advance(60_000);
    expectCompleted(await syncNow(t, cookie, created.id));
    expect(cells(await apiRows(t, cookie, id, 'A_3'))).toEqual([
      ['lower 1', 1, 'own 1', 'two 1'],
      ['lower 2b', 2, 'own 2', 'two 2'],
    ]);
  });
  it('a source column named rowid (any case) keeps its values and never numbers the rows', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie, 'rowids');
    await selectDatasets(t, cookie, created.id, {
      rowid_full: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
      rowid_keyed: { syncType: 'Incremental', dataIngestionType: 'AppendDedup' },
      rowid_events: { syncType: 'Incremental', dataIngestionType: 'Append' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    const source = await admin.query({
      text: 'SELECT id::text AS id, rowid::text AS rowid, v FROM rowid_full ORDER BY id',
      types: { getTypeParser: () => (v: string) => v },
    });
    const full = await datasetId(t, cookie, created.id, 'rowid_full');
    const viaApi = await apiRows(t, cookie, full, 'id');
    const text = (v: unknown) => (v === null ? null : String(v));
    expect(viaApi.map((r) => ({ id: text(r.id), rowid: text(r.rowid), v: r.v }))).toEqual(source.rows);
    expect(new Set(viaApi.map((r) => r._row_id)).size).toBe(4);
    expect(await downloadRows(t, cookie, full, 'csv', 'id', { id: 'INTEGER', rowid: 'INTEGER', v: 'VARCHAR' })).toEqual(
      source.rows,
    );

    // A later row at the saved cursor is read and kept; an update replaces only its own row.
    await admin.query(`INSERT INTO rowid_events VALUES (7, 'c', '2024-01-02 00:00:00+00')`);
    await admin.query(`UPDATE rowid_keyed SET v = 'a2', updated_at = '2024-01-02 00:00:00+00' WHERE id = 1`);
    await admin.query(`INSERT INTO rowid_keyed VALUES (3, NULL, 'c', '2024-01-01 00:00:00+00')`);
    for (let sync = 0; sync < 2; sync++) {
      t.clock.advance(60_000);
      expectCompleted(await syncNow(t, cookie, created.id));
      const keyed = await apiRows(t, cookie, await datasetId(t, cookie, created.id, 'rowid_keyed'), 'id');
      expect(keyed.map((r) => [r.id, r.RowId, r.v])).toEqual([
        [1, 9, 'a2'],
        [2, 9, 'b'],
        [3, null, 'c'],
      ]);
      const events = await apiRows(t, cookie, await datasetId(t, cookie, created.id, 'rowid_events'), 'v');
      expect(events.map((r) => [r.ROWID, r.v])).toEqual([
        [7, 'a'],
        [7, 'b'],
        [7, 'c'],
      ]);
    }
  });
  it("source columns named like the staging SQL's aliases (s, e, copy, copies, rn) neither add nor lose rows", async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie, 'aliases');
    await selectDatasets(t, cookie, created.id, {
      alias_names: { syncType: 'Incremental', dataIngestionType: 'Append' },
      alias_keyed: { syncType: 'Incremental', dataIngestionType: 'AppendDedup' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    await admin.query(`INSERT INTO alias_names VALUES ('s', 'e', 9, 0, '_s', 1, 'c', '2024-01-02 00:00:00+00')`);
    await admin.query(`UPDATE alias_keyed SET v = 'a2', updated_at = '2024-01-02 00:00:00+00' WHERE id = 1`);
    const cells =
      'SELECT s, e, copy::text AS copy, copies::text AS copies, _s, rn::text AS rn, v FROM alias_names ORDER BY v';
    for (let sync = 0; sync < 2; sync++) {
      t.clock.advance(60_000);
      expectCompleted(await syncNow(t, cookie, created.id));
      // The boundary row b is stored once, the new row c at it is added.
      const source = await admin.query({ text: cells, types: { getTypeParser: () => (v: string) => v } });
      const id = await datasetId(t, cookie, created.id, 'alias_names');
      const text = (row: Record<string, unknown>) =>
        Object.fromEntries(Object.keys(source.rows[0] as object).map((k) => [k, String(row[k])]));
      expect((await apiRows(t, cookie, id, 'v')).map(text)).toEqual(source.rows);
      const types = {
        s: 'VARCHAR',
        e: 'VARCHAR',
        copy: 'INTEGER',
        copies: 'INTEGER',
        _s: 'VARCHAR',
        rn: 'INTEGER',
        v: 'VARCHAR',
      };
      expect(await downloadRows(t, cookie, id, 'csv', 'v', types)).toEqual(source.rows);
      const keyed = await apiRows(t, cookie, await datasetId(t, cookie, created.id, 'alias_keyed'), 'id');
      expect(keyed.map((r) => [r.id, r.rn, r.v])).toEqual([
        [1, 2, 'a2'],
        [2, 1, 'b'],
      ]);
    }
  });
  it('a cursor saved at infinity is said in the log, naming the dataset and the column', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie, 'endless');
    await selectDatasets(t, cookie, created.id, { endless: { syncType: 'Incremental', dataIngestionType: 'Append' } });
    const warning =
      '[WARN] endless: Column updated_at: the saved cursor is infinity, so later syncs read only the rows whose ' +
      'updated_at is infinity: rows added or changed with any other updated_at are not read. Choose another ' +
      'cursor, or refresh all data to read every row.';
    const first = await syncNow(t, cookie, created.id);
    expectCompleted(first);
    expect(first.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([warning]);
    await admin.query(`INSERT INTO endless VALUES (3, '2024-01-02 00:00:00+00')`);
    t.clock.advance(60_000);
    const second = await syncNow(t, cookie, created.id);
    expectCompleted(second);
    expect(second.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([warning]);
    const id = await datasetId(t, cookie, created.id, 'endless');
    expect((await apiRows(t, cookie, id, 'id')).map((r) => r.id)).toEqual([1, 2]);
  });
  it('rows without a cursor value are read by every incremental sync and stored once', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie, 'unstamped');
    await selectDatasets(t, cookie, created.id, {
      unstamped: { syncType: 'Incremental', dataIngestionType: 'AppendDedup' },
      unstamped_events: { syncType: 'Incremental', dataIngestionType: 'Append' },
    });
    const source = async (table: string) =>
      (await admin.query<{ id: number; v: string }>(`SELECT id, v FROM ${table} ORDER BY id, v`)).rows.map((r) => [
        String(r.id),
        r.v,
      ]);
    const stored = async (table: string) =>
      (await apiRows(t, cookie, await datasetId(t, cookie, created.id, table), 'id'))
        .map((r) => [String(r.id), r.v])
        .sort((a, b) => Number(a[0]) - Number(b[0]) || String(a[1]).localeCompare(String(b[1])));
    // No row has a cursor value yet: the first sync still reads every row.
    expectCompleted(await syncNow(t, cookie, created.id));
    expect(await stored('unstamped')).toEqual(await source('unstamped'));
    expect(await stored('unstamped_events')).toEqual(await source('unstamped_events'));

    // Rows written or changed since without a cursor value are read; those read before are not added twice.
    await admin.query(`
      INSERT INTO unstamped VALUES (3, 'c', NULL);
      UPDATE unstamped SET v = 'b2' WHERE id = 2;
      INSERT INTO unstamped_events VALUES (1, 'a', NULL), (3, 'c', NULL);`);
    for (let sync = 0; sync < 2; sync++) {
      t.clock.advance(60_000);
      expectCompleted(await syncNow(t, cookie, created.id));
      expect(await stored('unstamped')).toEqual([
        ['1', 'a'],
        ['2', 'b2'],
        ['3', 'c'],
      ]);
      expect(await stored('unstamped_events')).toEqual(await source('unstamped_events'));
    }
    await admin.query(`UPDATE unstamped SET v = 'a2', updated_at = '2024-01-02 00:00:00+00' WHERE id = 1`);
    t.clock.advance(60_000);
    expectCompleted(await syncNow(t, cookie, created.id));
    expect(await stored('unstamped')).toEqual([
      ['1', 'a2'],
      ['2', 'b2'],
      ['3', 'c'],
    ]);
  });
  it('a numeric key whose column becomes exact text still meets its stored rows as the same number', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie, 'number_keys');
    await selectDatasets(t, cookie, created.id, {
      number_keys: { syncType: 'Incremental', dataIngestionType: 'AppendDedup' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    // The stored keys are decimals (1.0, 2.5); a key of 40 digits makes the column exact text, where
    // PostgreSQL spells the updated key 1 as '1'.
    await admin.query(`
      UPDATE number_keys SET v = 'one b', updated_at = '2024-01-02 00:00:00+00' WHERE k = 1;
      INSERT INTO number_keys VALUES (1234567890123456789012345678901234567890, 'big', '2024-01-02 00:00:00+00');`);
    t.clock.advance(60_000);
    expectCompleted(await syncNow(t, cookie, created.id));
    const id = await datasetId(t, cookie, created.id, 'number_keys');
    const rows = async () => (await apiRows(t, cookie, id, 'v')).map((r) => [String(r.k), r.v]);
    const expected = [
      ['1234567890123456789012345678901234567890', 'big'],
      ['1', 'one b'],
      ['2.5', 'two'],
    ];
    expect(await rows()).toEqual(expected);
    t.clock.advance(60_000);
    expectCompleted(await syncNow(t, cookie, created.id));
    expect(await rows()).toEqual(expected);
  });
  it('Append without a key: boundary rows whose numeric column became exact text are not added twice', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie, 'number_events');
    await selectDatasets(t, cookie, created.id, {
      number_events: { syncType: 'Incremental', dataIngestionType: 'Append' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    await admin.query(
      `INSERT INTO number_events VALUES (1234567890123456789012345678901234567890, 'big', '2024-01-01 00:00:00+00')`,
    );
    const id = await datasetId(t, cookie, created.id, 'number_events');
    const rows = async () => (await apiRows(t, cookie, id, 'v')).map((r) => r.v);
    for (let sync = 0; sync < 2; sync++) {
      t.clock.advance(60_000);
      expectCompleted(await syncNow(t, cookie, created.id));
      expect(await rows()).toEqual(['big', 'one', 'two']);
    }
  });
});
