/**
 * Hostile text in every position a user can reach: filter values, column keys, schema and table
 * names. Each compiled query must either raise a ModelError or run and return exactly the right
 * rows (also in its Show SQL form), and nothing may ever change the guarded tables.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { renderForDisplay } from '../../src/engine/display';
import { ModelError } from '../../src/engine/errors';
import type { FilterSpec, TableQuery, TableRelation } from '../../src/engine/ir';
import type { CompiledQuery, ResultRow } from '../../src/engine/sql';
import { compileCountQuery, compilePageQuery } from '../../src/engine/table-query';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { createFixture, ids, withFilters } from './fixture';

const PIECES = [
  "'",
  '"',
  ';',
  '--',
  '/*',
  '*/',
  '\\',
  '%',
  '_',
  '$1',
  '$$',
  '?',
  ':x',
  ')',
  '(',
  'a',
  'B',
  'é',
  'Ü',
  'ß',
  '漢',
  '😀',
  '\n',
  '\t',
  '\0',
  ' ',
  '\u202e',
  "'; DROP TABLE guard.canary; --",
  '" OR 1=1 --',
  "E'\\x00'",
  'chr(0)',
];
/** Strings built from SQL-significant pieces, and any Unicode text. */
const nasty = fc.oneof(
  fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
/** Pieces whose upper and lower case round-trip alike in JavaScript and DuckDB (not ß: 'ß' → 'SS'), for Contains. */
const nastyCased = fc.string({
  unit: fc.constantFrom(...PIECES.filter((piece) => piece !== 'ß')),
  minLength: 1,
  maxLength: 6,
});

/** Properties run a hundred queries or more; a loaded CI machine needs time. */
const TIMEOUT = 60_000;

const q = (name: string): string => duckdbDialect.quoteIdentifier(name);
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await createFixture(db);
  await db.exec(`CREATE SCHEMA guard; CREATE TABLE guard.canary AS SELECT * FROM range(3) r(i);
    CREATE TABLE static.t_values (_row_id INTEGER, s VARCHAR); CREATE TABLE static.t_search (_row_id INTEGER, s VARCHAR)`);
});
afterEach(async () => {
  expect(await db.rows('SELECT count(*)::INTEGER AS n FROM guard.canary')).toEqual([{ n: 3 }]);
  expect(await db.rows('SELECT count(*)::INTEGER AS n FROM static.t_fixture')).toEqual([{ n: 8 }]);
});
afterAll(() => db.close());

/** Runs a query and its display form; both must agree. */
async function runBoth(query: CompiledQuery): Promise<ResultRow[]> {
  const rows = await db.all(query);
  expect(await db.all({ sql: renderForDisplay(query), parameters: [] })).toEqual(rows);
  return rows;
}

/** Compiles, or answers null when the engine refused with a ModelError (any other error fails). */
function compileOrNull(compile: () => CompiledQuery): CompiledQuery | null {
  try {
    return compile();
  } catch (error) {
    if (error instanceof ModelError) return null;
    throw error;
  }
}

