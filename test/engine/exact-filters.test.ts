/**
 * Filters on exact numeric columns (INTEGER .. UHUGEINT, DECIMALs) compare exactly: random cells and
 * random values (as text, or as JSON numbers where a double holds them), many of them differing
 * only past 2^53 or past the column's scale, or beyond its range, checked against BigInt
 * arithmetic. Then the SQL and bound values of each kind of value, and the rows they select.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderForDisplay } from '../../src/engine/display';
import type { FilterSpec, RelationColumn, TableQuery } from '../../src/engine/ir';
import { compileCountQuery, compilePageQuery } from '../../src/engine/table-query';
import type { FilterOperator } from '../../src/shared/tables';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { EXACT_COLUMNS, passes, text, type Exact, type ExactColumn } from './exact-number-fixture';

let db: TestDuckDb;
beforeAll(async () => {
  db = await openTestDuckDb();
  await db.exec('CREATE SCHEMA data');
});
afterAll(() => db.close());

const TWO_53 = 2n ** 53n;
const clamp = (value: bigint, column: ExactColumn): bigint =>
  value < column.min ? column.min : value > column.max ? column.max : value;

/** Cells near the places doubles lose digits, near zero, at the type's ends, and anywhere. */
function cellDigits(column: ExactColumn): fc.Arbitrary<bigint> {
  const unit = 10n ** BigInt(column.scale);
  const near = (center: bigint) => fc.bigInt(-3n, 3n).map((delta) => clamp(center + delta, column));
  return fc.oneof(
    near(TWO_53 * unit),
    near(-TWO_53 * unit),
    near(TWO_53),
    near(0n),
    near(column.max),
    near(column.min),
    fc.bigInt(column.min, column.max),
  );
}

/** A filter value derived from a cell: itself, one step or a fraction of a step away, or far out. */
function valueNear(column: ExactColumn, cells: readonly (bigint | null)[]): fc.Arbitrary<Exact> {
  const present = cells.filter((cell): cell is bigint => cell !== null);
  const base = present.length > 0 ? fc.constantFrom(...present) : fc.constant(0n);
  return fc.oneof(
    base.map((unscaled) => ({ unscaled, scale: column.scale })),
    fc
      .tuple(base, fc.bigInt(-2n, 2n))
      .map(([unscaled, delta]) => ({ unscaled: unscaled + delta, scale: column.scale })),
    // Between two of the column's values (more fraction digits than it has).
    fc.tuple(base, fc.bigInt(-9n, 9n), fc.integer({ min: 1, max: 3 })).map(([unscaled, delta, extra]) => ({
      unscaled: unscaled * 10n ** BigInt(extra) + delta,
      scale: column.scale + extra,
    })),
    // Past either end of the type.
    fc.bigInt(1n, 10n ** 45n).map((extra) => ({ unscaled: column.max + extra, scale: column.scale })),
    fc.bigInt(1n, 10n ** 45n).map((extra) => ({ unscaled: column.min - extra, scale: column.scale })),
    fc.bigInt(-(10n ** 40n), 10n ** 40n).map((unscaled) => ({ unscaled, scale: 0 })),
  );
}

/** As the client sends it: text, or a JSON number when that number is the very same value. */
function asSent(value: Exact): fc.Arbitrary<string | number> {
  const written = text(value);
  const number = Number(written);
  const exactAsNumber = Number.isFinite(number) && sameValue(String(number), written);
  return exactAsNumber ? fc.constantFrom(written, number, ` ${written} `) : fc.constantFrom(written, ` ${written}`);
}

function sameValue(a: string, b: string): boolean {
  const parse = (s: string): Exact => {
    const match = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(s.trim())!;
    const fraction = match[3] ?? '';
    const exponent = Number(match[4] ?? 0);
    let unscaled = BigInt(`${match[2] || '0'}${fraction}`);
    let scale = fraction.length - exponent;
    if (scale < 0) {
      unscaled *= 10n ** BigInt(-scale);
      scale = 0;
    }
    return { unscaled: match[1] === '-' ? -unscaled : unscaled, scale };
  };
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  return x.unscaled * 10n ** BigInt(scale - x.scale) === y.unscaled * 10n ** BigInt(scale - y.scale);
}

const OPERATORS: FilterOperator[] = [
  'Equals',
  'NotEquals',
  'GreaterThan',
  'GreaterThanOrEquals',
  'LessThan',
  'LessThanOrEquals',
  'Between',
  'Exists',
  'Empty',
];

let tables = 0;

