/**
 * Formulas over exact numbers (BIGINT past 2^53, DECIMAL(38,6)) keep every digit, run on DuckDB:
 * NULL branches, rounding functions, literals. Values are compared as text, the SQL type by
 * `typeof`, and every query also through Show SQL (values inlined).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderForDisplay } from '../../src/engine/display';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { compileFormula, type FormulaScope } from '../../src/engine/formula';
import { renderSelect } from '../../src/engine/render';
import type { CompiledQuery } from '../../src/engine/sql';
import type { SelectStatement } from '../../src/engine/sql-ast';
import type { ColumnType } from '../../src/shared/tables';
import { openTestDuckDb, type TestDuckDb } from './duckdb';

const COLUMNS: Record<string, ColumnType> = { id: 'Number', big: 'Number', dec: 'Number', dbl: 'Number', d: 'Date' };

const scope: FormulaScope = {
  resolve: (key) => {
    const type = COLUMNS[key];
    return type && { expr: { kind: 'column', name: key }, type };
  },
};

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await db.exec(`
    CREATE SCHEMA static;
    CREATE TABLE static.t_exact (id INTEGER, big BIGINT, dec DECIMAL(38,6), dbl DOUBLE, d DATE);
    INSERT INTO static.t_exact VALUES
      (1, 9007199254740993, 99999999999999.999999, 2.5, '2024-01-07'),
      (2, 9223372036854775807, 0.1, -2.5, '2023-12-31'),
      (3, -9223372036854775808, 0.2, -0.25, '2000-01-01'),
      (4, 1, 0.3, 1e300, '2024-01-08'),
      (5, -7, -2.75, 'inf', '2024-03-01');
  `);
});

afterAll(() => db.close());

function select(formula: string): CompiledQuery {
  const statement: SelectStatement = {
    kind: 'select',
    items: [
      { expr: { kind: 'column', name: 'id' }, alias: null },
      { expr: compileFormula(formula, scope).expr, alias: 'v' },
    ],
    from: { kind: 'table', schema: 'static', name: 't_exact' },
    where: null,
    orderBy: [{ expr: { kind: 'column', name: 'id' }, order: 'asc' }],
    limit: null,
    offset: null,
  };
  return renderSelect(statement, duckdbDialect);
}

/** The formula's value per row (id order) as text, checked to be the same through Show SQL. */
async function texts(formula: string): Promise<(string | null)[]> {
  const compiled = select(formula);
  const wrap = (sql: string): string => `SELECT CAST(v AS VARCHAR) AS v FROM (${sql}) ORDER BY id`;
  const run = await db.all({ sql: wrap(compiled.sql), parameters: compiled.parameters });
  const shown = await db.rows(wrap(renderForDisplay(compiled)));
  const values = run.map((row) => row['v'] as string | null);
  expect(shown.map((row) => row['v'])).toEqual(values);
  return values;
}

/** The SQL type DuckDB gives the formula's result. */
async function sqlType(formula: string): Promise<string> {
  const compiled = select(formula);
  const rows = await db.all({
    sql: `SELECT typeof(v) AS t FROM (${compiled.sql}) LIMIT 1`,
    parameters: compiled.parameters,
  });
  return rows[0]!['t'] as string;
}

