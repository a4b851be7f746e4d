/**
 * One SFTP dataset of several files whose columns differ: discovery reads the newest file, so an
 * older file's column no property names has no column to land in. Its values are not stored, and
 * the run log says so (naming the column and its count) instead of dropping them silently, in
 * each file format.
 */
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDuckDb } from '../../../engine/duckdb';
import { makeApp, signIn } from '../../helpers';
import { api, expectCompleted, ok, selectDatasets, syncNow, type Integration } from '../helpers';
import { startSftp, type SftpPeer } from '../peers/sftp';
import { sftpIntegration } from './sftp-integration';
import { apiRows } from './exports';

const FORMATS = ['csv', 'jsonl', 'parquet'] as const;

describe('SFTP files whose columns differ from the discovered ones', () => {
  let peer: SftpPeer;

  beforeAll(async () => {
    peer = await startSftp();
    const db = await openTestDuckDb();
    try {
      for (const format of FORMATS) {
        const dir = path.join(peer.root, format);
        await mkdir(dir);
        // The older file has `b` (two rows, one of them null), the newer one `c` instead.
        const older = path.join(dir, `orders_1.${format}`);
        const newer = path.join(dir, `orders_2.${format}`);
        if (format === 'parquet') {
          await db.exec(`COPY (SELECT * FROM (VALUES (1, 'old'), (3, NULL)) t(a, b)) TO '${older}' (FORMAT parquet)`);
          await db.exec(`COPY (SELECT 2 AS a, 'new' AS c) TO '${newer}' (FORMAT parquet)`);
        } else if (format === 'csv') {
          await writeFile(older, 'a,b\n1,old\n3,\n');
          await writeFile(newer, 'a,c\n2,new\n');
        } else {
          await writeFile(older, '{"a":1,"b":"old"}\n{"a":3,"b":null}\n');
          await writeFile(newer, '{"a":2,"c":"new"}\n');
        }
        await utimes(older, 1_700_000_000, 1_700_000_000);
        await utimes(newer, 1_700_000_100, 1_700_000_100);
      }
    } finally {
      db.close();
    }
  });
  afterAll(() => peer?.close());

  for (const format of FORMATS) {
    it(`${format}: the older file's extra column is named in a [WARN], every other value lands`, async () => {
      const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
      const cookie = await signIn(t, 'owner@example.com');
      const created = await sftpIntegration(t, cookie, peer, {
        name: format,
        folder: `/${format}`,
        pattern: `*.${format}`,
        format: format,
      });
      await selectDatasets(t, cookie, created.id, {
        orders: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
      });
      const run = await syncNow(t, cookie, created.id);
      expectCompleted(run);
      expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
        "[WARN] orders: File columns the discovery did not see are not stored: b (2 records). Discovery reads each dataset's newest file: refresh the datasets once it has them.",
      ]);
      const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
      const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'a');
      expect(rows.map((r) => [r.a, r.c])).toEqual([
        [1, null],
        [2, 'new'],
        [3, null],
      ]);
    });
  }
});
