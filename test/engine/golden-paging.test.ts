import { describe, expect, it } from 'vitest';
import { pageRequestSchema } from '../../src/shared/tables';
import { SqlDialect } from '../../src/engine/dialect';
import { compileCountQuery, compilePageQuery } from '../../src/engine/table-query';
import { tableQuery, withFilters } from './fixture';

const FROM = 'FROM "static"."t_fixture"';
const BY_KEY = 'ORDER BY "_row_id" ASC NULLS LAST';
/** The rendered layout: one clause per line. */
const lines = (...parts: string[]): string => parts.join('\n');

describe('golden SQL of sorting', () => {
  it('orders by the row key alone when nothing is sorted', () => {
    expect(compilePageQuery(tableQuery({ select: ['_row_id', 'name'] }))).toEqual({
      sql: lines('SELECT', '  "_row_id",', '  "name"', FROM, BY_KEY, 'LIMIT 50 OFFSET 0'),
      parameters: [],
    });
  });

  it('sorts by several columns, nulls last, then by the row key', () => {
    const query = tableQuery({
      sorting: [
        { columnKey: 'amount', direction: 'Descending' },
        { columnKey: 'name', direction: 'Ascending' },
        { columnKey: 'born' },
      ],
    });
    expect(compilePageQuery(query).sql).toBe(
      lines(
        'SELECT',
        '  "_row_id"',
        FROM,
        'ORDER BY "amount" DESC NULLS LAST, "name" ASC NULLS LAST, "born" ASC NULLS LAST, "_row_id" ASC NULLS LAST',
        'LIMIT 50 OFFSET 0',
      ),
    );
  });

  it('counts a column sorted twice once, the first time', () => {
    const query = tableQuery({
      sorting: [
        { columnKey: 'qty', direction: 'Descending' },
        { columnKey: 'qty', direction: 'Ascending' },
        { columnKey: '_row_id', direction: 'Descending' },
      ],
    });
    expect(compilePageQuery(query).sql).toBe(
      lines(
        'SELECT',
        '  "_row_id"',
        FROM,
        'ORDER BY "qty" DESC NULLS LAST, "_row_id" DESC NULLS LAST',
        'LIMIT 50 OFFSET 0',
      ),
    );
  });

  it('breaks ties on every selected column when there is no row key', () => {
    const query = tableQuery({ rowKey: null, select: ['name', 'amount'], sorting: [{ columnKey: 'amount' }] });
    expect(compilePageQuery(query).sql).toBe(
      lines(
        'SELECT',
        '  "name",',
        '  "amount"',
        FROM,
        'ORDER BY "amount" ASC NULLS LAST, "name" ASC NULLS LAST',
        'LIMIT 50 OFFSET 0',
      ),
    );
  });
});

