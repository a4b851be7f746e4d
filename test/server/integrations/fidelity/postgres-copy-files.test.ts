/**
 * The files PostgreSQL's COPY writes are read in COPY's own CSV dialect, never a guessed one (a real
 * PostgreSQL through the app): one-column tables whose values hold ';', '|' or a tab, or sit in
 * single quotes, keep every row and every character, also when the copy is split in files; a
 * value longer than DuckDB's default line (2 MB) arrives whole; a row longer than the bound stops
 * the sync with a log line that names the bound and does not quote the value; a file that reads
 * as another count of rows than the source wrote stops the sync (and the files' rows are checked
 * against COPY's own count).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT } from '../../../../src/server/modules/integrations/connectors/formats';
import {
  createStaging,
  dropStaging,
  ensureSchema,
  stageFile,
} from '../../../../src/server/modules/integrations/staging';
import { makeApp, signIn, type TestApp } from '../../helpers';
import { api, expectCompleted, ok, selectDatasets, syncNow, type Integration } from '../helpers';
import { adminClient, findPostgresBin, startPostgres, type PostgresPeer } from '../peers/postgres';
import { postgresIntegration } from './postgres-integration';
import { apiRows, downloadRows, type Row } from './exports';

const bin = findPostgresBin();

/** One-column tables whose values a sniffer would take for another dialect, and PostgreSQL's text of them. */
const ONE_COLUMN: Record<string, string[]> = {
  semicolons: ['https://x.test/?a=1;b=2', 'https://y.test/?c=3;d=4', 'k=5;v=6'],
  pipes: ['a|b', 'c|d|e', '|'],
  tabs: ['a\tb', 'c\td', '\t'],
  single_quotes: ["'a'", "'it''s'", "''"],
  // Line ends and quotes inside values: the copy is split between rows, never inside a value.
  line_ends: ['a\nb', '"quoted"\nline', '\n', 'end\r\n', '""', ','],
  // Split in files of 2 rows: some files hold only values with ';', others none.
  mixed: ['plain 1', 'plain 2', 'k=1;v=2', 'k=3;v=4', 'k=5;v=6', 'k=7;v=8', 'plain 3'],
};

describe.skipIf(!bin)('PostgreSQL COPY files read in their own dialect', () => {
  let peer: PostgresPeer;
  let admin: pg.Client;

  beforeAll(async () => {
    peer = await startPostgres();
    admin = await adminClient(peer);
    for (const [table, values] of Object.entries(ONE_COLUMN)) {
      await admin.query(`CREATE TABLE ${table} (v text)`);
      for (const value of values) await admin.query(`INSERT INTO ${table} VALUES ($1)`, [value]);
    }
    await admin.query(`
      CREATE TABLE long_text (id int PRIMARY KEY, t text);
      INSERT INTO long_text VALUES (1, repeat('y', 3000000) || ';' || repeat('y', 10)), (2, 'x');
      CREATE TABLE too_long (id int PRIMARY KEY, t text);
      INSERT INTO too_long VALUES (1, 'short'), (2, repeat('z', 65 * 1024 * 1024));`);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await peer?.stop();
  });

  async function synced(t: TestApp, cookie: string, schema: string, datasets: string[]) {
    const integration = await postgresIntegration(t, cookie, peer, {
      name: schema,
      configuration: { rows_per_file: 2 },
    });
    await selectDatasets(
      t,
      cookie,
      integration.id,
      Object.fromEntries(datasets.map((d) => [d, { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' }])),
    );
    const run = await syncNow(t, cookie, integration.id);
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    const ids = new Map(detail.datasets.map((d) => [d.name, d.id]));
    return { run, ids };
  }

  /** PostgreSQL's own text of a column, in the order of `orderBy`. */
  async function sourceText(table: string, column: string, orderBy: string): Promise<string[]> {
    const { rows } = await admin.query<Row>({
      text: `SELECT ${column}::text AS v FROM ${table} ORDER BY ${orderBy}`,
      types: { getTypeParser: () => (v: string) => v },
    });
    return rows.map((r) => r.v as string);
  }

  it("one-column tables whose values hold ';', '|', a tab or single quotes keep every row and character", async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const { run, ids } = await synced(t, cookie, 'dialect', Object.keys(ONE_COLUMN));
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([]);
    // Compared as sorted lists: PostgreSQL's collation and the warehouse's order need not agree.
    const sorted = (values: unknown[]) => values.map(String).sort();
    for (const table of Object.keys(ONE_COLUMN)) {
      const source = sorted(await sourceText(table, 'v', 'v'));
      expect(source.length, table).toBe(ONE_COLUMN[table]?.length);
      expect(run.logs, table).toContain(`[INFO] ${table}: Copied ${source.length} rows of ${table}`);
      const id = ids.get(table) as string;
      const viaApi = await apiRows(t, cookie, id, 'v');
      expect(sorted(viaApi.map((r) => r.v)), `${table} via the tables API`).toEqual(source);
      const csv = await downloadRows(t, cookie, id, 'csv', 'v', { v: 'VARCHAR' });
      expect(sorted(csv.map((r) => r.v)), `${table} via the CSV download`).toEqual(source);
    }
  });

  it('a value longer than 2 MB arrives whole', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const { run, ids } = await synced(t, cookie, 'long', ['long_text']);
    expectCompleted(run);
    const source = await sourceText('long_text', 't', 'id');
    const id = ids.get('long_text') as string;
    expect((await apiRows(t, cookie, id, 'id')).map((r) => r.t)).toEqual(source);
    const csv = await downloadRows(t, cookie, id, 'csv', 'id', { id: 'INTEGER', t: 'VARCHAR' });
    expect(csv.map((r) => r.t)).toEqual(source);
  });

  it('a row longer than the bound stops the sync; the log names the bound and does not quote the value', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const { run } = await synced(t, cookie, 'toolong', ['too_long']);
    expect(run.status).toBe('Failed');
    const errors = run.logs.filter((l) => l.startsWith('[ERROR] too_long:'));
    expect(errors).toEqual([
      `[ERROR] too_long: SystemError: A file could not be read at its line 3: it is ${65 * 1024 * 1024 + 2} bytes long, ` +
        `and a line is read up to ${64 * 1024 * 1024} bytes. Its previous data is unchanged.`,
    ]);
    expect(run.logs.join('\n')).not.toContain('zzzz');
  }, 60_000);

  it('a copied file that reads as another count of rows than the source wrote stops the sync', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const executor = t.deps.warehouse.forAccount('count-check');
    await mkdir(executor.scratchDir, { recursive: true });
    const dir = await mkdtemp(path.join(executor.scratchDir, 'copy-count-'));
    try {
      const file = path.join(dir, 'rows.csv');
      await writeFile(file, 'v\na\n"b\nc"\n');
      await ensureSchema(executor, 'counted');
      const columns = [{ name: 'v', field: 'v', format: TEXT, onMisfit: 'refuse' as const }];
      const staging = await createStaging(executor, 'counted', 'rows', columns);
      const copied = { path: file, format: 'csv' as const, canonical: true, columns: ['v'] };
      await expect(stageFile(executor, staging, { ...copied, rows: 3 })).rejects.toThrow(
        'The source wrote 3 rows into a copied file, but 2 were read from it.',
      );
      expect(await stageFile(executor, staging, { ...copied, rows: 2 })).toBe(2);
      await dropStaging(executor, staging);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
