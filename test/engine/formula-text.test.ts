/**
 * TO_TEXT, & and CONCAT write a number as the grid shows it: the grid's own rendering of the value
 * (the server's JSON value of the cell, then the client's cell format, without its locale's digit
 * grouping) for integers of every width, big integers, DECIMALs, doubles, negative zero and the
 * non-finite doubles; and with every digit: the exact digits of integers and DECIMALs, the
 * shortest text that reads back as the same double.
 */
import {
  DuckDBInstance,
  type DuckDBConnection,
  type DuckDBInstance as Instance,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCell } from '../../src/client/components/data-grid/format-cell';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { compileFormula, type FormulaScope } from '../../src/engine/formula';
import { renderSelect } from '../../src/engine/render';
import type { SelectStatement } from '../../src/engine/sql-ast';
import { toJsonValue } from '../../src/server/warehouse/json-values';

let instance: Instance;
let connection: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

const scope: FormulaScope = {
  resolve: (key) => (key === 'v' ? { expr: { kind: 'column', name: 'v' }, type: 'Number' } : undefined),
};

/** Each formula that makes text of a number, and how its text relates to the number's own. */
const FORMULAS: [string, (text: string | null) => string | null][] = [
  ['TO_TEXT([v])', (text) => text],
  ["[v] & ''", (text) => text ?? ''],
  ['CONCAT([v])', (text) => text ?? ''],
  ["'<' & [v] & '>'", (text) => `<${text ?? ''}>`],
  ["CONCAT('n=', [v], ';')", (text) => `n=${text ?? ''};`],
];

let tables = 0;

/** Each value's raw DuckDB value and type, and what the formulas made of it. */
async function run(sqlType: string, literals: readonly string[]) {
  const name = `t${(tables += 1)}`;
  const values = literals.map(
    (literal, i) => `(${i}, ${literal === 'NULL' ? 'NULL' : `CAST(${literal} AS ${sqlType})`})`,
  );
  await connection.run(
    `CREATE TABLE ${name} (id INTEGER, v ${sqlType}); INSERT INTO ${name} VALUES ${values.join(', ')}`,
  );
  const items = FORMULAS.map(([formula], i) => ({ expr: compileFormula(formula, scope).expr, alias: `f${i}` }));
  const statement: SelectStatement = {
    kind: 'select',
    items: [{ expr: { kind: 'column', name: 'v' }, alias: null }, ...items],
    from: { kind: 'table', schema: 'main', name },
    where: null,
    orderBy: [{ expr: { kind: 'column', name: 'id' }, order: 'asc' }],
    limit: null,
    offset: null,
  };
  const { sql, parameters } = renderSelect(statement, duckdbDialect);
  const prepared = await connection.prepare(sql);
  prepared.bind([...parameters]);
  const reader = await prepared.runAndReadAll();
  const type = reader.columnTypes()[0]!;
  const rows = reader.getRows().map((row) => ({ value: row[0]!, texts: row.slice(1).map((t) => t as string | null) }));
  await connection.run(`DROP TABLE ${name}`);
  return { type, rows };
}

const grouping = new Intl.NumberFormat().formatToParts(1234567.5);
const GROUP = grouping.find((part) => part.type === 'group')?.value ?? ',';
const DECIMAL_POINT = grouping.find((part) => part.type === 'decimal')?.value ?? '.';

/**
 * The grid's text of a cell, without the locale's grouping (text data has none). The grid shows a
 * DECIMAL it gets as exact text (one a double would change) with its scale's trailing zeros, and
 * the same DECIMAL as a number without them; the number is the same either way.
 */
function gridText(value: DuckDBValue, type: DuckDBType): string | null {
  if (value === null) return null;
  const shown = formatCell(toJsonValue(value, type), 'Number').replaceAll(GROUP, '').replace(DECIMAL_POINT, '.');
  return shown.includes('.') && /^-?\d/.test(shown) ? shown.replace(/\.?0+$/, '') : shown;
}

