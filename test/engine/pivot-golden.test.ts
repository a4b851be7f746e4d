/**
 * Golden SQL and parameters of pivot queries: base (fields under aliases) -> partial (the finest
 * groups, partial aggregates) -> grouped (levels, cells, windows) -> outer (shown levels, order,
 * page). The renderer lays statements out on several lines;
 * these tests compare the text with whitespace runs collapsed (`flat`), so they pin every token and
 * its order but not the indentation.
 */
import { describe, expect, it } from 'vitest';
import { compilePivotColumnKeys, compilePivotQuery, type PivotSpec } from '../../src/engine/pivot';
import type { CompiledQuery } from '../../src/engine/sql';
import { SALES, SALES_COLUMNS, pivotSpec } from './pivot-fixture';

const flat = (sql: string): string => sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')');

function pivotSql(
  pivot: PivotSpec,
  columnKeys: (string | null)[][] = [],
  page = { offset: 0, limit: 200 },
): CompiledQuery {
  const { compiled } = compilePivotQuery({ relation: SALES, columns: SALES_COLUMNS, pivot, columnKeys, page });
  return { sql: flat(compiled.sql), parameters: compiled.parameters };
}

function keySql(pivot: PivotSpec, limit = 200): CompiledQuery {
  const compiled = compilePivotColumnKeys({ relation: SALES, columns: SALES_COLUMNS, pivot, limit });
  return { sql: flat(compiled.sql), parameters: compiled.parameters };
}

const FROM_SALES = 'FROM "static"."t_sales"';
const ONE_LEVEL = '0 AS "_level"';

