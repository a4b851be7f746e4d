/**
 * Every formula function and operator run on DuckDB over the fixture table, results checked per
 * row against values worked out here (by hand for dates, by JavaScript for text and numbers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderForDisplay } from '../../src/engine/display';
import type { ColumnType } from '../../src/shared/tables';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { createFixture } from './fixture';
import { compile, selectFormula } from './formula-helpers';

/** The fixture's rows (fixture.ts) in JavaScript, for expectations computed from the data. */
const ROWS: { name: string | null; amount: number | null; qty: number | null; active: boolean | null }[] = [
  { name: 'Alice', amount: 10.5, qty: 3, active: true },
  { name: 'bob', amount: -3, qty: 7, active: false },
  { name: 'Ünïcödé 漢字 😀', amount: 0, qty: 0, active: null },
  { name: '', amount: null, qty: null, active: true },
  { name: null, amount: 1_000_000, qty: 4_000_000_000, active: false },
  { name: "O'Brien; DROP TABLE static.t_fixture; --", amount: 2.25, qty: 100, active: true },
  { name: '100% _sure_', amount: 100, qty: -5, active: false },
  { name: 'ALICE', amount: 7, qty: 12, active: true },
];
type Row = (typeof ROWS)[number];

/** Applies `f` to the row's values, null when any of them is null (SQL's rule for most functions). */
function strict<K extends keyof Row>(keys: K[], f: (...values: NonNullable<Row[K]>[]) => unknown): unknown[] {
  return ROWS.map((row) => {
    const values = keys.map((key) => row[key]);
    return values.some((value) => value === null) ? null : f(...(values as NonNullable<Row[K]>[]));
  });
}

/** SQL's AND and OR, where null means unknown. */
function and3(a: boolean | null, b: boolean | null): boolean | null {
  if (a === false || b === false) return false;
  return a === null || b === null ? null : true;
}
function or3(a: boolean | null, b: boolean | null): boolean | null {
  if (a === true || b === true) return true;
  return a === null || b === null ? null : false;
}

/** DuckDB's text of a DOUBLE: whole values keep one decimal (`-3.0`). */
/** A number as the grid shows it (no `.0`, no exponent for these values), which text joins write. */
const numberText = (value: number): string => String(value);

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await createFixture(db);
});

afterAll(() => db.close());

/** DuckDB's JSON form of BIGINT/DECIMAL is text: numbers become numbers again. */
function normalise(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  return type === 'Number' ? Number(value) : value;
}

/** The formula's value on each fixture row (in `_row_id` order), also checked through Show SQL. */
async function evaluate(formula: string): Promise<unknown[]> {
  const { type } = compile(formula);
  const compiled = selectFormula(formula);
  const rows = (await db.all(compiled)).map((row) => normalise(row['v'], type));
  const shown = (await db.rows(renderForDisplay(compiled))).map((row) => normalise(row['v'], type));
  expect(shown).toEqual(rows);
  return rows;
}

/** The value of a formula without columns. */
async function value(formula: string): Promise<unknown> {
  return (await evaluate(formula))[0];
}