describe('a NULL takes the type of the values it meets', () => {
  it.each([
    ['COALESCE([big], NULL)', 'BIGINT'],
    ['COALESCE(NULL, [big])', 'BIGINT'],
    ['COALESCE(NULL, [dec])', 'DECIMAL(38,6)'],
    ['IF([id] = 1, [big], NULL)', 'BIGINT'],
    ['IF([id] = 1, NULL, [big])', 'BIGINT'],
    ['CASE([id] = 1, [big], NULL)', 'BIGINT'],
    ['CASE([id] = 1, NULL, [id] = 2, [dec])', 'DECIMAL(38,6)'],
    ['LEAST([big], NULL)', 'BIGINT'],
    ['GREATEST(NULL, [dec], NULL)', 'DECIMAL(38,6)'],
    ['NULL + [big]', 'BIGINT'],
    ['[dec] - NULL', 'DECIMAL(38,6)'],
    ['MOD(NULL, [big])', 'BIGINT'],
    ['MOD([dec], NULL)', 'DECIMAL(38,6)'],
  ])('%s is a %s', async (formula, type) => {
    expect(await sqlType(formula)).toBe(type);
  });

  it('keeps every digit', async () => {
    expect((await texts('COALESCE([big], NULL)'))[0]).toBe('9007199254740993');
    expect((await texts('IF(ISBLANK([big]), NULL, [big])'))[0]).toBe('9007199254740993');
    expect((await texts('TO_TEXT(COALESCE(NULL, [big]))'))[0]).toBe('9007199254740993');
    expect((await texts('COALESCE(NULL, [dec])'))[0]).toBe('99999999999999.999999');
    expect((await texts('LEAST(NULL, [big])'))[1]).toBe('9223372036854775807');
    expect(await texts('IF([id] = 1, NULL, [big])')).toEqual([
      null,
      '9223372036854775807',
      '-9223372036854775808',
      '1',
      '-7',
    ]);
  });

  it('a NULL alone still has a type', async () => {
    expect(await texts('COALESCE(NULL, NULL)')).toEqual([null, null, null, null, null]);
    expect(await texts('NULL + NULL')).toEqual([null, null, null, null, null]);
    expect(await texts('IF([id] = 1, DATE(2024, 1, 1), NULL)')).toEqual(['2024-01-01', null, null, null, null]);
  });
});

describe('rounding keeps whole numbers whole and exact', () => {
  it('FLOOR and CEIL of a BIGINT or DECIMAL do not pass through a double', async () => {
    expect(await texts('FLOOR([big])')).toEqual([
      '9007199254740993',
      '9223372036854775807',
      '-9223372036854775808',
      '1',
      '-7',
    ]);
    expect((await texts('CEIL([big])'))[0]).toBe('9007199254740993');
    expect(await texts('FLOOR([dec])')).toEqual(['99999999999999', '0', '0', '0', '-3']);
    expect(await texts('CEIL([dec])')).toEqual(['100000000000000', '1', '1', '1', '-2']);
    expect(await sqlType('FLOOR([dec])')).toBe('DECIMAL(38,0)');
  });

  it('ROUND of a BIGINT to tens never wraps past its range', async () => {
    expect(await texts('ROUND([big], -1)')).toEqual([
      '9007199254740990',
      '9223372036854775810',
      '-9223372036854775810',
      '0',
      '-10',
    ]);
    expect((await texts('ROUND([big], 0 - 1)'))[1]).toBe('9223372036854775810');
    expect((await texts('ROUND([big], IF(TRUE, -1, 0))'))[2]).toBe('-9223372036854775810');
    expect((await texts('ROUND([big])'))[0]).toBe('9007199254740993');
    expect((await texts('ROUND([big], 2)'))[0]).toBe('9007199254740993');
    expect(await texts('ROUND([dec], 1)')).toEqual(['100000000000000.0', '0.1', '0.2', '0.3', '-2.8']);
  });

  it('ABS of the smallest BIGINT is exact instead of an overflow', async () => {
    expect((await texts('ABS([big])'))[2]).toBe('9223372036854775808');
  });

  it('doubles round as before', async () => {
    expect(await texts('FLOOR([dbl])')).toEqual(['2.0', '-3.0', '-1.0', '1e+300', 'inf']);
    expect(await texts('CEIL([dbl])')).toEqual(['3.0', '-2.0', '-0.0', '1e+300', 'inf']);
    expect(await texts('ROUND([dbl])')).toEqual(['3.0', '-3.0', '-0.0', '1e+300', 'inf']);
    expect(await texts('ROUND([dbl], 1)')).toEqual(['2.5', '-2.5', '-0.3', '1e+300', 'inf']);
    expect(await sqlType('ROUND([dbl], 1)')).toBe('DOUBLE');
  });
});