describe('golden SQL of the pivot query', () => {
  it('rows only: one GROUP BY, ordered by the key, paged', () => {
    expect(
      pivotSql(pivotSpec({ rows: [{ column: 'region' }], values: [{ column: 'amount' }] }), [], {
        offset: 400,
        limit: 200,
      }),
    ).toEqual({
      sql:
        `SELECT "r0", "_level", "v0" FROM (SELECT "r0", ${ONE_LEVEL}, sum("p0") AS "v0" ` +
        'FROM (SELECT "r0", sum("v0") AS "p0" ' +
        `FROM (SELECT CAST("region" AS VARCHAR) AS "r0", "amount" AS "v0" ${FROM_SALES}) AS "base" GROUP BY "r0") AS "partial" ` +
        'GROUP BY "r0") AS "pivot" ' +
        'ORDER BY "r0" ASC NULLS LAST LIMIT 200 OFFSET 400',
      parameters: [],
    });
  });

  it('rows and columns: a FILTER per column key, null keys matched with IS NULL, keys bound as text', () => {
    const pivot = pivotSpec({
      rows: [{ column: 'region' }],
      columns: [{ column: 'year' }, { column: 'paid' }],
      values: [{ column: 'amount' }],
    });
    expect(
      pivotSql(pivot, [
        ['2023', 'true'],
        [null, 'false'],
      ]),
    ).toEqual({
      sql:
        `SELECT "r0", "_level", "c0_v0", "c1_v0" FROM (SELECT "r0", ${ONE_LEVEL}, ` +
        'sum("p0") FILTER (WHERE ("k0" = $1 AND "k1" = $2)) AS "c0_v0", ' +
        'sum("p0") FILTER (WHERE ("k0" IS NULL AND "k1" = $3)) AS "c1_v0" ' +
        'FROM (SELECT "r0", "k0", "k1", sum("v0") AS "p0" ' +
        'FROM (SELECT CAST("region" AS VARCHAR) AS "r0", CAST("year" AS VARCHAR) AS "k0", CAST("paid" AS VARCHAR) AS "k1", ' +
        `"amount" AS "v0" ${FROM_SALES}) AS "base" GROUP BY "r0", "k0", "k1") AS "partial" ` +
        'GROUP BY "r0") AS "pivot" ORDER BY "r0" ASC NULLS LAST LIMIT 200 OFFSET 0',
      parameters: ['2023', 'true', 'false'],
    });
  });

  it('each aggregation, in two steps: Count sums counts, Count unique groups by the value, Avg divides sums by counts', () => {
    const functions = ['Count', 'CountUnique', 'Sum', 'Min', 'Max', 'Avg'] as const;
    const { sql } = pivotSql(
      pivotSpec({
        values: [...functions.map((fn) => ({ column: 'qty', function: fn })), { column: 'city', function: 'Max' }],
      }),
    );
    expect(sql).toBe(
      `SELECT "_level", "v0", "v1", "v2", "v3", "v4", "v5", "v6" FROM (SELECT ${ONE_LEVEL}, coalesce(sum("p0"), 0) AS "v0", ` +
        'count(DISTINCT "v1") AS "v1", sum("p2") AS "v2", min("p3") AS "v3", max("p4") AS "v4", ' +
        '(CAST(sum("p5") AS DOUBLE) / NULLIF(sum("q5"), 0)) AS "v5", max("p6") AS "v6" ' +
        'FROM (SELECT "v1", count("v0") AS "p0", sum("v2") AS "p2", min("v3") AS "p3", max("v4") AS "p4", sum("v5") AS "p5", ' +
        'count("v5") AS "q5", max("v6") AS "p6" ' +
        'FROM (SELECT "qty" AS "v0", "qty" AS "v1", "qty" AS "v2", "qty" AS "v3", "qty" AS "v4", "qty" AS "v5", ' +
        `CAST("city" AS VARCHAR) AS "v6" ${FROM_SALES}) AS "base" GROUP BY "v1") AS "partial" GROUP BY ()) AS "pivot" LIMIT 200 OFFSET 0`,
    );
  });

  it('each show-as: row total, column total and grand total as divisors, read from the grand total row by windows', () => {
    const pivot = pivotSpec({
      rows: [{ column: 'region' }],
      columns: [{ column: 'product' }],
      values: (['Default', 'PercentOfRow', 'PercentOfColumn', 'PercentOfGrandTotal'] as const).map((showAs) => ({
        column: 'qty',
        showAs,
      })),
    });
    const { sql, parameters } = pivotSql(pivot, [['A']]);
    const grand = 'FILTER (WHERE GROUPING("r0") = 1) OVER ()';
    expect(sql).toBe(
      'SELECT "r0", "_level", "c0_v0", "c0_v1", "c0_v2", "c0_v3" FROM (SELECT "r0", GROUPING("r0") AS "_level", GROUPING("r0") AS "_g0", ' +
        'sum("p0") FILTER (WHERE "k0" = $1) AS "c0_v0", ' +
        '(CAST(sum("p1") FILTER (WHERE "k0" = $2) AS DOUBLE) / NULLIF(sum("p1"), 0)) AS "c0_v1", ' +
        `(CAST(sum("p2") FILTER (WHERE "k0" = $3) AS DOUBLE) / NULLIF(max(sum("p2") FILTER (WHERE "k0" = $4)) ${grand}, 0)) AS "c0_v2", ` +
        `(CAST(sum("p3") FILTER (WHERE "k0" = $5) AS DOUBLE) / NULLIF(max(sum("p3")) ${grand}, 0)) AS "c0_v3" ` +
        'FROM (SELECT "r0", "k0", sum("v0") AS "p0", sum("v1") AS "p1", sum("v2") AS "p2", sum("v3") AS "p3" ' +
        'FROM (SELECT CAST("region" AS VARCHAR) AS "r0", CAST("product" AS VARCHAR) AS "k0", "qty" AS "v0", "qty" AS "v1", "qty" AS "v2", "qty" AS "v3" ' +
        `${FROM_SALES}) AS "base" GROUP BY "r0", "k0") AS "partial" GROUP BY GROUPING SETS (("r0"), ())) AS "pivot" WHERE "_level" = 0 ` +
        'ORDER BY "_g0" ASC NULLS LAST, "r0" ASC NULLS LAST LIMIT 200 OFFSET 0',
    );
    expect(parameters).toEqual(['A', 'A', 'A', 'A', 'A']);
  });

  it('totals on: GROUPING SETS for subtotals and the grand total, all shown, a total column per value', () => {
    const pivot = pivotSpec({
      rows: [{ column: 'region' }, { column: 'city' }],
      columns: [{ column: 'paid' }],
      values: [{ column: 'amount' }],
      showRowTotals: true,
      showColumnTotals: true,
    });
    expect(pivotSql(pivot, [['true']]).sql).toBe(
      'SELECT "r0", "r1", "_level", "c0_v0", "total_v0" FROM (SELECT "r0", "r1", GROUPING("r0", "r1") AS "_level", ' +
        'GROUPING("r0") AS "_g0", GROUPING("r1") AS "_g1", sum("p0") FILTER (WHERE "k0" = $1) AS "c0_v0", sum("p0") AS "total_v0" ' +
        'FROM (SELECT "r0", "r1", "k0", sum("v0") AS "p0" ' +
        'FROM (SELECT CAST("region" AS VARCHAR) AS "r0", CAST("city" AS VARCHAR) AS "r1", CAST("paid" AS VARCHAR) AS "k0", "amount" AS "v0" ' +
        `${FROM_SALES}) AS "base" GROUP BY "r0", "r1", "k0") AS "partial" GROUP BY GROUPING SETS (("r0", "r1"), ("r0"), ())) AS "pivot" ` +
        'ORDER BY "_g0" ASC NULLS LAST, "r0" ASC NULLS LAST, "_g1" ASC NULLS LAST, "r1" ASC NULLS LAST LIMIT 200 OFFSET 0',
    );
  });

  it('totals off: no GROUPING SETS, no total column', () => {
    const pivot = pivotSpec({
      rows: [{ column: 'region' }],
      columns: [{ column: 'paid' }],
      values: [{ column: 'amount' }],
    });
    const { sql } = pivotSql(pivot, [['true']]);
    expect(sql).not.toContain('GROUPING');
    expect(sql).not.toContain('total_v0');
    expect(sql).toContain('GROUP BY "r0", "k0") AS "partial" GROUP BY "r0") AS "pivot"');
  });

  it('filters: the table filter compiler, all ANDed, values bound after the cells', () => {
    const pivot = pivotSpec({
      columns: [{ column: 'product' }],
      values: [{ column: 'qty' }],
      filters: [
        { column: 'amount', operator: 'Between', value: 1, value2: '2.5' },
        { column: 'at', operator: 'Equals', value: '2024-02-01' },
        { column: 'city', operator: 'NotEquals', value: 'Oslo' },
      ],
    });
    expect(pivotSql(pivot, [['B']])).toEqual({
      sql:
        `SELECT "_level", "c0_v0" FROM (SELECT ${ONE_LEVEL}, sum("p0") FILTER (WHERE "k0" = $1) AS "c0_v0" ` +
        'FROM (SELECT "k0", sum("v0") AS "p0" ' +
        `FROM (SELECT CAST("product" AS VARCHAR) AS "k0", "qty" AS "v0" ${FROM_SALES} ` +
        'WHERE (("amount" BETWEEN CAST($2 AS BIGINT) AND CAST($3 AS DOUBLE)) AND ("at" >= CAST($4 AS TIMESTAMP) AND "at" < CAST($5 AS TIMESTAMP)) ' +
        'AND CAST("city" AS VARCHAR) IS DISTINCT FROM $6)) AS "base" GROUP BY "k0") AS "partial" GROUP BY ()) AS "pivot" LIMIT 200 OFFSET 0',
      parameters: ['B', 1, 2.5, '2024-02-01 00:00:00', '2024-02-02 00:00:00', 'Oslo'],
    });
  });

  it('sorting by key descending, and by value: the innermost field by its own aggregate, an outer one by a window over its level', () => {
    const byKey = pivotSql(pivotSpec({ rows: [{ column: 'year', sort: { direction: 'Descending' } }], values: [] }));
    expect(byKey.sql).toContain(
      'FROM (SELECT "year" AS "r0" FROM "static"."t_sales") AS "base" GROUP BY "r0") AS "partial" GROUP BY "r0"',
    );
    expect(byKey.sql).toContain('ORDER BY "r0" DESC NULLS LAST LIMIT 200');

    const pivot = pivotSpec({
      rows: [
        { column: 'region', sort: { direction: 'Descending', valueIndex: 0 } },
        { column: 'city', sort: { valueIndex: 0 } },
      ],
      values: [{ column: 'amount' }],
    });
    expect(pivotSql(pivot).sql).toBe(
      'SELECT "r0", "r1", "_level", "v0" FROM (SELECT "r0", "r1", GROUPING("r0", "r1") AS "_level", GROUPING("r0") AS "_g0", ' +
        'max(sum("p0")) FILTER (WHERE GROUPING("r0", "r1") = 1) OVER (PARTITION BY "r0", GROUPING("r0")) AS "_s0", ' +
        'GROUPING("r1") AS "_g1", sum("p0") AS "_s1", sum("p0") AS "v0" ' +
        'FROM (SELECT "r0", "r1", sum("v0") AS "p0" ' +
        'FROM (SELECT CAST("region" AS VARCHAR) AS "r0", CAST("city" AS VARCHAR) AS "r1", "amount" AS "v0" ' +
        `${FROM_SALES}) AS "base" GROUP BY "r0", "r1") AS "partial" GROUP BY GROUPING SETS (("r0", "r1"), ("r0"))) AS "pivot" WHERE "_level" = 0 ` +
        'ORDER BY "_g0" ASC NULLS LAST, "_s0" DESC NULLS LAST, "r0" ASC NULLS LAST, "_g1" ASC NULLS LAST, "_s1" ASC NULLS LAST, ' +
        '"r1" ASC NULLS LAST LIMIT 200 OFFSET 0',
    );
  });

  it('puts hostile column names only in quoted identifiers and hostile keys only in parameters', () => {
    const columns = [
      { columnKey: 'r"; DROP TABLE x; --', type: 'Text' as const },
      { columnKey: "c' OR 1=1 --", type: 'Text' as const },
      { columnKey: '$1', type: 'Number' as const },
    ];
    const pivot = pivotSpec({
      rows: [{ column: columns[0]!.columnKey }],
      columns: [{ column: columns[1]!.columnKey }],
      values: [{ column: '$1' }],
    });
    const hostile = ["'); DROP TABLE x; --", '" OR 1=1 --'];
    const { compiled } = compilePivotQuery({
      relation: SALES,
      columns,
      pivot,
      columnKeys: hostile.map((k) => [k]),
      page: { offset: 0, limit: 5 },
    });
    const sql = flat(compiled.sql);
    expect(sql).toContain(
      'FROM (SELECT CAST("r""; DROP TABLE x; --" AS VARCHAR) AS "r0", CAST("c\' OR 1=1 --" AS VARCHAR) AS "k0", "$1" AS "v0"',
    );
    expect(sql).toContain(
      'sum("p0") FILTER (WHERE "k0" = $1) AS "c0_v0", sum("p0") FILTER (WHERE "k0" = $2) AS "c1_v0"',
    );
    expect(compiled.parameters).toEqual(hostile);
    expect(sql).not.toContain("DROP TABLE x; --'");
  });
});