describe('formulas on the fixture rows', () => {
  it.each<[string, unknown[]]>([
    ['[amount] + [qty]', strict(['amount', 'qty'], (a, q) => a + q)],
    ['[amount] - [qty] * 2', strict(['amount', 'qty'], (a, q) => a - q * 2)],
    ['-[amount]', strict(['amount'], (a) => -a)],
    ['[qty] / [amount]', strict(['qty', 'amount'], (q, a) => (a === 0 ? null : q / a))],
    ['[qty] % 4', strict(['qty'], (q) => q % 4)],
    ['MOD([qty], [amount])', strict(['qty', 'amount'], (q, a) => (a === 0 ? null : q % a))],
    ["[name] & '|' & [qty]", ROWS.map((r) => `${r.name ?? ''}|${r.qty ?? ''}`)],
    [
      'CONCAT([active], [amount])',
      ROWS.map((r) => `${r.active ?? ''}${r.amount === null ? '' : numberText(r.amount)}`),
    ],
    ['UPPER([name])', strict(['name'], (n) => n.toUpperCase())],
    ['LOWER([name])', strict(['name'], (n) => n.toLowerCase())],
    ['LENGTH([name])', strict(['name'], (n) => [...n].length)],
    ['LEFT([name], 3)', strict(['name'], (n) => [...n].slice(0, 3).join(''))],
    ['RIGHT([name], 2)', strict(['name'], (n) => [...n].slice(-2).join(''))],
    ['SUBSTRING([name], 2, 3)', strict(['name'], (n) => [...n].slice(1, 4).join(''))],
    ['SUBSTRING([name], 3)', strict(['name'], (n) => [...n].slice(2).join(''))],
    ["REPLACE([name], 'l', 'L')", strict(['name'], (n) => n.replaceAll('l', 'L'))],
    ["CONTAINS([name], 'ALI')", strict(['name'], (n) => n.toLowerCase().includes('ali'))],
    ["STARTS_WITH([name], 'al')", strict(['name'], (n) => n.toLowerCase().startsWith('al'))],
    ["ENDS_WITH([name], 'CE')", strict(['name'], (n) => n.toLowerCase().endsWith('ce'))],
    ["SPLIT_PART([name], ' ', 2)", strict(['name'], (n) => n.split(' ')[1] ?? '')],
    ["TRIM(' ' & [name] & '  ')", ROWS.map((r) => r.name ?? '')],
    ['ABS([qty])', strict(['qty'], (q) => Math.abs(q))],
    ['ROUND([amount] / 4, 1)', strict(['amount'], (a) => (Math.sign(a / 4) * Math.round(Math.abs(a / 4) * 10)) / 10)],
    ['ROUND([amount])', strict(['amount'], (a) => Math.sign(a) * Math.round(Math.abs(a)))],
    ['FLOOR([amount] / 4)', strict(['amount'], (a) => Math.floor(a / 4))],
    ['CEIL([amount] / 4)', strict(['amount'], (a) => Math.ceil(a / 4))],
    ['POWER([qty], 2)', strict(['qty'], (q) => q ** 2)],
    ['SQRT([amount])', strict(['amount'], (a) => (a < 0 ? null : Math.sqrt(a)))],
    ['LEAST([amount], [qty], 5)', ROWS.map((r) => Math.min(...[r.amount, r.qty, 5].filter((v) => v !== null)))],
    ['GREATEST([amount], [qty])', ROWS.map((r) => (r.amount === null ? null : Math.max(r.amount, r.qty!)))],
    ["IF([active], 'yes', 'no')", ROWS.map((r) => (r.active ? 'yes' : 'no'))],
    ["CASE([qty] > 50, 'big', [qty] > 0, 'small')", strict(['qty'], (q) => (q > 50 ? 'big' : q > 0 ? 'small' : null))],
    ["CASE([qty] > 50, 'big', 'other')", ROWS.map((r) => (r.qty !== null && r.qty > 50 ? 'big' : 'other'))],
    ['COALESCE([amount], [qty], -1)', ROWS.map((r) => r.amount ?? r.qty ?? -1)],
    ['ISBLANK([name])', ROWS.map((r) => r.name === null || r.name === '')],
    ['ISBLANK([active])', ROWS.map((r) => r.active === null)],
    ['NOT [active]', strict(['active'], (a) => !a)],
    ['[active] AND [amount] > 5', ROWS.map((r) => and3(r.active, r.amount === null ? null : r.amount > 5))],
    ['[active] OR [qty] < 0', ROWS.map((r) => or3(r.active, r.qty === null ? null : r.qty < 0))],
    ["[name] = 'bob'", strict(['name'], (n) => n === 'bob')],
    ["[name] != 'bob'", strict(['name'], (n) => n !== 'bob')],
    ['[amount] >= 7', strict(['amount'], (a) => a >= 7)],
    ['[active] = FALSE', strict(['active'], (a) => a === false)],
    ['TO_TEXT([qty])', strict(['qty'], (q) => String(q))],
    ['TO_NUMBER([name])', ROWS.map(() => null)],
    ["TO_NUMBER(SPLIT_PART([name], '%', 1))", [null, null, null, null, null, null, 100, null]],
    ['TO_NUMBER([active])', strict(['active'], (a) => (a ? 1 : 0))],
    ['TO_BOOLEAN([qty])', strict(['qty'], (q) => q !== 0)],
    ['TO_TEXT([tags])', ['red, blue', '', 'Green', null, 'red', "it's, a;b", '100%', 'ALICE, bob']],
    ['ISBLANK([tags])', [false, true, false, true, false, false, false, false]],
    ['ISBLANK([meta])', [false, false, true, true, false, false, false, false]],
    ['ISBLANK([point])', [false, true, false, true, true, true, true, true]],
  ])('%s', async (formula, expected) => {
    expect(await evaluate(formula)).toEqual(expected);
  });
});