describe('filters on exact numeric columns, against BigInt arithmetic', () => {
  it.each(EXACT_COLUMNS.map((column) => [column.sqlType, column] as const))('%s', async (_title, column) => {
    const relationColumn: RelationColumn = { columnKey: 'v', type: 'Number', sqlType: column.sqlType };
    const scenario = fc
      .array(fc.option(cellDigits(column), { freq: 6 }), { minLength: 1, maxLength: 12 })
      .chain((cells) =>
        fc.tuple(
          fc.constant(cells),
          fc.array(
            fc.record({
              operator: fc.constantFrom(...OPERATORS),
              value: valueNear(column, cells).chain((v) => fc.tuple(fc.constant(v), asSent(v))),
              value2: valueNear(column, cells).chain((v) => fc.tuple(fc.constant(v), asSent(v))),
            }),
            { minLength: 1, maxLength: 6 },
          ),
        ),
      );
    await fc.assert(
      fc.asyncProperty(scenario, async ([cells, filters]) => {
        const name = `t${(tables += 1)}`;
        const rows = cells.map(
          (cell, i) =>
            `(${i + 1}, ${cell === null ? 'NULL' : `CAST('${text({ unscaled: cell, scale: column.scale })}' AS ${column.sqlType})`})`,
        );
        await db.exec(
          `CREATE TABLE data.${name} (id INTEGER, v ${column.sqlType}); INSERT INTO data.${name} VALUES ${rows.join(', ')}`,
        );
        for (const { operator, value, value2 } of filters) {
          const filter: FilterSpec = { columnKey: 'v', operator, value: value[1], value2: value2[1] };
          const query: TableQuery = {
            source: { kind: 'table', schema: 'data', name },
            columns: [relationColumn],
            rowKey: 'id',
            select: ['id'],
            filterGroups: [{ filters: [filter] }],
            sorting: [],
            page: { page: 1, pageSize: 100 },
          };
          const expected = cells.flatMap((cell, i) =>
            passes(cell === null ? null : { unscaled: cell, scale: column.scale }, operator, value[0], value2[0])
              ? [i + 1]
              : [],
          );
          const page = compilePageQuery(query);
          const label = `${operator} ${JSON.stringify(String(value[1]))} ${JSON.stringify(String(value2[1]))}`;
          expect(
            (await db.all(page)).map((row) => row['id']),
            label,
          ).toEqual(expected);
          // Show SQL (values inlined as literals) selects the same rows.
          const shown = await db.all({ sql: renderForDisplay(page), parameters: [] });
          expect(
            shown.map((row) => row['id']),
            label,
          ).toEqual(expected);
        }
        await db.exec(`DROP TABLE data.${name}`);
      }),
      { numRuns: 25 },
    );
  });
});

/** One table holding each kind of exact column, for the goldens. */
const COLUMNS: RelationColumn[] = [
  { columnKey: 'big', type: 'Number', sqlType: 'BIGINT' },
  { columnKey: 'huge', type: 'Number', sqlType: 'HUGEINT' },
  { columnKey: 'ubig', type: 'Number', sqlType: 'UBIGINT' },
  { columnKey: 'price', type: 'Number', sqlType: 'DECIMAL(20,6)' },
  { columnKey: 'cents', type: 'Number', sqlType: 'DECIMAL(10,2)' },
  { columnKey: 'ratio', type: 'Number', sqlType: 'DOUBLE' },
  { columnKey: 'score', type: 'Number', sqlType: 'REAL' },
  // A function column, say: its SQL type is not known.
  { columnKey: 'untyped', type: 'Number' },
];

const GOLDEN_SQL = `
CREATE TABLE data.golden (id INTEGER, big BIGINT, huge HUGEINT, ubig UBIGINT, price DECIMAL(20,6), cents DECIMAL(10,2),
  ratio DOUBLE, untyped BIGINT, score REAL);
INSERT INTO data.golden VALUES
  (1, 9007199254740992, 170141183460469231731687303715884105727, 18446744073709551615, 99999999999999.999999, 1.00, 0.5, 9007199254740992, 0.1),
  (2, 9007199254740993, -170141183460469231731687303715884105728, 0, 99999999999999.999998, 1.01, 1e17, 9007199254740993, 0.2),
  (3, 9007199254740994, 1, 9223372036854775808, 0.000001, 2.99, -0.0, 9007199254740994, 3.4e38),
  (4, -9223372036854775808, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (5, 9223372036854775807, 0, 1, -0.000001, -1.50, 2.5, -1, -2.5);
`;