describe('number literals are exact', () => {
  it('a whole literal past 2^53 keeps its digits', async () => {
    expect((await texts('[big] - 9007199254740992'))[0]).toBe('1');
    expect((await texts('TO_TEXT(9007199254740993)'))[0]).toBe('9007199254740993');
    expect((await texts('TO_TEXT(-9223372036854775808)'))[0]).toBe('-9223372036854775808');
    expect((await texts('TO_TEXT(123456789012345678901234567890)'))[0]).toBe('123456789012345678901234567890');
    expect((await texts('[big] + 10000000000000000000'))[1]).toBe('19223372036854775807');
  });

  it('a decimal literal keeps its digits', async () => {
    expect(await texts('[dec] > 99999999999999.99999')).toEqual(['true', 'false', 'false', 'false', 'false']);
    expect(await texts('MOD([dec], 0.1)')).toEqual(['0.099999', '0.000000', '0.000000', '0.000000', '-0.050000']);
    expect((await texts('TO_TEXT(0.1 + 0.2)'))[0]).toBe('0.3');
    expect((await texts('TO_TEXT(12345678901234567.8901)'))[0]).toBe('12345678901234567.8901');
  });

  it('next to a DOUBLE a literal is that double, and exponents stay approximate', async () => {
    expect(await sqlType('[dbl] * 1.2')).toBe('DOUBLE');
    expect((await texts('[dbl] * 1.2'))[0]).toBe('3.0');
    expect(await sqlType('1e18 * 100')).toBe('DOUBLE');
    expect((await texts('TO_TEXT(1 / 3)'))[0]).toBe('0.3333333333333333');
    expect((await texts('TO_TEXT(42)'))[0]).toBe('42');
  });
});

describe('DATE_DIFF counts grain boundaries', () => {
  it.each([
    ["DATE_DIFF('week', DATE(2024, 1, 7), DATE(2024, 1, 8))", '1'],
    ["DATE_DIFF('week', DATE(2024, 1, 8), DATE(2024, 1, 7))", '-1'],
    ["DATE_DIFF('week', DATE(2024, 1, 8), DATE(2024, 1, 14))", '0'],
    ["DATE_DIFF('week', DATE(2023, 12, 31), DATE(2024, 3, 1))", '9'],
    ["DATE_DIFF('week', TO_DATETIME('2024-01-07 23:59:59'), TO_DATETIME('2024-01-08 00:00:00'))", '1'],
    ["DATE_DIFF('week', DATE(2024, 1, 7), TO_DATETIME('2024-01-08 00:00:01'))", '1'],
    ["DATE_DIFF('day', TO_DATETIME('2024-01-01 23:00:00'), TO_DATETIME('2024-01-02 01:00:00'))", '1'],
    ["DATE_DIFF('month', DATE(2024, 1, 31), DATE(2024, 2, 1))", '1'],
    ["DATE_DIFF('quarter', DATE(2024, 3, 31), DATE(2024, 4, 1))", '1'],
    ["DATE_DIFF('year', DATE(2023, 12, 31), DATE(2024, 1, 1))", '1'],
    ["DATE_DIFF('hour', TO_DATETIME('2024-01-01 00:59:00'), TO_DATETIME('2024-01-01 01:00:00'))", '1'],
    ["DATE_DIFF('minute', TO_DATETIME('2024-01-01 00:00:59'), TO_DATETIME('2024-01-01 00:01:00'))", '1'],
    ["DATE_DIFF('second', TO_DATETIME('2024-01-01 00:00:00.9'), TO_DATETIME('2024-01-01 00:00:01'))", '1'],
  ])('%s is %s', async (formula, expected) => {
    expect((await texts(formula))[0]).toBe(expected);
  });

  it('between a column and a date', async () => {
    expect(await texts("DATE_DIFF('week', [d], DATE(2024, 1, 8))")).toEqual(['1', '2', '1254', '0', '-7']);
  });
});