/** A double's shortest round-trip digits (what JS and DuckDB print), written out without an exponent. */
function plainDouble(value: number): string {
  if (Object.is(value, -0)) return '0';
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, first, rest = '', exponentText] = match;
  const digits = `${first}${rest}`;
  const exponent = Number(exponentText);
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  return `${sign}${digits}${'0'.repeat(exponent + 1 - digits.length)}`;
}

/** `unscaled × 10^-scale` with every digit and no trailing fraction zeros. */
function plainExact(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const whole = scale === 0 ? digits : digits.slice(0, -scale);
  const fraction = scale === 0 ? '' : digits.slice(-scale).replace(/0+$/, '');
  return `${negative && (whole !== '0' || fraction !== '') ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function expectTexts(rows: Awaited<ReturnType<typeof run>>['rows'], expected: (string | null)[], label: string) {
  rows.forEach((row, i) => {
    FORMULAS.forEach(([formula, wrap], f) => {
      expect(row.texts[f], `${label} ${formula} of row ${i}`).toBe(wrap(expected[i] ?? null));
    });
  });
}

const exactType = (sqlType: string, min: bigint, max: bigint, scale: number) => ({ sqlType, min, max, scale });
const EXACT_TYPES = [
  exactType('TINYINT', -128n, 127n, 0),
  exactType('INTEGER', -(2n ** 31n), 2n ** 31n - 1n, 0),
  exactType('BIGINT', -(2n ** 63n), 2n ** 63n - 1n, 0),
  exactType('UBIGINT', 0n, 2n ** 64n - 1n, 0),
  exactType('HUGEINT', -(2n ** 127n), 2n ** 127n - 1n, 0),
  exactType('DECIMAL(10,2)', -(10n ** 10n - 1n), 10n ** 10n - 1n, 2),
  exactType('DECIMAL(20,6)', -(10n ** 20n - 1n), 10n ** 20n - 1n, 6),
  exactType('DECIMAL(38,10)', -(10n ** 38n - 1n), 10n ** 38n - 1n, 10),
  exactType('DECIMAL(38,0)', -(10n ** 38n - 1n), 10n ** 38n - 1n, 0),
];

describe('numbers of exact types as text', () => {
  it.each(EXACT_TYPES.map((type) => [type.sqlType, type] as const))('%s', async (_title, type) => {
    const two53 = 2n ** 53n * 10n ** BigInt(type.scale);
    const clamp = (n: bigint): bigint => (n < type.min ? type.min : n > type.max ? type.max : n);
    const digits = fc.oneof(
      fc.bigInt(type.min, type.max),
      fc.bigInt(-1000n, 1000n).map(clamp),
      fc.bigInt(-3n, 3n).map((d) => clamp(two53 + d)),
      fc.constantFrom(type.min, type.max, 0n),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(digits, { freq: 8 }), { minLength: 1, maxLength: 20 }), async (cells) => {
        const literals = cells.map((cell) => (cell === null ? 'NULL' : `'${plainExact(cell, type.scale)}'`));
        const { type: duckType, rows } = await run(type.sqlType, literals);
        const exact = cells.map((cell) => (cell === null ? null : plainExact(cell, type.scale)));
        expectTexts(rows, exact, type.sqlType);
        // The grid shows the same (it rounds fractions past 10 digits; these types have at most 10).
        expectTexts(
          rows,
          rows.map((row) => gridText(row.value, duckType)),
          `${type.sqlType} (grid)`,
        );
      }),
      { numRuns: 20 },
    );
  });
});

describe('doubles as text', () => {
  it('writes the shortest digits that read back as the double, without an exponent', async () => {
    const doubles = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000),
      fc.integer({ min: -400, max: 400 }).map((e) => Number(`1.5e${e}`)),
      fc.constantFrom(0, -0, 1e16, 1e17, 1e21, 1e-4, 1e-5, 2 ** 53, 2 ** 53 + 2, 42, 0.1 + 0.2, 1 / 3),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(doubles, { minLength: 1, maxLength: 30 }), async (values) => {
        // Each double as its exact shortest text, which DuckDB reads back to the very same double.
        const { rows } = await run(
          'DOUBLE',
          values.map((value) => `'${String(value)}'`),
        );
        expectTexts(rows, values.map(plainDouble), 'DOUBLE');
      }),
      { numRuns: 40 },
    );
  });

  it('matches the grid for every double the grid writes without an exponent (1e-20 up to 1e22)', async () => {
    // Past these the grid keeps the exponent (shared/number-text.ts) and TO_TEXT writes every zero.
    const shownPlain = (value: number): boolean => value === 0 || (Math.abs(value) >= 1e-20 && Math.abs(value) < 1e22);
    const doubles = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter(shownPlain),
      fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000),
      fc.integer({ min: -20, max: 21 }).map((e) => -Number(`1.25e${e}`)),
      fc.constantFrom(1e-20, 9.99e21, 2 ** -60, 0.1 + 0.2, 1.2345678901234568e-5),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(doubles, { minLength: 1, maxLength: 30 }), async (values) => {
        const { type, rows } = await run(
          'DOUBLE',
          values.map((value) => `'${String(value)}'`),
        );
        expectTexts(
          rows,
          rows.map((row) => gridText(row.value, type)),
          'DOUBLE (grid)',
        );
      }),
      { numRuns: 40 },
    );
  });

  it.each<[string, string]>([
    ['42', '42'],
    ['-42.0', '-42'],
    ['1e17', '100000000000000000'],
    ['-1e17', '-100000000000000000'],
    ['1.5e-7', '0.00000015'],
    ['-0.0', '0'],
    ['123456.789', '123456.789'],
    ['9007199254740993', '9007199254740992'],
    ["'inf'", 'Infinity'],
    ["'-inf'", '-Infinity'],
    ["'nan'", 'NaN'],
  ])('%s as text is %s, as the grid shows it', async (literal, expected) => {
    const { type, rows } = await run('DOUBLE', [literal]);
    expectTexts(rows, [expected], literal);
    expect(gridText(rows[0]!.value, type)).toBe(expected);
  });
});

describe('the number text in other places', () => {
  it('writes a REAL with its own shortest digits', async () => {
    const { rows } = await run('REAL', ['0.1', '1e10', '1.5e-5', '-2.5']);
    expectTexts(rows, ['0.1', '10000000000', '0.000015', '-2.5'], 'REAL');
  });

  it('keeps every digit of arithmetic on big integers and of big literals', async () => {
    expect(await evaluate('BIGINT', '9007199254740993', 'TO_TEXT([v] + 1)')).toBe('9007199254740994');
    expect(await evaluate('BIGINT', '9007199254740993', "IF([v] = 9007199254740993, 'same', 'other')")).toBe('same');
    expect(await evaluate('BIGINT', '9007199254740992', "IF([v] = 9007199254740993, 'same', 'other')")).toBe('other');
    expect(await evaluate('HUGEINT', '170141183460469231731687303715884105727', "'#' & [v]")).toBe(
      '#170141183460469231731687303715884105727',
    );
    expect(await evaluate('DECIMAL(38,10)', '-0.0000000001', 'CONCAT([v])')).toBe('-0.0000000001');
  });

  it('converts a Number column to Text as the grid shows it', async () => {
    expect(await evaluate('DOUBLE', '1e17', 'TO_TEXT([v])')).toBe('100000000000000000');
  });
});

/** One formula over a one-row table holding `literal` as `sqlType`. */
async function evaluate(sqlType: string, literal: string, formula: string): Promise<unknown> {
  const name = `t${(tables += 1)}`;
  await connection.run(`CREATE TABLE ${name} AS SELECT CAST('${literal}' AS ${sqlType}) AS v`);
  const statement: SelectStatement = {
    kind: 'select',
    items: [{ expr: compileFormula(formula, scope).expr, alias: 'f' }],
    from: { kind: 'table', schema: 'main', name },
    where: null,
    orderBy: [],
    limit: null,
    offset: null,
  };
  const { sql, parameters } = renderSelect(statement, duckdbDialect);
  const prepared = await connection.prepare(sql);
  prepared.bind([...parameters]);
  const value = (await prepared.runAndReadAll()).getRows()[0]![0];
  await connection.run(`DROP TABLE ${name}`);
  return value;
}