describe('date formulas on the fixture rows', () => {
  // born: 1990-01-15, 1985-12-31, 2000-02-29, NULL, 2024-03-01, 1970-01-01, 2024-02-29, 2099-12-31
  it.each<[string, unknown[]]>([
    ['YEAR([born])', [1990, 1985, 2000, null, 2024, 1970, 2024, 2099]],
    ['MONTH([born])', [1, 12, 2, null, 3, 1, 2, 12]],
    ['DAY([born])', [15, 31, 29, null, 1, 1, 29, 31]],
    ['QUARTER([born])', [1, 4, 1, null, 1, 1, 1, 4]],
    // 1990-01-15 Mon, 1985-12-31 Tue, 2000-02-29 Tue, 2024-03-01 Fri, 1970-01-01 Thu, 2024-02-29 Thu, 2099-12-31 Thu
    ['WEEKDAY([born])', [1, 2, 2, null, 5, 4, 4, 4]],
    ['HOUR([seen])', [10, 23, 0, null, 23, 12, 0, 0]],
    [
      "DATE_TRUNC('month', [born])",
      ['1990-01-01', '1985-12-01', '2000-02-01', null, '2024-03-01', '1970-01-01', '2024-02-01', '2099-12-01'],
    ],
    [
      "DATE_TRUNC('week', [born])",
      ['1990-01-15', '1985-12-30', '2000-02-28', null, '2024-02-26', '1969-12-29', '2024-02-26', '2099-12-28'],
    ],
    [
      "DATE_TRUNC('quarter', [seen])",
      [
        '2024-01-01 00:00:00',
        '2024-01-01 00:00:00',
        '2024-01-01 00:00:00',
        null,
        '2024-01-01 00:00:00',
        '2023-10-01 00:00:00',
        '2024-01-01 00:00:00',
        '2025-01-01 00:00:00',
      ],
    ],
    [
      "DATE_ADD([born], 1, 'month')",
      ['1990-02-15', '1986-01-31', '2000-03-29', null, '2024-04-01', '1970-02-01', '2024-03-29', '2100-01-31'],
    ],
    [
      "DATE_ADD([born], -1, 'year')",
      ['1989-01-15', '1984-12-31', '1999-02-28', null, '2023-03-01', '1969-01-01', '2023-02-28', '2098-12-31'],
    ],
    [
      "DATE_ADD([seen], 90, 'minute')",
      [
        '2024-03-01 11:30:00',
        '2024-03-02 01:29:59.999',
        '2024-03-02 01:30:00',
        null,
        '2024-03-01 00:30:00',
        '2023-12-31 14:00:00.123456',
        '2024-03-01 01:30:00',
        '2025-01-01 01:30:00',
      ],
    ],
    ["DATE_ADD([born], 2, 'week') = DATE_ADD([born], 14, 'day')", [true, true, true, null, true, true, true, true]],
    ["DATE_DIFF('day', [born], DATE(2024, 3, 1))", [12464, 13940, 8767, null, 0, 19783, 1, -27698]],
    ["DATE_DIFF('month', [born], [seen])", [410, 459, 289, null, -1, 647, 1, -899]],
    [
      'TO_DATE([seen])',
      ['2024-03-01', '2024-03-01', '2024-03-02', null, '2024-02-29', '2023-12-31', '2024-03-01', '2025-01-01'],
    ],
    ['[born] < [seen]', [true, true, true, null, false, true, true, false]],
    ['TO_DATETIME([born]) = [seen]', [false, false, false, null, false, false, false, false]],
  ])('%s', async (formula, expected) => {
    expect(await evaluate(formula)).toEqual(expected);
  });
});

