/**
 * Hostile text everywhere a model reaches SQL: schema and table names of sources, source column
 * keys, model column keys, display names, join values, filter values and formula literals. Each
 * model either raises a ModelError or runs (and its Show SQL form, also as a view) to exactly the
 * right rows, and nothing changes the guarded table.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { renderForDisplay } from '../../src/engine/display';
import { ModelError } from '../../src/engine/errors';
import { compileModelView, type ModelSpec, type SourceRef } from '../../src/engine/model';
import type { CompiledQuery } from '../../src/engine/sql';
import { openTestDuckDb, type TestDuckDb } from './duckdb';

const PIECES = [
  "'",
  '"',
  ';',
  '--',
  '/*',
  '*/',
  '\\',
  '%',
  '$1',
  '?',
  ')',
  '(',
  ']',
  '[',
  ']]',
  'a',
  'B',
  'é',
  '漢',
  '😀',
  '\n',
  '\0',
  ' ',
  "'; DROP TABLE guard.canary; --",
  '" OR 1=1 --',
];
const nasty = fc.oneof(
  fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
/** A name a database can hold: not empty, no NUL (those are refused, tested apart). */
const nastyName = nasty.filter((name) => name !== '' && !name.includes('\0'));

/** Names DuckDB already uses or this test guards; DuckDB compares identifiers ignoring case. */
const TAKEN = ['main', 'guard', 'temp', 'system', 'memory', 'information_schema', 'pg_catalog'];
/** The view each model is also run as, in the schema of its sources. */
const VIEW = 'v';
const distinct = (...names: string[]): boolean =>
  new Set(names.map((name) => name.toLowerCase())).size === names.length;

const q = (name: string): string => duckdbDialect.quoteIdentifier(name);
const A: SourceRef = { sourceId: 'a', sourceType: 'StaticTable' };
const B: SourceRef = { sourceId: 'b', sourceType: 'IntegrationDataset' };

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await db.exec('CREATE SCHEMA guard; CREATE TABLE guard.canary AS SELECT * FROM range(3) r(i)');
});
afterEach(async () => {
  expect(await db.rows('SELECT count(*)::INTEGER AS n FROM guard.canary')).toEqual([{ n: 3 }]);
});
afterAll(() => db.close());

function compileOrNull(spec: ModelSpec): CompiledQuery | null {
  try {
    return compileModelView(spec);
  } catch (error) {
    if (error instanceof ModelError) return null;
    throw error;
  }
}

