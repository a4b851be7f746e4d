/**
 * Differential: random small tables and random models (joins of every type, either way round,
 * condition groups with value sides and tolerances, filters) run on DuckDB and, rendered by a
 * SQLite dialect, on SQLite; the rows must agree. The joins alone are also computed by a plain
 * TypeScript reference that reads the JoinSpecs itself (three-valued logic, outer joins by
 * definition), so a mistake in how the compiler orders or turns joins around cannot hide.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterSpec } from '../../src/engine/ir';
import {
  compileModelView,
  type JoinConditionSpec,
  type JoinSpec,
  type ModelSourceSpec,
  type ModelSpec,
  type SourceRef,
} from '../../src/engine/model';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { sorted } from './model-fixture';
import { openTestSqlite, sqliteDialect, type TestSqlite } from './sqlite-runner';

type Value = number | string | null;
type Row = { k: Value; n: Value; t: Value };
const TABLES = ['a', 'b', 'c'] as const;
type Table = (typeof TABLES)[number];
const NUMBER_COLUMNS = ['k', 'n'] as const;

const ref = (table: Table): SourceRef => ({ sourceId: table, sourceType: 'StaticTable' });
const SOURCES: ModelSourceSpec[] = TABLES.map((table) => ({
  ...ref(table),
  relation: { kind: 'table', schema: 'data', name: table },
  columns: [
    { columnKey: 'k', type: 'Number' },
    { columnKey: 'n', type: 'Number' },
    { columnKey: 't', type: 'Text' },
  ],
}));

const numberValue = fc.constantFrom(1, 2, 3, 0.5, 2.5);
const textValue = fc.constantFrom('a', 'b', 'A', 'ab');
const row = fc.record({
  k: fc.constantFrom(1, 2, 3, null),
  n: fc.constantFrom(0, 0.5, 1, 2.5, null),
  t: fc.constantFrom('a', 'b', 'A', '', 'ab', null),
});
const tables = fc.record({
  a: fc.array(row, { maxLength: 5 }),
  b: fc.array(row, { maxLength: 5 }),
  c: fc.array(row, { maxLength: 5 }),
});

const condition: fc.Arbitrary<JoinConditionSpec> = fc.oneof(
  fc.record({
    leftColumnKey: fc.constantFrom(...NUMBER_COLUMNS),
    operator: fc.constantFrom(
      'Equals',
      'NotEquals',
      'GreaterThan',
      'LessThan',
      'GreaterThanOrEquals',
      'LessThanOrEquals',
    ),
    rightColumnKey: fc.constantFrom(...NUMBER_COLUMNS),
    format: fc.option(fc.record({ tolerance: fc.constantFrom(0, 0.5, 1) }), { nil: undefined }),
  }),
  fc.record({
    leftColumnKey: fc.constant('t'),
    operator: fc.constantFrom('Equals', 'NotEquals', 'GreaterThan', 'LessThanOrEquals'),
    rightColumnKey: fc.constant('t'),
  }),
  fc.record({
    leftValue: numberValue,
    operator: fc.constantFrom('Equals', 'LessThan'),
    rightColumnKey: fc.constant('n'),
  }),
  fc.record({
    leftColumnKey: fc.constant('t'),
    operator: fc.constantFrom('Equals', 'NotEquals'),
    rightValue: textValue,
  }),
);
const joinGroups = fc.array(fc.record({ conditions: fc.array(condition, { minLength: 1, maxLength: 2 }) }), {
  minLength: 1,
  maxLength: 2,
});
const joinType = fc.constantFrom('Inner', 'LeftOuter', 'RightOuter', 'FullOuter' as const);

/** a–b (either way round), then maybe c with a or b (either way round, so sometimes turned around). */
const joins: fc.Arbitrary<JoinSpec[]> = fc
  .tuple(
    fc.boolean(),
    joinType,
    joinGroups,
    fc.option(fc.tuple(fc.constantFrom<Table>('a', 'b'), fc.boolean(), joinType, joinGroups)),
  )
  .map(([swap, type, groups, third]) => {
    const first: JoinSpec = {
      leftTable: ref(swap ? 'b' : 'a'),
      rightTable: ref(swap ? 'a' : 'b'),
      joinType: type,
      joinGroups: groups,
    };
    if (!third) return [first];
    const [other, cLeft, type3, groups3] = third;
    const [left, right] = cLeft ? ['c', other] : [other, 'c'];
    return [
      first,
      { leftTable: ref(left as Table), rightTable: ref(right as Table), joinType: type3, joinGroups: groups3 },
    ];
  });