describe('formulas without columns', () => {
  it.each<[string, unknown]>([
    ['7 / 2', 3.5],
    ['1 / 0', null],
    ['0 / 0', null],
    ['7 % 0', null],
    ['MOD(-7, 3)', -1],
    ['-7 % 3', -1],
    ['2 - 3 - 4', -5],
    ['2 * (3 + 4)', 14],
    ['SQRT(-4)', null],
    ['SQRT(16)', 4],
    ['POWER(2, 10)', 1024],
    ['ROUND(2.5)', 3],
    ['ROUND(-2.5)', -3],
    ['ROUND(1234.5678, -2)', 1200],
    ['LEAST(3, NULL, 1)', 1],
    ["GREATEST('apple', 'pear')", 'pear'],
    ['1 + NULL', null],
    ["'a' & NULL & 'b'", 'ab'],
    ['CONCAT(NULL)', ''],
    ['\'it\'\'s\' & " ""ok"""', 'it\'s "ok"'],
    ['NULL', null],
    ['IF(NULL, 1, 2)', 2],
    ['IF(TRUE, NULL, 2)', null],
    ['CASE(FALSE, 1)', null],
    ['COALESCE(NULL, NULL, 3)', 3],
    ['ISBLANK(NULL)', true],
    ["ISBLANK('')", true],
    ["ISBLANK(' ')", false],
    ['NOT NULL', null],
    ['TRUE AND NULL', null],
    ['FALSE AND NULL', false],
    ['TRUE OR NULL', true],
    ["'abc' < 'abd'", true],
    ["'B' = 'b'", false],
    ["CONTAINS('Hello', NULL)", null],
    ["LENGTH('漢字😀')", 3],
    ["SPLIT_PART('a,b,c', ',', 5)", ''],
    ["TO_NUMBER('abc')", null],
    ["TO_NUMBER(' 12.5 ')", 12.5],
    ["TO_NUMBER('1e3')", 1000],
    ["TO_NUMBER('')", null],
    ["TO_DATE('2024-13-01')", null],
    ["TO_DATE('2024-02-29')", '2024-02-29'],
    ["TO_DATETIME('2024-02-29 13:45:00')", '2024-02-29 13:45:00'],
    ["TO_DATETIME('soon')", null],
    ["TO_BOOLEAN('true')", true],
    ["TO_BOOLEAN('no')", false],
    ["TO_BOOLEAN('maybe')", null],
    ['TO_BOOLEAN(0.5)', true],
    ['TO_TEXT(TRUE)', 'true'],
    ['TO_TEXT(DATE(2024, 1, 5))', '2024-01-05'],
    ['DATE(2024, 2, 29)', '2024-02-29'],
    ['DATE(2023, 2, 29)', null],
    ['DATE(2024, 13, 1)', null],
    ["DATE_ADD(DATE(2024, 1, 31), 1, 'month')", '2024-02-29'],
    ["DATE_ADD(DATE(2024, 1, 31), 1, 'hour')", '2024-01-31 01:00:00'],
    ["DATE_DIFF('year', DATE(2024, 12, 31), DATE(2025, 1, 1))", 1],
    ["DATE_DIFF('day', NULL, NULL)", null],
    ["DATE_TRUNC('year', TO_DATETIME('2024-05-06 07:08:09'))", '2024-01-01 00:00:00'],
    ["DATE_TRUNC('second', TO_DATETIME('2024-05-06 07:08:09.5'))", '2024-05-06 07:08:09'],
    ["DATE_DIFF('day', TODAY(), TO_DATE(NOW()))", 0],
    ['YEAR(TODAY()) >= 2024', true],
    // Counts and digits that do not fit a whole number give null, not an error.
    ["LEFT('abc', 1e18 * 100)", null],
    ['ROUND(2.5, 1e10)', null],
    ['TO_BOOLEAN(NULL)', null],
  ])('%s', async (formula, expected) => {
    expect(await value(formula)).toEqual(expected);
  });
});