describe('hostile names and values in a model', () => {
  it('never change the SQL, only the names quoted and the values bound', async () => {
    let executed = 0;
    const names = fc.record({
      schema: nastyName,
      tableA: nastyName,
      tableB: nastyName,
      keyA: nastyName,
      keyB: nastyName,
      valueB: nastyName,
      m1: nastyName,
      m2: nastyName,
      m3: nastyName,
    });
    const texts = fc.record({ display: nasty, joinValue: nasty, filterValue: nasty, literal: nasty });
    await fc.assert(
      fc.asyncProperty(names, texts, async (n, t) => {
        // The tables must also differ from the view made of the model below.
        fc.pre(distinct(n.tableA, n.tableB, VIEW) && distinct(n.keyB, n.valueB) && distinct(n.m1, n.m2, n.m3));
        // Result rows are JS objects: a column named __proto__ cannot be read back from one (SQL is fine).
        fc.pre(![n.m1, n.m2, n.m3].includes('__proto__'));
        fc.pre(
          !TAKEN.includes(n.schema.toLowerCase()) && t.joinValue !== '' && !['k1', 'k2', ''].includes(t.filterValue),
        );
        const key = (k: string): string => `[${k.replaceAll(']', ']]')}]`;
        const spec: ModelSpec = {
          sources: [
            {
              ...A,
              displayName: t.display,
              relation: { kind: 'table', schema: n.schema, name: n.tableA },
              columns: [{ columnKey: n.keyA, type: 'Text' }],
            },
            {
              ...B,
              relation: { kind: 'table', schema: n.schema, name: n.tableB },
              columns: [
                { columnKey: n.keyB, type: 'Text' },
                { columnKey: n.valueB, type: 'Text' },
              ],
            },
          ],
          columns: [
            { columnKey: n.m1, displayName: t.display, order: 0, sourceColumn: { ...A, columnKey: n.keyA } },
            { columnKey: n.m2, displayName: t.display, order: 1, sourceColumn: { ...B, columnKey: n.valueB } },
            {
              columnKey: n.m3,
              displayName: t.display,
              order: 2,
              function: `${key(n.m2)} & '${t.literal.replaceAll("'", "''")}'`,
            },
          ],
          joins: [
            {
              leftTable: A,
              rightTable: B,
              joinType: 'LeftOuter',
              joinGroups: [
                {
                  conditions: [
                    { leftColumnKey: n.keyA, operator: 'Equals', rightColumnKey: n.keyB },
                    { leftValue: t.joinValue, operator: 'NotEquals', rightColumnKey: n.valueB },
                  ],
                },
              ],
            },
          ],
          filterGroups: [{ filters: [{ columnKey: n.m1, operator: 'NotEquals', value: t.filterValue }] }],
          sort: [],
        };
        const compiled = compileOrNull(spec);
        expect(compiled).not.toBeNull();
        executed += 1;
        const schema = q(n.schema);
        await db.exec(`CREATE SCHEMA ${schema}`);
        try {
          await db.exec(`CREATE TABLE ${schema}.${q(n.tableA)} (${q(n.keyA)} VARCHAR)`);
          await db.exec(`CREATE TABLE ${schema}.${q(n.tableB)} (${q(n.keyB)} VARCHAR, ${q(n.valueB)} VARCHAR)`);
          await db.exec(`INSERT INTO ${schema}.${q(n.tableA)} VALUES ('k1'), ('k2')`);
          await db.exec(`INSERT INTO ${schema}.${q(n.tableB)} VALUES ('k1', $1), ('k1', $2), ('k3', 'z')`, [
            t.joinValue,
            `${t.joinValue}!`,
          ]);
          const rows = await db.all(compiled!);
          expect(await db.all({ sql: renderForDisplay(compiled!), parameters: [] })).toEqual(rows);
          await db.exec(`CREATE VIEW ${schema}.${q(VIEW)} AS ${renderForDisplay(compiled!)}`);
          expect(await db.rows(`SELECT * FROM ${schema}.${q(VIEW)}`)).toEqual(rows);
          const byFirst = [...rows].sort((x, y) => String(x[n.m1]).localeCompare(String(y[n.m1])));
          expect(byFirst.map((row) => [row[n.m1], row[n.m2]])).toEqual([
            ['k1', `${t.joinValue}!`],
            ['k2', null],
          ]);
          expect(byFirst[0]![n.m3]).toBe(`${t.joinValue}!${t.literal}`);
        } finally {
          await db.exec(`DROP SCHEMA ${schema} CASCADE`);
        }
      }),
      { numRuns: 50 },
    );
    expect(executed).toBeGreaterThan(25);
  }, 120_000);

  it('refuse empty names and NUL in names with a ModelError', () => {
    const spec = (schema: string, column: string): ModelSpec => ({
      sources: [{ ...A, relation: { kind: 'table', schema, name: 't' }, columns: [{ columnKey: 'c', type: 'Text' }] }],
      columns: [{ columnKey: column, displayName: 'x', order: 0, sourceColumn: { ...A, columnKey: 'c' } }],
      joins: [],
      filterGroups: [],
      sort: [],
    });
    for (const bad of ['', 'a\0b']) {
      expect(compileOrNull(spec(bad, 'm'))).toBeNull();
      expect(compileOrNull(spec('s', bad))).toBeNull();
    }
    expect(compileOrNull(spec('s', 'm'))).not.toBeNull();
  });
});
