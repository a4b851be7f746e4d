import { describe, expect, it } from 'vitest';
import { compileCountQuery } from '../../src/engine/table-query';
import { FILTER_CASES } from './filter-cases';
import { withFilters, withGroups } from './fixture';

const COUNT = 'SELECT\n  count(*) AS "count"\nFROM "static"."t_fixture"';

describe('golden SQL of each operator and column type', () => {
  it.each(FILTER_CASES.map((c) => [`${c.filter.columnKey} ${c.filter.operator} ${JSON.stringify(c.filter.value)}`, c]))(
    '%s',
    (_title, c) => {
      expect(compileCountQuery(withFilters(c.filter))).toEqual({
        sql: `${COUNT}\nWHERE ${c.where}`,
        parameters: c.parameters,
      });
    },
  );

  it('has a case for every operator that applies to each column type', () => {
    const covered = new Set(FILTER_CASES.map((c) => `${c.filter.columnKey}:${c.filter.operator}`));
    for (const [column, operators] of Object.entries({
      name: ['Equals', 'NotEquals', 'Contains', 'NotContains', 'GreaterThan', 'LessThan', 'GreaterThanOrEquals'],
      amount: ['Equals', 'NotEquals', 'Between', 'GreaterThan', 'LessThan', 'GreaterThanOrEquals', 'LessThanOrEquals'],
      active: ['Equals', 'NotEquals', 'Exists', 'Empty'],
      born: ['Equals', 'NotEquals', 'Between', 'GreaterThan', 'LessThan', 'GreaterThanOrEquals', 'LessThanOrEquals'],
      seen: ['Equals', 'NotEquals', 'Between', 'GreaterThan', 'LessThan', 'GreaterThanOrEquals', 'LessThanOrEquals'],
      tags: ['Contains', 'NotContains', 'Exists', 'Empty'],
      meta: ['Contains', 'NotContains', 'Exists', 'Empty'],
    })) {
      for (const operator of operators) expect(covered, `${column} ${operator}`).toContain(`${column}:${operator}`);
    }
  });
});

describe('golden SQL of filter groups', () => {
  it('numbers placeholders in reading order across filters', () => {
    const query = withFilters(
      { columnKey: 'name', operator: 'Contains', value: 'a' },
      { columnKey: 'amount', operator: 'Between', value: 1, value2: 2, conditionOperator: 'And' },
    );
    expect(compileCountQuery(query)).toEqual({
      sql: `${COUNT}\nWHERE (contains(lower(CAST("name" AS VARCHAR)), lower($1)) AND ("amount" BETWEEN CAST($2 AS BIGINT) AND CAST($3 AS BIGINT)))`,
      parameters: ['a', 1, 2],
    });
  });

  it("joins with Or by default and ignores the first filter's operator", () => {
    const query = withFilters(
      { columnKey: 'active', operator: 'Equals', value: true, conditionOperator: 'And' },
      { columnKey: 'amount', operator: 'Empty' },
    );
    expect(compileCountQuery(query).sql).toBe(`${COUNT}\nWHERE ("active" = $1 OR "amount" IS NULL)`);
  });

  it('binds And tighter than Or: a Or b And c is a OR (b AND c)', () => {
    const query = withFilters(
      { columnKey: 'active', operator: 'Equals', value: true },
      { columnKey: 'name', operator: 'Equals', value: 'bob', conditionOperator: 'Or' },
      { columnKey: 'amount', operator: 'Equals', value: -3, conditionOperator: 'And' },
      { columnKey: 'qty', operator: 'Exists', conditionOperator: 'Or' },
    );
    expect(compileCountQuery(query)).toEqual({
      sql:
        `${COUNT}\nWHERE ("active" = $1 OR (CAST("name" AS VARCHAR) = $2 AND "amount" = CAST($3 AS BIGINT))` +
        ` OR "qty" IS NOT NULL)`,
      parameters: [true, 'bob', -3],
    });
  });

  it('joins groups with And and skips empty groups', () => {
    const query = withGroups(
      { filters: [{ columnKey: 'active', operator: 'Equals', value: true }] },
      { filters: [] },
      {
        filters: [
          { columnKey: 'amount', operator: 'GreaterThan', value: 5 },
          { columnKey: 'amount', operator: 'Empty', conditionOperator: 'Or' },
        ],
      },
    );
    expect(compileCountQuery(query)).toEqual({
      sql: `${COUNT}\nWHERE ("active" = $1 AND ("amount" > CAST($2 AS BIGINT) OR "amount" IS NULL))`,
      parameters: [true, 5],
    });
  });

  it('has no WHERE without filters', () => {
    expect(compileCountQuery(withGroups({ filters: [] }))).toEqual({ sql: COUNT, parameters: [] });
  });
});