describe('hostile filter values', () => {
  let nextId = 1;
  const valuesQuery = (filter: Omit<FilterSpec, 'columnKey'>, name = 't_values'): TableQuery => ({
    ...withFilters({ columnKey: 's', ...filter }),
    page: { page: 1, pageSize: 1000 },
    source: { kind: 'table', schema: 'static', name },
    columns: [{ columnKey: 's', type: 'Text' }],
  });

  it(
    'match Text columns exactly, and never run',
    async () => {
      await fc.assert(
        fc.asyncProperty(nasty, async (value) => {
          await db.exec('INSERT INTO static.t_values VALUES ($1, $2)', [nextId++, value]);
          const stored = (await db.rows('SELECT _row_id, s FROM static.t_values ORDER BY _row_id')) as {
            _row_id: number;
            s: string | null;
          }[];
          const expect_ = (keep: (s: string) => boolean): number[] =>
            stored.filter((row) => row.s !== null && keep(row.s)).map((row) => row._row_id);
          const cases: [FilterSpec['operator'], number[]][] = [
            ['Equals', expect_((s) => s === value)],
            ['NotEquals', expect_((s) => s !== value)],
            ['GreaterThan', expect_((s) => Buffer.compare(bytes(s), bytes(value)) > 0)],
            ['LessThanOrEquals', expect_((s) => Buffer.compare(bytes(s), bytes(value)) <= 0)],
          ];
          for (const [operator, expected] of cases) {
            const compiled = compileOrNull(() => compilePageQuery(valuesQuery({ operator, value })));
            if (value === '') expect(compiled).toBeNull();
            else expect(ids(await runBoth(compiled!))).toEqual(expected);
          }
        }),
      );
    },
    TIMEOUT,
  );

  it(
    'find themselves with Contains, case-insensitively',
    async () => {
      await fc.assert(
        fc.asyncProperty(nastyCased, nastyCased, async (needle, around) => {
          const id = nextId++;
          await db.exec('INSERT INTO static.t_search VALUES ($1, $2)', [
            id,
            `${around}${needle.toUpperCase()}${around}`,
          ]);
          const rows = ids(
            await runBoth(compilePageQuery(valuesQuery({ operator: 'Contains', value: needle }, 't_search'))),
          );
          expect(rows).toContain(id);
          const stored = (await db.rows('SELECT _row_id, s FROM static.t_search')) as { _row_id: number; s: string }[];
          const expected = stored
            .filter((row) => row.s.toLowerCase().includes(needle.toLowerCase()))
            .map((r) => r._row_id);
          expect(rows.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
          const without = ids(
            await runBoth(compilePageQuery(valuesQuery({ operator: 'NotContains', value: needle }, 't_search'))),
          );
          expect(without).not.toContain(id);
        }),
      );
    },
    TIMEOUT,
  );

  it(
    'in Number, Date, DateTime and Boolean filters are refused or parsed, never run',
    async () => {
      const amounts = new Map([
        [1, 10.5],
        [2, -3],
        [3, 0],
        [5, 1e6],
        [6, 2.25],
        [7, 100],
        [8, 7],
      ]);
      await fc.assert(
        fc.asyncProperty(nasty, fc.constantFrom('amount', 'born', 'seen', 'active'), async (value, columnKey) => {
          const compiled = compileOrNull(() => compilePageQuery(withFilters({ columnKey, operator: 'Equals', value })));
          if (compiled === null) return;
          const rows = ids(await runBoth(compiled));
          if (columnKey === 'amount') {
            const number = Number(value.trim());
            expect(rows).toEqual([...amounts].filter(([, amount]) => amount === number).map(([id]) => id));
          }
        }),
      );
    },
    TIMEOUT,
  );
});

describe('hostile column keys', () => {
  let table = 0;

  it(
    'are quoted everywhere they appear, or refused',
    async () => {
      await fc.assert(
        fc.asyncProperty(nasty, async (key) => {
          fc.pre(key.toLowerCase() !== 'rk');
          const source: TableRelation = { kind: 'table', schema: 'static', name: `t_keys_${table++}` };
          const query: TableQuery = {
            source,
            columns: [{ columnKey: key, type: 'Text' }],
            rowKey: 'rk',
            select: [key, 'rk'],
            filterGroups: [{ filters: [{ columnKey: key, operator: 'NotEquals', value: 'b' }] }],
            sorting: [{ columnKey: key, direction: 'Descending' }],
            page: { page: 2, pageSize: 1 },
          };
          const compiled = compileOrNull(() => compilePageQuery(query));
          if (key === '' || key.includes('\0')) {
            expect(compiled).toBeNull();
            return;
          }
          const name = `static.${q(source.name)}`;
          await db.exec(`CREATE TABLE ${name} (rk INTEGER, ${q(key)} VARCHAR)`);
          await db.exec(`INSERT INTO ${name} VALUES (1, 'a'), (2, 'c'), (3, 'b'), (4, NULL)`);
          // Not b, sorted descending with nulls last: c, a, NULL; page 2 of size 1 is a.
          expect(await runBoth(compiled!)).toEqual([{ [key]: 'a', rk: 1 }]);
          expect(await db.all(compileCountQuery(query))).toEqual([{ count: '3' }]);
          await db.exec(`DROP TABLE ${name}`);
        }),
      );
    },
    TIMEOUT,
  );

  it('that the relation does not have are a ModelError in filters, sorting and select', () => {
    fc.assert(
      fc.property(nasty, (key) => {
        fc.pre(!['name', 'amount', 'qty', 'active', 'born', 'seen', 'tags', 'meta', 'point', 'ref'].includes(key));
        const base = withFilters();
        expect(() => compilePageQuery(withFilters({ columnKey: key, operator: 'Exists' }))).toThrow(ModelError);
        expect(() => compilePageQuery({ ...base, sorting: [{ columnKey: key }] })).toThrow(ModelError);
        expect(() => compilePageQuery({ ...base, select: [key] })).toThrow(ModelError);
      }),
    );
  });
});

describe('hostile schema and table names', () => {
  // Catalog names make `"memory"."t"` ambiguous in DuckDB; the server never uses them as schemas.
  const reserved = new Set(['memory', 'system', 'temp', 'main', 'information_schema', 'pg_catalog', 'guard', 'static']);

  it(
    'are quoted, or refused',
    async () => {
      await fc.assert(
        fc.asyncProperty(nasty, nasty, nasty, async (schema, name, rowKey) => {
          fc.pre(!reserved.has(schema.toLowerCase()) && rowKey.toLowerCase() !== 'v');
          const query: TableQuery = {
            source: { kind: 'table', schema, name },
            columns: [{ columnKey: 'v', type: 'Number' }],
            rowKey,
            select: ['v'],
            filterGroups: [{ filters: [{ columnKey: 'v', operator: 'GreaterThan', value: 1 }] }],
            sorting: [],
            page: { page: 1, pageSize: 10 },
          };
          const compiled = compileOrNull(() => compilePageQuery(query));
          if ([schema, name, rowKey].some((part) => part === '' || part.includes('\0'))) {
            expect(compiled).toBeNull();
            return;
          }
          const relation = `${q(schema)}.${q(name)}`;
          await db.exec(`CREATE SCHEMA IF NOT EXISTS ${q(schema)}`);
          await db.exec(`CREATE TABLE ${relation} AS SELECT i AS ${q(rowKey)}, i * 2 AS v FROM range(3) r(i)`);
          expect(await runBoth(compiled!)).toEqual([{ v: '2' }, { v: '4' }]);
          await db.exec(`DROP SCHEMA ${q(schema)} CASCADE`);
        }),
      );
    },
    TIMEOUT,
  );
});
