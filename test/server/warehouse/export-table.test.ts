import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportTable } from '../../../src/server/warehouse/export-table';
import { parseCsv } from '../tables/export-compare';
import { makeWarehouse, scratchOf, sql } from './helpers';

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
        '0,name 0,0,2024-01-01,"[0,1]"',
        '1,name 1,1.5,2024-01-02,"[1,2]"',
        '2,name 2,3,2024-01-03,"[2,3]"',
        '',
      ].join('\n'),
    );
    // The file goes when the stream closes, a moment after the reader lets go (longer on a busy machine).
    await expect.poll(() => fs.readdirSync(executor.tempDir)).toEqual([]);
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

  it('writes numbers exactly as the grid answers them: integers without .0, big integers and decimals in full', async () => {
    const executor = await setup();
    await executor.run(`CREATE TABLE static.n AS SELECT * FROM (VALUES
      (1, 3804::DOUBLE, 3804.00::DECIMAL(10,2), 9223372036854775807::BIGINT, 170141183460469231731687303715884105727::HUGEINT,
          99999999999999.999999::DECIMAL(20,6), 1e17::DOUBLE, 0.000123::DOUBLE, '\\xAA\\x00'::BLOB),
      (2, -0.5::DOUBLE, 204142800000.079190::DECIMAL(20,6), (-9223372036854775807 - 1)::BIGINT, -1::HUGEINT,
          0.000001::DECIMAL(20,6), 1e-7::DOUBLE, NULL, NULL)
    ) AS v(id, d, dec, big, huge, exact, large, small, bytes)`);
    const text = (
      await readAll(await exportTable(executor, sql('SELECT * FROM static.n ORDER BY id'), 'csv'))
    ).toString();
    // 204142800000.079190 is more than a double holds: the grid has its exact text, the scale's zero too.
    expect(text.split('\n')).toEqual([
      'id,d,dec,big,huge,exact,large,small,bytes',
      '1,3804,3804,9223372036854775807,170141183460469231731687303715884105727,99999999999999.999999,100000000000000000,0.000123,qgA=',
      '2,-0.5,204142800000.079190,-9223372036854775808,-1,0.000001,1e-7,,',
      '',
    ]);
  });

  it('keeps the query’s order when it rewrites cells, also over many rows and threads', async () => {
    const executor = await setup();
    await executor.run(
      'CREATE TABLE static.r AS SELECT range AS id, hash(range) % 1000003 / 7.0::DOUBLE AS x FROM range(300000)',
    );
    const query = sql('SELECT id, x FROM static.r ORDER BY x DESC, id');
    const text = (await readAll(await exportTable(executor, query, 'csv'))).toString();
    const ids = text
      .split('\n')
      .slice(1, -1)
      .map((line) => Number(line.split(',')[0]));
    const expected = (await executor.all(sql('SELECT id FROM static.r ORDER BY x DESC, id'))).map((row) => row.id);
    expect(ids).toEqual(expected);
  });

  it('keeps every column type in Parquet; 128-bit integers as DECIMAL(38,0), exact', async () => {
    const executor = await setup();
    await executor.run(`CREATE TABLE static.p AS SELECT
      12345678901234567890123456789012345678::HUGEINT AS huge, 1234567890123456789::BIGINT AS big,
      99999999999999.999999::DECIMAL(20,6) AS dec, DATE '2024-01-31' AS day, 3804::DOUBLE AS d`);
    const bytes = await readAll(await exportTable(executor, { schema: 'static', table: 'p' }, 'parquet'));
    const file = path.join(scratchOf(executor), 'p.parquet');
    fs.writeFileSync(file, bytes);
    const back = await executor.query(sql('SELECT * FROM read_parquet($1)', file));
    expect(back.columns.map((c) => [c.name, c.sqlType])).toEqual([
      ['huge', 'DECIMAL(38,0)'],
      ['big', 'BIGINT'],
      ['dec', 'DECIMAL(20,6)'],
      ['day', 'DATE'],
      ['d', 'DOUBLE'],
    ]);
    expect(back.rows).toEqual([
      {
        huge: '12345678901234567890123456789012345678',
        big: '1234567890123456789',
        dec: '99999999999999.999999',
        day: '2024-01-31',
        d: 3804,
      },
    ]);
  });

  it('removes the scratch file when the reader gives up early, and when the export fails', async () => {
    const executor = await setup();
    await executor.run('CREATE TABLE static.big AS SELECT range AS n, md5(range::VARCHAR) AS h FROM range(200000)');
    const stream = await exportTable(executor, { schema: 'static', table: 'big' }, 'csv');
    for await (const part of stream) {
      expect((part as Buffer).length).toBeGreaterThan(0);
      break;
    }
    // The file goes when the stream closes, a moment after the reader lets go (longer on a busy machine).
    await expect.poll(() => fs.readdirSync(executor.tempDir)).toEqual([]);

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

  it('writes lists, structs and maps as JSON text in CSV, and FLOAT by its own shortest digits', async () => {
    const executor = await setup();
    await executor.run(`CREATE TABLE static.nested AS SELECT
      ['a', 'b, "c"', NULL] AS words, {'k': 12345678901234567890::HUGEINT, 'd': DATE '2024-01-02'} AS thing,
      MAP {'x': 1} AS lookup, 0.1::FLOAT AS ratio`);
    const text = (await readAll(await exportTable(executor, { schema: 'static', table: 'nested' }, 'csv'))).toString();
    const [header, row] = text.split('\n');
    expect(header).toBe('words,thing,lookup,ratio');
    // The cells, unquoted from CSV, are JSON that reads back as the values.
    const cells = [...(row ?? '').matchAll(/"((?:[^"]|"")*)"|([^,]+)/g)].map((m) => m[1]?.replace(/""/g, '"') ?? m[2]);
    expect(JSON.parse(cells[0] ?? '')).toEqual(['a', 'b, "c"', null]);
    expect(cells[1]).toBe('{"k":12345678901234567890,"d":"2024-01-02"}');
    expect(JSON.parse(cells[2] ?? '')).toEqual({ x: 1 });
    expect(cells[3]).toBe('0.1');
  });

  it('writes intervals and times with a zone to Parquet as the grid shows them: a negative interval, the offset kept', async () => {
    const executor = await setup();
    await executor.run(`CREATE TABLE static.spans AS SELECT * FROM (VALUES
      (1, INTERVAL '-1 year 2 days 3 hours', TIMETZ '10:00:00+05:30', [INTERVAL '-3 days']),
      (2, NULL, NULL, NULL)) AS v(id, span, zoned, spans)`);
    const bytes = await readAll(await exportTable(executor, sql('SELECT * FROM static.spans ORDER BY id'), 'parquet'));
    const file = path.join(scratchOf(executor), 'spans.parquet');
    fs.writeFileSync(file, bytes);
    const back = await executor.query(sql('SELECT * FROM read_parquet($1) ORDER BY id', file));
    expect(back.columns.map((c) => c.sqlType)).toEqual(['INTEGER', 'VARCHAR', 'VARCHAR', 'VARCHAR[]']);
    expect(back.rows).toEqual([
      { id: 1, span: 'P-1Y2DT3H', zoned: '10:00:00+05:30', spans: ['P-3D'] },
      { id: 2, span: null, zoned: null, spans: null },
    ]);
    // The grid's own text of the same values.
    expect(back.rows).toEqual(await executor.all(sql('SELECT * FROM static.spans ORDER BY id')));
  });

  it('writes intervals and times with a zone to CSV as the grid shows them, in lists too', async () => {
    const executor = await setup();
    await executor.run(`CREATE TABLE static.spans AS SELECT * FROM (VALUES
      (1, INTERVAL '1 year 2 months 3 days 04:05:06.5', TIMETZ '10:00:00+05', [INTERVAL '-3 days', NULL], [TIMETZ '01:02:03-08']),
      (2, INTERVAL '0 seconds', TIMETZ '23:59:59.999999+05:30', [], NULL),
      (3, -INTERVAL '1 hour 30 seconds', NULL, NULL, [])) AS v(id, span, zoned, spans, zones)`);
    const query = sql('SELECT span, zoned, spans, zones FROM static.spans ORDER BY id');
    const text = (await readAll(await exportTable(executor, query, 'csv'))).toString();
    const cells = parseCsv(text)
      .slice(1)
      .map((record) => record.map((cell) => cell.text));
    expect(cells.map((row) => row.slice(0, 4))).toEqual([
      ['P1Y2M3DT4H5M6.5S', '10:00:00+05:00', '["P-3D",null]', '["01:02:03-08:00"]'],
      ['PT0S', '23:59:59.999999+05:30', '[]', ''],
      ['PT-1H-30S', '', '', '[]'],
    ]);
    const grid = await executor.all(query);
    expect(grid.map((row) => [row.span, row.zoned])).toEqual(cells.map((row) => [row[0], row[1] || null]));
    expect(grid.map((row) => row.spans)).toEqual([['P-3D', null], [], null]);
  });

  it('writes every FLOAT as the grid shows it, for any float', { timeout: 180_000 }, async () => {
    const executor = await setup();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 40 }),
        async (floats) => {
          await executor.run('CREATE OR REPLACE TABLE static.f (i INTEGER, f FLOAT)');
          await executor.run(`INSERT INTO static.f SELECT unnest($1::INTEGER[]), unnest($2::FLOAT[])`, [
            JSON.stringify(floats.map((_, i) => i)),
            JSON.stringify(floats.map((f) => (Object.is(f, -0) ? 0 : f))),
          ]);
          const query = sql('SELECT f FROM static.f ORDER BY i');
          const text = (await readAll(await exportTable(executor, query, 'csv'))).toString();
          const grid = (await executor.all(query)).map((row) => String(row.f));
          expect(text.split('\n').slice(1, -1)).toEqual(grid);
        },
      ),
      {
        numRuns: 40,
        examples: [
          [[42080232, 0]],
          [[40509872, 0]],
          [[192115.625]],
          // The largest floats (infinity is their neighbour), the smallest normal and subnormal ones.
          [[3.4028234663852886e38, -3.4028234663852886e38, 1.1754943508222875e-38, 1.401298464324817e-45]],
        ],
      },
    );
  });
});