interface Golden {
  filter: FilterSpec;
  where: string;
  parameters: unknown[];
  ids: number[];
}

const f = (columnKey: string, operator: FilterOperator, value?: string | number, value2?: string | number) => ({
  columnKey,
  operator,
  value,
  value2,
});

const GOLDEN: Golden[] = [
  // Values past 2^53 are bound with every digit: a BigInt, cast in the column's type.
  {
    filter: f('big', 'Equals', '9007199254740993'),
    where: '"big" = CAST($1 AS BIGINT)',
    parameters: [9007199254740993n],
    ids: [2],
  },
  {
    filter: f('big', 'GreaterThan', '9007199254740992'),
    where: '"big" > CAST($1 AS BIGINT)',
    // 2^53 is past the safe integers: a BigInt too.
    parameters: [9007199254740992n],
    ids: [2, 3, 5],
  },
  {
    filter: f('big', 'LessThan', ' 9007199254740994 '),
    where: '"big" < CAST($1 AS BIGINT)',
    parameters: [9007199254740994n],
    ids: [1, 2, 4],
  },
  {
    filter: f('big', 'Between', '9007199254740993', '9223372036854775807'),
    where: '("big" BETWEEN CAST($1 AS BIGINT) AND CAST($2 AS BIGINT))',
    parameters: [9007199254740993n, 9223372036854775807n],
    ids: [2, 3, 5],
  },
  // Between two whole numbers: Equals nothing, NotEquals everything, the others move to a neighbour.
  { filter: f('big', 'Equals', '9007199254740992.5'), where: 'FALSE', parameters: [], ids: [] },
  { filter: f('big', 'NotEquals', 1.5), where: 'TRUE', parameters: [], ids: [1, 2, 3, 4, 5] },
  {
    filter: f('big', 'GreaterThan', '9007199254740992.5'),
    where: '"big" >= CAST($1 AS BIGINT)',
    parameters: [9007199254740993n],
    ids: [2, 3, 5],
  },
  {
    filter: f('big', 'LessThanOrEquals', '-1.5'),
    where: '"big" < CAST($1 AS BIGINT)',
    parameters: [-1],
    ids: [4],
  },
  // Past the type's range: a constant, or "not empty".
  { filter: f('big', 'GreaterThan', '1e30'), where: 'FALSE', parameters: [], ids: [] },
  { filter: f('big', 'LessThan', 1e30), where: '"big" IS NOT NULL', parameters: [], ids: [1, 2, 3, 4, 5] },
  {
    filter: f('big', 'GreaterThanOrEquals', '-9223372036854775809'),
    where: '"big" IS NOT NULL',
    parameters: [],
    ids: [1, 2, 3, 4, 5],
  },
  { filter: f('big', 'Equals', '9223372036854775808'), where: 'FALSE', parameters: [], ids: [] },
  {
    filter: f('huge', 'Equals', '170141183460469231731687303715884105727'),
    where: '"huge" = CAST($1 AS HUGEINT)',
    parameters: [170141183460469231731687303715884105727n],
    ids: [1],
  },
  {
    filter: f('huge', 'LessThan', '-170141183460469231731687303715884105727'),
    where: '"huge" < CAST($1 AS HUGEINT)',
    parameters: [-170141183460469231731687303715884105727n],
    ids: [2],
  },
  {
    filter: f('ubig', 'GreaterThanOrEquals', '9223372036854775808'),
    where: '"ubig" >= CAST($1 AS UBIGINT)',
    parameters: [9223372036854775808n],
    ids: [1, 3],
  },
  { filter: f('ubig', 'LessThan', -1), where: 'FALSE', parameters: [], ids: [] },
  // DECIMALs: bound as exact text, cast to the column's DECIMAL.
  {
    filter: f('price', 'Equals', '99999999999999.999999'),
    where: '"price" = CAST($1 AS DECIMAL(20,6))',
    parameters: ['99999999999999.999999'],
    ids: [1],
  },
  {
    filter: f('price', 'LessThan', '99999999999999.999999'),
    where: '"price" < CAST($1 AS DECIMAL(20,6))',
    parameters: ['99999999999999.999999'],
    ids: [2, 3, 5],
  },
  {
    filter: f('price', 'GreaterThan', '0.0000001'),
    where: '"price" >= CAST($1 AS DECIMAL(20,6))',
    parameters: ['0.000001'],
    ids: [1, 2, 3],
  },
  {
    filter: f('cents', 'Between', '1.005', 2.999),
    where: '("cents" >= CAST($1 AS DECIMAL(10,2)) AND "cents" < CAST($2 AS DECIMAL(10,2)))',
    parameters: ['1.01', 3],
    ids: [2, 3],
  },
  {
    filter: f('cents', 'NotEquals', '1.000'),
    where: '"cents" IS DISTINCT FROM CAST($1 AS DECIMAL(10,2))',
    parameters: [1],
    ids: [2, 3, 4, 5],
  },
  { filter: f('cents', 'Equals', '1e8'), where: 'FALSE', parameters: [], ids: [] },
  // A DOUBLE column compares as doubles whatever is bound.
  { filter: f('ratio', 'Equals', '1e17'), where: '"ratio" = CAST($1 AS BIGINT)', parameters: [10n ** 17n], ids: [2] },
  { filter: f('ratio', 'LessThan', '0.75'), where: '"ratio" < CAST($1 AS DOUBLE)', parameters: [0.75], ids: [1, 3] },
  // A REAL column: a value the grid shows (the float's shortest digits) is that float, bound as FLOAT.
  { filter: f('score', 'Equals', '0.1'), where: '"score" = CAST($1 AS FLOAT)', parameters: [0.1], ids: [1] },
  { filter: f('score', 'GreaterThan', 0.1), where: '"score" > CAST($1 AS FLOAT)', parameters: [0.1], ids: [2, 3] },
  { filter: f('score', 'LessThan', '-2.5'), where: '"score" < CAST($1 AS FLOAT)', parameters: [-2.5], ids: [] },
  // Any other value compares with the float's exact value, as a double.
  {
    filter: f('score', 'Equals', '0.10000000149011612'),
    where: '"score" = CAST($1 AS DOUBLE)',
    parameters: [0.10000000149011612],
    ids: [1],
  },
  {
    filter: f('score', 'GreaterThan', '1e39'),
    where: '"score" > CAST($1 AS DOUBLE)',
    parameters: [1e39],
    ids: [],
  },
  // Without a known SQL type: whole numbers a BIGINT holds as BIGINT (exact), others as DOUBLE.
  {
    filter: f('untyped', 'Equals', '9007199254740993'),
    where: '"untyped" = CAST($1 AS BIGINT)',
    parameters: [9007199254740993n],
    ids: [2],
  },
  {
    filter: f('untyped', 'GreaterThan', '0.5'),
    where: '"untyped" > CAST($1 AS DOUBLE)',
    parameters: [0.5],
    ids: [1, 2, 3],
  },
];