describe('golden SQL of the column key query', () => {
  it('returns keys as text, sorted by value then text, asking for one more than the limit', () => {
    const pivot = pivotSpec({
      columns: [{ column: 'year', sort: { direction: 'Descending' } }],
      values: [{ column: 'qty' }],
    });
    expect(keySql(pivot, 10)).toEqual({
      sql:
        `SELECT "k0" FROM (SELECT "n0", "k0", ${ONE_LEVEL} FROM (SELECT "n0", "k0" ` +
        `FROM (SELECT "year" AS "n0", CAST("year" AS VARCHAR) AS "k0" ${FROM_SALES}) AS "base" GROUP BY "n0", "k0") AS "partial" ` +
        'GROUP BY "n0", "k0") AS "pivot" ORDER BY "n0" DESC NULLS LAST, "k0" ASC NULLS LAST LIMIT 11 OFFSET 0',
      parameters: [],
    });
  });

  it('sorts an outer column field by value through its level, with the pivot filters', () => {
    const pivot = pivotSpec({
      columns: [
        { column: 'region', sort: { valueIndex: 0 } },
        { column: 'day', sort: { direction: 'Descending' } },
      ],
      values: [{ column: 'qty', function: 'CountUnique' }],
      filters: [{ column: 'city', operator: 'Contains', value: "o'" }],
    });
    expect(keySql(pivot)).toEqual({
      sql:
        'SELECT "k0", "k1" FROM (SELECT "k0", "n1", "k1", GROUPING("k0", "n1") AS "_level", GROUPING("k0") AS "_g0", ' +
        'max(count(DISTINCT "v0")) FILTER (WHERE GROUPING("k0", "n1") = 1) OVER (PARTITION BY "k0", GROUPING("k0")) AS "_s0", ' +
        'GROUPING("n1") AS "_g1" FROM (SELECT "k0", "n1", "k1", "v0" ' +
        'FROM (SELECT CAST("region" AS VARCHAR) AS "k0", "qty" AS "v0", "day" AS "n1", CAST("day" AS VARCHAR) AS "k1" ' +
        `${FROM_SALES} WHERE contains(lower(CAST("city" AS VARCHAR)), lower($1))) AS "base" GROUP BY "k0", "n1", "k1", "v0") AS "partial" ` +
        'GROUP BY GROUPING SETS (("k0", "n1", "k1"), ("k0"))) AS "pivot" ' +
        'WHERE "_level" = 0 ORDER BY "_g0" ASC NULLS LAST, "_s0" ASC NULLS LAST, "k0" ASC NULLS LAST, "_g1" ASC NULLS LAST, ' +
        '"n1" DESC NULLS LAST, "k1" ASC NULLS LAST LIMIT 201 OFFSET 0',
      parameters: ["o'"],
    });
  });
});
