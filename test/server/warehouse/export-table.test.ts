import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exportTable } from '../../../src/server/warehouse/export-table';
import { makeWarehouse, scratchOf, sleep, sql } from './helpers';

const ACCOUNT = '66666666-6666-4666-8666-666666666666';

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

async function setup() {
  const { warehouse } = makeWarehouse();
  const executor = warehouse.forAccount(ACCOUNT);
  await executor.run(`CREATE SCHEMA static; CREATE TABLE static.t_9 AS
    SELECT range::INTEGER AS id, 'name ' || range AS "full name", range * 1.5 AS score,
           DATE '2024-01-01' + range::INTEGER AS day, [range, range + 1] AS pair
    FROM range(3)`);
  return executor;
}

describe('table export', () => {
  it('streams a table as CSV with a header, and removes its scratch file once read', async () => {
    const executor = await setup();
    const stream = await exportTable(executor, { schema: 'static', table: 't_9' }, 'csv');
    expect(fs.readdirSync(executor.tempDir)).toHaveLength(1);
    const text = (await readAll(stream)).toString('utf8');
    expect(text).toBe(
      [
        'id,full name,score,day,pair',
        '0,name 0,0.0,2024-01-01,"[0, 1]"',
        '1,name 1,1.5,2024-01-02,"[1, 2]"',
        '2,name 2,3.0,2024-01-03,"[2, 3]"',
        '',
      ].join('\n'),
    );
    await sleep(20);
    expect(fs.readdirSync(executor.tempDir)).toEqual([]);
  });

  it('exports Parquet that DuckDB reads back with the same rows and types', async () => {
    const executor = await setup();
    const stream = await exportTable(executor, { schema: 'static', table: 't_9' }, 'parquet');
    const bytes = await readAll(stream);
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    const file = path.join(scratchOf(executor), 'copy.parquet');
    fs.writeFileSync(file, bytes);
    const back = await executor.query(sql('SELECT * FROM read_parquet($1) ORDER BY id', file));
    expect(back.columns.map((c) => [c.name, c.sqlType])).toEqual([
      ['id', 'INTEGER'],
      ['full name', 'VARCHAR'],
      ['score', 'DECIMAL(21,1)'],
      ['day', 'DATE'],
      ['pair', 'BIGINT[]'],
    ]);
    expect(back.rows).toEqual(await executor.all(sql('SELECT * FROM static.t_9 ORDER BY id')));
  });

  it('exports a compiled query with its parameters (the grid’s filters and sort)', async () => {
    const executor = await setup();
    const query = sql('SELECT id, "full name" FROM static.t_9 WHERE id >= $1 ORDER BY id DESC', 1);
    const text = (await readAll(await exportTable(executor, query, 'csv'))).toString('utf8');
    expect(text).toBe('id,full name\n2,name 2\n1,name 1\n');
  });

  it('removes the scratch file when the reader gives up early, and when the export fails', async () => {
    const executor = await setup();
    await executor.run('CREATE TABLE static.big AS SELECT range AS n, md5(range::VARCHAR) AS h FROM range(200000)');
    const stream = await exportTable(executor, { schema: 'static', table: 'big' }, 'csv');
    for await (const part of stream) {
      expect((part as Buffer).length).toBeGreaterThan(0);
      break;
    }
    await sleep(20);
    expect(fs.readdirSync(executor.tempDir)).toEqual([]);

    await expect(exportTable(executor, { schema: 'static', table: 'missing' }, 'csv')).rejects.toThrow(/missing/);
    expect(fs.readdirSync(executor.tempDir)).toEqual([]);
  });

  it('quotes table names, so a name cannot break out of the statement', async () => {
    const executor = await setup();
    await executor.run(`CREATE TABLE static."we""ird; DROP TABLE static.t_9; --" AS SELECT 1 AS x`);
    const text = (
      await readAll(
        await exportTable(executor, { schema: 'static', table: 'we"ird; DROP TABLE static.t_9; --' }, 'csv'),
      )
    ).toString();
    expect(text).toBe('x\n1\n');
    expect(await executor.all(sql('SELECT count(*)::INTEGER AS n FROM static.t_9'))).toEqual([{ n: 3 }]);
  });
});
