import { describe, expect, it } from 'vitest';
import { ModelError, type ModelErrorCode } from '../../src/engine/errors';
import { compileModelSelect, type JoinConditionSpec, type ModelSpec } from '../../src/engine/model';
import { COUNTRIES, CUSTOMERS, NOTES, ORDERS, eq, fn, join, model, on, raw } from './model-fixture';

function modelError(spec: ModelSpec): ModelError {
  try {
    compileModelSelect(spec);
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('Expected a ModelError');
}

const REMOVED = 'A column has been removed from the model. Please select another column.';
const twoSources = [raw('customer', CUSTOMERS, 'name'), raw('order', ORDERS, 'order_id')];
const joinedOn = (...conditions: JoinConditionSpec[]): ModelSpec =>
  model({ columns: twoSources, joins: [join(CUSTOMERS, ORDERS, 'Inner', on(...conditions))] });

describe('ModelError for a model the user can fix', () => {
  it.each<[string, ModelSpec, string, ModelErrorCode, (string | number)[]]>([
    ['no columns', model({}), 'The model has no columns yet. Add a column.', 'empty_model', ['columns']],
    [
      'only function columns and no table',
      model({ columns: [fn('f', '1 + 1')] }),
      'The model has no data yet. Add a raw data column.',
      'empty_model',
      ['columns'],
    ],
    [
      'a column of a table that is not joined',
      model({ columns: twoSources }),
      'Orders is not joined to the model. Add a relationship.',
      'source_not_joined',
      ['columns', 1, 'sourceColumn'],
    ],
    [
      'a join that never reaches the model',
      model({
        columns: [raw('customer', CUSTOMERS, 'name')],
        joins: [
          join(CUSTOMERS, COUNTRIES, 'Inner', on(eq('country', 'code'))),
          join(ORDERS, NOTES, 'Inner', on(eq('order_id', 'order_id'))),
        ],
      }),
      'Orders is not joined to the model. Add a relationship.',
      'source_not_joined',
      ['joins', 1],
    ],
    [
      'a table joined to itself',
      model({ columns: twoSources, joins: [join(CUSTOMERS, CUSTOMERS, 'Inner', on(eq('id', 'id')))] }),
      'Customers cannot be joined to itself. Use each table once.',
      'self_join',
      ['joins', 0],
    ],
    [
      'two relationships between the same tables',
      model({
        columns: twoSources,
        joins: [
          join(CUSTOMERS, ORDERS, 'Inner', on(eq('id', 'customer_id'))),
          join(ORDERS, CUSTOMERS, 'LeftOuter', on(eq('customer_id', 'id'))),
        ],
      }),
      'Orders and Customers are already joined. Put all conditions between two tables in one relationship.',
      'duplicate_join',
      ['joins', 1],
    ],
    [
      'a join with a table that is gone',
      model({
        columns: twoSources,
        joins: [join(CUSTOMERS, { sourceId: 'gone', sourceType: 'StaticTable' }, 'Inner', [])],
      }),
      'The table gone is no longer available',
      'unknown_source',
      ['joins', 0, 'rightTable'],
    ],
    [
      'an unknown join type',
      model({ columns: twoSources, joins: [join(CUSTOMERS, ORDERS, 'Cross' as 'Inner', on(eq('id', 'customer_id')))] }),
      'Unknown join type "Cross"',
      'invalid_join',
      ['joins', 0, 'joinType'],
    ],
    [
      'a join without conditions',
      model({ columns: twoSources, joins: [join(CUSTOMERS, ORDERS, 'Inner', [{ conditions: [] }])] }),
      'The relationship between Customers and Orders has no conditions',
      'invalid_join',
      ['joins', 0, 'joinGroups'],
    ],
    [
      'a condition with a side not set',
      joinedOn({ leftColumnKey: 'id', operator: 'Equals' }),
      'Relationship between Customers and Orders: each condition needs a column or a value on both sides',
      'invalid_join',
      ['joins', 0, 'joinGroups', 0, 'conditions', 0],
    ],
    [
      'a condition of two values',
      joinedOn({ leftValue: 1, operator: 'Equals', rightValue: 1 }),
      'Relationship between Customers and Orders: a condition needs a column on at least one side',
      'invalid_join',
      ['joins', 0, 'joinGroups', 0, 'conditions', 0],
    ],
    [
      'an unknown join operator',
      joinedOn({ ...eq('id', 'customer_id'), operator: 'Contains' as 'Equals' }),
      'Relationship between Customers and Orders: unknown operator "Contains"',
      'invalid_join',
      ['joins', 0, 'joinGroups', 0, 'conditions', 0, 'operator'],
    ],
    [
      'a value that is not of the column type',
      joinedOn(eq('id', 'customer_id'), { leftValue: 'ten', operator: 'LessThan', rightColumnKey: 'amount' }),
      'Relationship between Customers and Orders: "ten" is not a number',
      'invalid_number',
      ['joins', 0, 'joinGroups', 0, 'conditions', 1, 'leftValue'],
    ],
    [
      'a negative tolerance',
      joinedOn({ ...eq('score', 'amount'), format: { tolerance: -1 } }),
      'Relationship between Customers and Orders: the tolerance must be a number from 0',
      'invalid_join',
      ['joins', 0, 'joinGroups', 0, 'conditions', 0, 'format', 'tolerance'],
    ],
    [
      'an unknown date precision',
      joinedOn({ ...eq('signup', 'placed'), format: { datePrecision: 'decade' as 'day' } }),
      'Relationship between Customers and Orders: unknown date precision "decade"',
      'invalid_join',
      ['joins', 0, 'joinGroups', 0, 'conditions', 0, 'format', 'datePrecision'],
    ],
    [
      'a join condition on a removed source column',
      joinedOn(eq('id', 'buyer_id')),
      `${REMOVED} (buyer_id)`,
      'column_removed',
      ['joins', 0, 'joinGroups', 0, 'conditions', 0, 'rightColumnKey'],
    ],
    [
      'a raw column whose source column is gone',
      model({ columns: [raw('x', CUSTOMERS, 'name'), raw('y', CUSTOMERS, 'email')] }),
      `${REMOVED} (email)`,
      'column_removed',
      ['columns', 1, 'sourceColumn', 'columnKey'],
    ],
    [
      'a function column using removed model columns',
      model({ columns: [raw('x', CUSTOMERS, 'name'), fn('f', '[gone] & [x] & [lost]')] }),
      `${REMOVED} (gone, lost)`,
      'column_removed',
      ['columns', 1, 'function'],
    ],
    [
      'function columns in a cycle',
      model({
        columns: [
          raw('x', CUSTOMERS, 'score'),
          fn('a', '[b] + [x]', { displayName: 'Total' }),
          fn('b', '[c] * 2', { displayName: 'Double' }),
          fn('c', '[a] - 1', { displayName: 'Less' }),
        ],
      }),
      'Function columns cannot depend on each other in a cycle: Total → Double → Less → Total',
      'function_cycle',
      ['columns', 3, 'function'],
    ],
    [
      'a function column using itself',
      model({ columns: [raw('x', CUSTOMERS, 'score'), fn('a', '[a] + 1', { displayName: 'Self' })] }),
      'Function columns cannot depend on each other in a cycle: Self → Self',
      'function_cycle',
      ['columns', 1, 'function'],
    ],
    [
      'a formula that does not parse',
      model({ columns: [raw('x', CUSTOMERS, 'score'), fn('f', '[x] +', { displayName: 'Broken' })] }),
      'Column "Broken": ',
      'formula_syntax',
      ['columns', 1, 'function'],
    ],
    [
      'a formula of the wrong types',
      model({ columns: [raw('x', CUSTOMERS, 'name'), fn('f', 'ROUND([x])', { displayName: 'Rounded' })] }),
      'Column "Rounded": ',
      'formula_type',
      ['columns', 1, 'function'],
    ],
    [
      'a conversion that does not exist',
      model({ columns: [raw('x', CUSTOMERS, 'signup', { castTo: 'Number', displayName: 'Signed up' })] }),
      'Column "Signed up": a Date column cannot be converted to Number',
      'invalid_cast',
      ['columns', 0, 'castTo'],
    ],
    [
      'a filter on a removed column',
      model({
        columns: [raw('x', CUSTOMERS, 'name')],
        filterGroups: [{ filters: [{ columnKey: 'y', operator: 'Exists' }] }],
      }),
      `${REMOVED} (y)`,
      'column_removed',
      ['filterGroups', 0, 'filters', 0, 'columnKey'],
    ],
    [
      'a filter value that is not of the column type',
      model({
        columns: [raw('x', CUSTOMERS, 'score')],
        filterGroups: [{ filters: [{ columnKey: 'x', operator: 'Equals', value: 'abc' }] }],
      }),
      'Filter on "x": "abc" is not a number',
      'invalid_number',
      ['filterGroups', 0, 'filters', 0, 'value'],
    ],
    [
      'a sort on a removed column',
      model({ columns: [raw('x', CUSTOMERS, 'name')], sort: [{ columnKey: 'x' }, { columnKey: 'z' }] }),
      `${REMOVED} (z)`,
      'column_removed',
      ['sort', 1, 'columnKey'],
    ],
  ])('%s', (_title, spec, message, code, location) => {
    const error = modelError(spec);
    if (message.endsWith(': ')) expect(error.message.startsWith(message)).toBe(true);
    else expect(error.message).toBe(message);
    expect(error.code).toBe(code);
    expect(error.location.slice(0, location.length)).toEqual(location);
    if (code.startsWith('formula') || code === 'unknown_function') {
      // The formula's own place follows: start and end offsets into the text.
      expect(error.location).toHaveLength(location.length + 2);
    } else {
      expect(error.location).toEqual(location);
    }
  });

  it('refuses a Json column in a relationship', () => {
    const sources = model({}).sources.map((source) =>
      source.sourceId === 'ord'
        ? { ...source, columns: [...source.columns, { columnKey: 'meta', type: 'Json' as const }] }
        : source,
    );
    const error = modelError({ ...joinedOn(eq('name', 'meta')), sources });
    expect([error.message, error.code]).toEqual([
      'meta is a Json column and cannot be used in a relationship',
      'invalid_join',
    ]);
  });

  it('keeps bugs of the caller plain Errors', () => {
    const twice = model({ columns: [raw('x', CUSTOMERS, 'name'), raw('x', CUSTOMERS, 'id')] });
    expect(() => compileModelSelect(twice)).toThrow(new Error('Model column "x" is listed twice'));
    expect(() => compileModelSelect(twice)).not.toThrow(ModelError);
  });
});
