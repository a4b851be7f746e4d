import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWarehouse } from '../../../src/server/warehouse/warehouse';
import { sql } from './helpers';

const ACCOUNT = '33333333-3333-4333-8333-333333333333';
// One warehouse for the many one-value queries of this file.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-wh-values-'));
const warehouse = createWarehouse({ dataDir, memoryLimit: '256MB', threads: 1, idleMs: 60_000 });
const executor = warehouse.forAccount(ACCOUNT);
afterAll(async () => {
  await warehouse.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** One row of `SELECT <expression> AS v`, converted. */
async function valueOf(expression: string): Promise<unknown> {
  const [row] = await executor.all(sql(`SELECT ${expression} AS v`));
  return row?.v;
}

describe('DuckDB values as JSON-safe values', () => {
  it.each([
    ['NULL', null],
    ['true', true],
    ['42::TINYINT', 42],
    ['-7::SMALLINT', -7],
    ['2147483647::INTEGER', 2147483647],
    ['4294967295::UINTEGER', 4294967295],
    ['1.5::FLOAT', 1.5],
    ['0.1::DOUBLE', 0.1],
    ["'NaN'::DOUBLE", 'NaN'],
    ["'-Infinity'::DOUBLE", '-Infinity'],
    // 64 bit and wider integers: numbers while exact, text beyond 2^53.
    ['9007199254740991::BIGINT', 9007199254740991],
    ['9007199254740993::BIGINT', '9007199254740993'],
    ["'-9223372036854775808'::BIGINT", '-9223372036854775808'],
    ['18446744073709551615::UBIGINT', '18446744073709551615'],
    ['12::UBIGINT', 12],
    ['170141183460469231731687303715884105727::HUGEINT', '170141183460469231731687303715884105727'],
    ['-5::HUGEINT', -5],
    ['1::UHUGEINT', 1],
    // Decimals: numbers when the double prints back the same, else the exact text.
    ['1.50::DECIMAL(18,3)', 1.5],
    ['-0.05::DECIMAL(4,2)', -0.05],
    ['123456789012.34::DECIMAL(18,2)', 123456789012.34],
    ['12345678901234567.89::DECIMAL(38,2)', '12345678901234567.89'],
    ['0.1234567890123456789::DECIMAL(38,19)', '0.1234567890123456789'],
    ['7::DECIMAL(10,0)', 7],
    ["'héllo'::VARCHAR", 'héllo'],
    ["'b'::ENUM('a', 'b')", 'b'],
    ["'550e8400-e29b-41d4-a716-446655440000'::UUID", '550e8400-e29b-41d4-a716-446655440000'],
    ["'\\xDE\\xAD'::BLOB", '3q0='],
    ["'ab'::BLOB", 'YWI='],
    ["'10110'::BIT", '10110'],
  ])('%s', async (expression, expected) => {
    expect(await valueOf(expression)).toEqual(expected);
  });

  it.each([
    ["DATE '2024-01-15'", '2024-01-15'],
    ["DATE '0044-03-15 (BC)'", '-000043-03-15'],
    ["DATE '12345-06-07'", '+012345-06-07'],
    ["'infinity'::DATE", 'infinity'],
    ["'-infinity'::DATE", '-infinity'],
    ["TIMESTAMP '2024-01-15 12:34:56'", '2024-01-15T12:34:56.000Z'],
    ["TIMESTAMP '2024-01-15 12:34:56.789'", '2024-01-15T12:34:56.789Z'],
    ["TIMESTAMP '2024-01-15 12:34:56.789123'", '2024-01-15T12:34:56.789123Z'],
    ["TIMESTAMP '1969-12-31 23:59:59.5'", '1969-12-31T23:59:59.500Z'],
    ["'infinity'::TIMESTAMP", 'infinity'],
    ["TIMESTAMP_S '2024-01-15 12:34:56'", '2024-01-15T12:34:56.000Z'],
    ["TIMESTAMP_MS '2024-01-15 12:34:56.789'", '2024-01-15T12:34:56.789Z'],
    ["TIMESTAMP_NS '2024-01-15 12:34:56.123456789'", '2024-01-15T12:34:56.123456789Z'],
    ["TIMESTAMP_NS '1969-12-31 23:59:59.999999999'", '1969-12-31T23:59:59.999999999Z'],
    // TIMESTAMPTZ is an instant: shown in UTC whatever offset it was written with.
    ["TIMESTAMPTZ '2024-01-15 12:34:56+02'", '2024-01-15T10:34:56.000Z'],
    ["TIME '12:34:56'", '12:34:56'],
    ["TIME '12:34:56.5'", '12:34:56.5'],
    ["TIME '00:00:00.000001'", '00:00:00.000001'],
    ["TIMETZ '12:34:56+05:30'", '12:34:56+05:30'],
    ["TIMETZ '01:02:03-08'", '01:02:03-08:00'],
    ["INTERVAL '1 year 2 months 3 days 04:05:06.5'", 'P1Y2M3DT4H5M6.5S'],
    ["INTERVAL '90 minutes'", 'PT1H30M'],
    ["INTERVAL '0 seconds'", 'PT0S'],
    ["INTERVAL '-2 days'", 'P-2D'],
    ["-INTERVAL '1 hour 30 seconds'", 'PT-1H-30S'],
  ])('%s', async (expression, expected) => {
    expect(await valueOf(expression)).toBe(expected);
  });

  it.each([
    ['[1, 2, NULL]', [1, 2, null]],
    ['[]::INTEGER[]', []],
    ["[DATE '2024-01-01', NULL]", ['2024-01-01', null]],
    ['[[1, 2], [3]]', [[1, 2], [3]]],
    ['[9007199254740993::BIGINT]', ['9007199254740993']],
    ['[1.25, 2.5]::DECIMAL(5,2)[2]', [1.25, 2.5]],
    [
      "{'a': 1, 'b': [TIMESTAMP '2024-01-01 00:00:00'], 'c': {'d': NULL}}",
      { a: 1, b: ['2024-01-01T00:00:00.000Z'], c: { d: null } },
    ],
    ["MAP {'k': 1, 'l': 2}", { k: 1, l: 2 }],
    ['MAP {1: true}', { '1': true }],
    ['\'{"x": [1, {"y": null}], "z": "t"}\'::JSON', { x: [1, { y: null }], z: 't' }],
    ["'[1,2]'::JSON", [1, 2]],
    ['[\'{"a":1}\'::JSON]', [{ a: 1 }]],
    ["{'j': '{\"n\": 2}'::JSON}", { j: { n: 2 } }],
    ['union_value(num := 2)::UNION(num INTEGER, str VARCHAR)', 2],
  ])('%s', async (expression, expected) => {
    expect(await valueOf(expression)).toEqual(expected);
  });

  it('converts streamed rows the same way', async () => {
    const chunks: unknown[] = [];
    const query = sql("SELECT 9007199254740993::BIGINT AS big, DATE '2024-02-29' AS d, 1.5::DECIMAL(9,2) AS n");
    for await (const chunk of executor.stream(query)) chunks.push(...chunk);
    expect(chunks).toEqual([{ big: '9007199254740993', d: '2024-02-29', n: 1.5 }]);
  });
});

describe('names that are special to JavaScript objects', () => {
  // (A STRUCT field of that name is lost inside @duckdb/node-api before it reaches us.)
  it('keep a column or map key called __proto__ as an own property', async () => {
    const [row] = await executor.all(sql(`SELECT 1 AS "__proto__", MAP {'__proto__': 4} AS m, 5 AS x`));
    expect(Object.keys(row ?? {})).toEqual(['__proto__', 'm', 'x']);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(1);
    expect(JSON.parse(JSON.stringify(row))).toEqual(JSON.parse('{"__proto__": 1, "m": {"__proto__": 4}, "x": 5}'));
  });
});
