/**
 * Nested Parquet values (structs, maps, lists of structs) are stored as JSON. A double's NaN or
 * ±Infinity inside one has no JSON spelling (DuckDB writes a bare NaN, which no JSON reader
 * accepts): such a column is kept as the exact text of its values, with a [WARN] naming it and the
 * count, instead of a JSON column whose cells are not JSON (the tables API answered them as strings).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDuckDb } from '../../../engine/duckdb';
import { makeApp, signIn } from '../../helpers';
import { api, expectCompleted, ok, selectDatasets, syncNow, type Integration } from '../helpers';
import { startSftp, type SftpPeer } from '../peers/sftp';
import { sftpIntegration } from './sftp-integration';
import { apiRows, warehouseTypes } from './exports';

describe('nested Parquet values', () => {
  let peer: SftpPeer;

  beforeAll(async () => {
    peer = await startSftp();
    const dir = path.join(peer.root, 'data');
    await mkdir(dir);
    const db = await openTestDuckDb();
    try {
      await db.exec(
        `COPY (SELECT i AS id, {'u': 18446744073709551615::UBIGINT, 'x': CASE i WHEN 1 THEN 'nan'::DOUBLE ` +
          `WHEN 2 THEN '-inf'::DOUBLE ELSE 1.5 END} AS reading, MAP {'k': 9007199254740993::BIGINT} AS tags, ` +
          // Words in text are no bare NaN: this struct stays JSON.
          `{'s': 'x:NaN,[Infinity]'} AS note ` +
          `FROM range(4) t(i)) TO '${path.join(dir, 'nested.parquet')}' (FORMAT parquet)`,
      );
    } finally {
      db.close();
    }
  });
  afterAll(() => peer?.close());

  it('a struct holding NaN or -Infinity is exact text with a warning; other nested values are JSON', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await sftpIntegration(t, cookie, peer, {
      name: 'nested',
      folder: '/data',
      pattern: '*.parquet',
      format: 'parquet',
    });
    await selectDatasets(t, cookie, created.id, {
      nested: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await syncNow(t, cookie, created.id);
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] nested: Column reading: 2 values do not fit json; it is stored as exact text (discovered as json).',
    ]);
    const { account_id: accountId } = await t.deps.db
      .selectFrom('integrations')
      .select('account_id')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(await warehouseTypes(t, String(accountId), 'nested', 'nested')).toEqual({
      id: 'BIGINT',
      reading: 'VARCHAR',
      tags: 'JSON',
      note: 'JSON',
    });
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'id');
    expect(rows.map((r) => [r.id, r.reading])).toEqual([
      [0, '{"u":18446744073709551615,"x":1.5}'],
      [1, '{"u":18446744073709551615,"x":NaN}'],
      [2, '{"u":18446744073709551615,"x":-Infinity}'],
      [3, '{"u":18446744073709551615,"x":1.5}'],
    ]);
    // A JSON cell keeps every digit (the tables API sends a number past 2^53 as its text).
    expect(rows.map((r) => r.tags)).toEqual(Array.from({ length: 4 }, () => ({ k: '9007199254740993' })));
    expect(rows.map((r) => r.note)).toEqual(Array.from({ length: 4 }, () => ({ s: 'x:NaN,[Infinity]' })));
  });
});