const filter: fc.Arbitrary<FilterSpec> = fc.oneof(
  fc.record({
    columnKey: fc.constantFrom('a_k', 'a_n', 'b_n', 'b_k'),
    operator: fc.constantFrom('Equals', 'NotEquals', 'GreaterThan', 'LessThanOrEquals'),
    value: numberValue,
    conditionOperator: fc.constantFrom('And', 'Or'),
  }),
  fc.record({
    columnKey: fc.constantFrom('a_t', 'b_t'),
    operator: fc.constantFrom('Equals', 'NotEquals', 'Contains', 'NotContains'),
    value: textValue,
    conditionOperator: fc.constantFrom('And', 'Or'),
  }),
  fc.record({
    columnKey: fc.constantFrom('a_t', 'b_n', 'a_k'),
    operator: fc.constantFrom('Empty', 'Exists'),
    conditionOperator: fc.constantFrom('And', 'Or'),
  }),
);

function modelOf(joinSpecs: JoinSpec[], filters: FilterSpec[]): ModelSpec {
  const used = new Set(joinSpecs.flatMap((join) => [join.leftTable.sourceId, join.rightTable.sourceId]));
  const columns = TABLES.filter((table) => used.has(table)).flatMap((table) =>
    (['k', 'n', 't'] as const).map((column) => ({
      columnKey: `${table}_${column}`,
      displayName: `${table}.${column}`,
      order: 0,
      sourceColumn: { ...ref(table), columnKey: column },
    })),
  );
  return { sources: SOURCES, columns, joins: joinSpecs, filterGroups: filters.length ? [{ filters }] : [], sort: [] };
}

// ---- The reference: joins by definition, in TypeScript. ----

type Truth = boolean | null;
type TreeRow = Partial<Record<Table, Row | null>>;

function compare(left: Value, op: JoinConditionSpec['operator'], right: Value, tolerance: number | undefined): Truth {
  if (left === null || right === null) return null;
  if (tolerance !== undefined && typeof left === 'number' && typeof right === 'number') {
    if (op === 'Equals') return Math.abs(left - right) <= tolerance;
    if (op === 'NotEquals') return Math.abs(left - right) > tolerance;
  }
  switch (op) {
    case 'Equals':
      return left === right;
    case 'NotEquals':
      return left !== right;
    case 'GreaterThan':
      return left > right;
    case 'LessThan':
      return left < right;
    case 'GreaterThanOrEquals':
      return left >= right;
    case 'LessThanOrEquals':
      return left <= right;
  }
}

const and = (values: Truth[]): Truth => (values.includes(false) ? false : values.includes(null) ? null : true);
const or = (values: Truth[]): Truth => (values.includes(true) ? true : values.includes(null) ? null : false);

function matches(join: JoinSpec, rows: TreeRow): boolean {
  const side = (table: SourceRef, key: string | null | undefined, value: Value | boolean | undefined): Value => {
    if (key) return rows[table.sourceId as Table]?.[key as keyof Row] ?? null;
    return value as Value;
  };
  const groups = join.joinGroups.map((group) =>
    and(
      group.conditions.map((c) =>
        compare(
          side(join.leftTable, c.leftColumnKey, c.leftValue),
          c.operator,
          side(join.rightTable, c.rightColumnKey, c.rightValue),
          c.format?.tolerance ?? undefined,
        ),
      ),
    ),
  );
  return or(groups) === true;
}