describe('golden SQL and rows of exact numeric filters', () => {
  const query = (filter: FilterSpec): TableQuery => ({
    source: { kind: 'table', schema: 'data', name: 'golden' },
    columns: COLUMNS,
    rowKey: 'id',
    select: ['id'],
    filterGroups: [{ filters: [filter] }],
    sorting: [],
    page: { page: 1, pageSize: 50 },
  });
  beforeAll(async () => {
    await db.exec(GOLDEN_SQL);
  });

  it.each(GOLDEN.map((c) => [`${c.filter.columnKey} ${c.filter.operator} ${String(c.filter.value)}`, c] as const))(
    '%s',
    async (_title, c) => {
      const count = compileCountQuery(query(c.filter));
      expect(count).toEqual({
        sql: `SELECT\n  count(*) AS "count"\nFROM "data"."golden"\nWHERE ${c.where}`,
        parameters: c.parameters,
      });
      const page = compilePageQuery(query(c.filter));
      expect((await db.all(page)).map((row) => row['id'])).toEqual(c.ids);
      expect((await db.all({ sql: renderForDisplay(page), parameters: [] })).map((row) => row['id'])).toEqual(c.ids);
    },
  );

  it('shows every digit in Show SQL', () => {
    const shown = (filter: FilterSpec) => renderForDisplay(compileCountQuery(query(filter)));
    expect(shown(f('big', 'Equals', '9007199254740993'))).toContain('"big" = CAST(9007199254740993 AS BIGINT)');
    expect(shown(f('price', 'Equals', '99999999999999.999999'))).toContain(
      `"price" = CAST('99999999999999.999999' AS DECIMAL(20,6))`,
    );
  });

  it('refuses what is not a number, and numbers too long to be one', () => {
    for (const value of ['1e400', '12abc', '0x10', '1,000', `${'9'.repeat(401)}`, 'Infinity', 'NaN']) {
      expect(() => compileCountQuery(query(f('big', 'Equals', value))), value).toThrow(/is not a number/);
    }
  });
});