describe('dates and date-times read from text', () => {
  it.each([
    ["TO_DATETIME('2024-01-01T10:00:00+05:00')", '2024-01-01 05:00:00'],
    ["TO_DATETIME('2024-01-01 10:00:00-03:30')", '2024-01-01 13:30:00'],
    ["TO_DATETIME('2024-01-01T10:00:00+0530')", '2024-01-01 04:30:00'],
    ["TO_DATETIME('2024-01-01T02:00:00+05')", '2023-12-31 21:00:00'],
    ["TO_DATETIME('2024-01-01T10:00:00.5+05:00')", '2024-01-01 05:00:00.5'],
    ["TO_DATETIME('2024-01-01T10:00:00Z')", '2024-01-01 10:00:00'],
    ["TO_DATETIME('2024-01-01 10:00:00')", '2024-01-01 10:00:00'],
    ["TO_DATETIME('2024-01-01')", '2024-01-01 00:00:00'],
    ["TO_DATETIME('2024-01-01T10:00:00.123456')", '2024-01-01 10:00:00.123456'],
    ["TO_DATETIME('2024-01-01T10:00:00.1234560')", '2024-01-01 10:00:00.123456'],
    ["TO_DATETIME('2024-01-01T10:00:00.1234567')", null],
    ["TO_DATETIME('2024-01-01T10:00:00.1234567+01:00')", null],
    ["TO_DATETIME('0044-03-15 10:00:00 BC')", '0044-03-15 (BC) 10:00:00'],
    ["TO_DATETIME('nope')", null],
    ["TO_DATE('0044-03-15 BC')", '0044-03-15 (BC)'],
    ["TO_DATE('0001-01-01 BC')", '0001-01-01 (BC)'],
    ["TO_DATE('0044-03-15')", '0044-03-15'],
    ["TO_DATE('2024-01-01T23:00:00-05:00')", '2024-01-01'],
    ["TO_DATE('x BC')", null],
  ])('%s is %s', async (formula, expected) => {
    expect((await texts(formula))[0]).toBe(expected);
  });

  it('a column of text', async () => {
    expect(await texts("TO_DATETIME(TO_TEXT([d]) & 'T10:00:00+05:00')")).toEqual([
      '2024-01-07 05:00:00',
      '2023-12-31 05:00:00',
      '2000-01-01 05:00:00',
      '2024-01-08 05:00:00',
      '2024-03-01 05:00:00',
    ]);
  });
});

describe('numbers read from text', () => {
  it.each([
    ["TO_NUMBER('12.5')", '12.5'],
    ["TO_NUMBER(' -12.5 ')", '-12.5'],
    ["TO_NUMBER('+5')", '5.0'],
    ["TO_NUMBER('1e3')", '1000.0'],
    ["TO_NUMBER('1E-2')", '0.01'],
    ["TO_NUMBER('.5')", '0.5'],
    ["TO_NUMBER('Infinity')", 'inf'],
    ["TO_NUMBER('-Infinity')", '-inf'],
    ["TO_NUMBER('NaN')", 'nan'],
    ["TO_NUMBER('1_000')", null],
    ["TO_NUMBER('inf')", null],
    ["TO_NUMBER('nan')", null],
    ["TO_NUMBER('0x10')", null],
    ["TO_NUMBER('1,5')", null],
    ["TO_NUMBER('abc')", null],
    ["TO_NUMBER('')", null],
  ])('%s is %s', async (formula, expected) => {
    expect((await texts(formula))[0]).toBe(expected);
  });

  it('reads a number shown as text back', async () => {
    expect(await texts('TO_NUMBER(TO_TEXT([dec]))')).toEqual(['100000000000000.0', '0.1', '0.2', '0.3', '-2.75']);
    expect(await texts('TO_NUMBER(TO_TEXT([dbl]))')).toEqual(['2.5', '-2.5', '-0.25', '1e+300', 'inf']);
  });
});

describe('literals with many fraction digits', () => {
  it('are doubles past 18 digits after the point, so a BIGINT or DECIMAL next to them cannot overflow', async () => {
    expect(await sqlType('[dec] + 0.1234567890123456789012345678901')).toBe('DOUBLE');
    expect(await texts('[big] > 0.1234567890123456789012345678901')).toEqual([
      'true',
      'true',
      'false',
      'true',
      'false',
    ]);
    expect(await sqlType('[big] + 0.123456789012345678')).toBe('DECIMAL(38,18)');
    expect((await texts('[big] + 0.123456789012345678'))[1]).toBe('9223372036854775807.123456789012345678');
  });
});