function referenceRows(data: Record<Table, Row[]>, joinSpecs: JoinSpec[]): Record<string, Value>[] {
  const base = joinSpecs[0]!.leftTable.sourceId as Table;
  let tree: TreeRow[] = data[base].map((r) => ({ [base]: r }));
  const placed = new Set<Table>([base]);
  for (const join of joinSpecs) {
    const leftTable = join.leftTable.sourceId as Table;
    const newTable = (placed.has(leftTable) ? join.rightTable.sourceId : leftTable) as Table;
    // Which operand keeps its unmatched rows: the spec's left table, its right table, or both.
    const keepLeft = join.joinType === 'LeftOuter' || join.joinType === 'FullOuter';
    const keepRight = join.joinType === 'RightOuter' || join.joinType === 'FullOuter';
    const newIsLeft = newTable === leftTable;
    const keepTree = newIsLeft ? keepRight : keepLeft;
    const keepNew = newIsLeft ? keepLeft : keepRight;
    const next: TreeRow[] = [];
    const newMatched = new Set<number>();
    for (const treeRow of tree) {
      let matched = false;
      data[newTable].forEach((newRow, index) => {
        const combined = { ...treeRow, [newTable]: newRow };
        if (!matches(join, combined)) return;
        matched = true;
        newMatched.add(index);
        next.push(combined);
      });
      if (!matched && keepTree) next.push({ ...treeRow, [newTable]: null });
    }
    if (keepNew) data[newTable].forEach((newRow, index) => newMatched.has(index) || next.push({ [newTable]: newRow }));
    tree = next;
    placed.add(newTable);
  }
  return tree.map((treeRow) =>
    Object.fromEntries(
      TABLES.filter((table) => placed.has(table)).flatMap((table) =>
        (['k', 'n', 't'] as const).map((column) => [`${table}_${column}`, treeRow[table]?.[column] ?? null]),
      ),
    ),
  );
}

// ---- The property. ----

let duck: TestDuckDb;
let lite: TestSqlite;

beforeAll(async () => {
  duck = await openTestDuckDb();
  lite = openTestSqlite(['data']);
  await duck.exec('CREATE SCHEMA data');
  for (const table of TABLES) {
    await duck.exec(`CREATE TABLE data.${table} (k DOUBLE, n DOUBLE, t VARCHAR)`);
    lite.exec(`CREATE TABLE data.${table} (k REAL, n REAL, t TEXT)`);
  }
});

afterAll(() => {
  duck.close();
  lite.close();
});

async function load(data: Record<Table, Row[]>): Promise<void> {
  for (const table of TABLES) {
    await duck.exec(`DELETE FROM data.${table}`);
    lite.exec(`DELETE FROM data.${table}`);
    const rows = data[table].map((r) => [r.k, r.n, r.t] as const);
    for (const values of rows) await duck.exec(`INSERT INTO data.${table} VALUES ($1, $2, $3)`, [...values]);
    lite.insert(`data.${table}`, ['k', 'n', 't'], rows);
  }
}

describe('models on DuckDB, SQLite and by definition', () => {
  it('give the same rows for any joins and filters', async () => {
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(tables, joins, fc.array(filter, { maxLength: 3 }), async (data, joinSpecs, filters) => {
        await load(data);
        const plain = modelOf(joinSpecs, []);
        const duckRows = await duck.all(compileModelView(plain));
        expect(sorted(duckRows)).toEqual(sorted(referenceRows(data, joinSpecs)));
        expect(sorted(await lite.all(compileModelView(plain, { dialect: sqliteDialect })))).toEqual(sorted(duckRows));

        const filtered = modelOf(joinSpecs, filters);
        const duckFiltered = await duck.all(compileModelView(filtered));
        const liteFiltered = await lite.all(compileModelView(filtered, { dialect: sqliteDialect }));
        expect(sorted(liteFiltered)).toEqual(sorted(duckFiltered));
        if (duckFiltered.length > 0) nonEmpty += 1;
      }),
      { numRuns: 150 },
    );
    // The generators must reach real joins, not only empty tables.
    expect(nonEmpty).toBeGreaterThan(30);
  }, 120_000);
});