describe('golden SQL of paging', () => {
  it('selects every known column, in order, when none is named, and each named column once', () => {
    expect(compilePageQuery(tableQuery({ select: [] })).sql).toBe(
      lines(
        'SELECT',
        ...['name', 'amount', 'qty', 'active', 'born', 'seen', 'tags', 'meta', 'point'].map((key) => `  "${key}",`),
        '  "ref"',
        FROM,
        BY_KEY,
        'LIMIT 50 OFFSET 0',
      ),
    );
    expect(compilePageQuery(tableQuery({ select: ['name', 'name', '_row_id'] })).sql).toBe(
      lines('SELECT', '  "name",', '  "_row_id"', FROM, BY_KEY, 'LIMIT 50 OFFSET 0'),
    );
  });

  it('pages past the first 50 rows by row key first, then fetches the columns of those keys', () => {
    const query = {
      ...withFilters({ columnKey: 'name', operator: 'Contains', value: 'a' }),
      select: ['_row_id', 'name'],
      sorting: [{ columnKey: 'amount', direction: 'Descending' as const }],
      page: { page: 101, pageSize: 100 },
    };
    const order = 'ORDER BY "amount" DESC NULLS LAST, "_row_id" ASC NULLS LAST';
    expect(compilePageQuery(query)).toEqual({
      sql: lines(
        'SELECT',
        '  "_row_id",',
        '  "name"',
        FROM,
        'WHERE "_row_id" IN (',
        '  SELECT',
        '    "_row_id"',
        `  ${FROM}`,
        '  WHERE contains(lower(CAST("name" AS VARCHAR)), lower($1))',
        `  ${order}`,
        '  LIMIT 100 OFFSET 10000',
        ')',
        order,
      ),
      parameters: ['a'],
    });
  });

  it('keeps plain LIMIT/OFFSET where DuckDB materialises late by itself (offset + size <= 50)', () => {
    expect(compilePageQuery(tableQuery({ page: { page: 5, pageSize: 10 } })).sql).toBe(
      lines('SELECT', '  "_row_id"', FROM, BY_KEY, 'LIMIT 10 OFFSET 40'),
    );
    expect(compilePageQuery(tableQuery({ page: { page: 2, pageSize: 26 } })).sql).toContain('"_row_id" IN (\n  SELECT');
  });

  it('keeps filtered pages plain up to 10,000 rows deep, where keys first would scan the filter twice', () => {
    const query = {
      ...withFilters({ columnKey: 'name', operator: 'Contains', value: 'a' }),
      select: ['_row_id', 'name'],
      page: { page: 100, pageSize: 100 },
    };
    expect(compilePageQuery(query).sql).toBe(
      lines(
        'SELECT',
        '  "_row_id",',
        '  "name"',
        FROM,
        'WHERE contains(lower(CAST("name" AS VARCHAR)), lower($1))',
        BY_KEY,
        'LIMIT 100 OFFSET 9900',
      ),
    );
  });

  it('uses plain LIMIT/OFFSET on deep pages when there is no row key', () => {
    const query = tableQuery({ rowKey: null, select: ['name'], page: { page: 1000, pageSize: 200 } });
    expect(compilePageQuery(query).sql).toBe(
      lines('SELECT', '  "name"', FROM, 'ORDER BY "name" ASC NULLS LAST', 'LIMIT 200 OFFSET 199800'),
    );
  });
});

describe('the shared request shapes', () => {
  it('go into a table query as they are parsed', () => {
    const request = pageRequestSchema.parse({
      page: 2,
      pageSize: 100,
      filterGroups: [{ filters: [{ columnKey: 'name', operator: 'Exists' }] }],
      sorting: [{ columnKey: 'born', direction: 'Descending' }],
    });
    const query = tableQuery({ filterGroups: request.filterGroups, sorting: request.sorting, page: request });
    expect(compilePageQuery(query).sql).toBe(
      lines(
        'SELECT',
        '  "_row_id"',
        FROM,
        `WHERE ("name" IS NOT NULL AND CAST("name" AS VARCHAR) <> '')`,
        'ORDER BY "born" DESC NULLS LAST, "_row_id" ASC NULLS LAST',
        'LIMIT 100 OFFSET 100',
      ),
    );
  });
});

describe('golden SQL of the count', () => {
  it('counts with the same filters, without sorting or paging', () => {
    const query = {
      ...withFilters({ columnKey: 'amount', operator: 'GreaterThan', value: 1.5 }),
      sorting: [{ columnKey: 'name' }],
      page: { page: 7, pageSize: 100 },
    };
    expect(compileCountQuery(query)).toEqual({
      sql: lines('SELECT', '  count(*) AS "count"', FROM, 'WHERE "amount" > CAST($1 AS DOUBLE)'),
      parameters: [1.5],
    });
  });
});

describe('another dialect', () => {
  it('renders through the standard SQL hooks', () => {
    const query = withFilters(
      { columnKey: 'tags', operator: 'Empty' },
      { columnKey: 'meta', operator: 'Contains', value: 'x' },
      { columnKey: 'amount', operator: 'Equals', value: 0.5 },
    );
    expect(compilePageQuery(query, { dialect: new SqlDialect() })).toEqual({
      sql: lines(
        'SELECT',
        '  "_row_id"',
        FROM,
        'WHERE "_row_id" IN (',
        '  SELECT',
        '    "_row_id"',
        `  ${FROM}`,
        '  WHERE (("tags" IS NULL OR cardinality("tags") = 0) OR ' +
          '(position(lower($1) in lower(CAST("meta" AS VARCHAR))) > 0) OR "amount" = CAST($2 AS DOUBLE PRECISION))',
        `  ${BY_KEY}`,
        '  LIMIT 50 OFFSET 0',
        ')',
        BY_KEY,
      ),
      parameters: ['x', 0.5],
    });
  });
});
