import { describe, expect, it } from 'vitest';
import { compileModelSelect, validateModel, type ModelSpec, type PivotRefs } from '../../src/engine/model';
import { CUSTOMERS, ORDERS, eq, fn, join, model, raw } from './model-fixture';

const removed = (...keys: string[]): string =>
  `A column has been removed from the model. Please select another column. (${keys.join(', ')})`;

/** A model that compiles: customers and their orders, a function column, filters, a sort and a pivot. */
const healthy: ModelSpec = model({
  columns: [
    raw('cust', CUSTOMERS, 'name'),
    raw('amt', ORDERS, 'amount'),
    fn('dbl', '[amt] * 2'),
    fn('lbl', `[cust] & ': ' & TO_TEXT([dbl])`),
  ],
  joins: [
    join(CUSTOMERS, ORDERS, 'LeftOuter', [
      { conditions: [eq('id', 'customer_id')] },
      { conditions: [{ leftColumnKey: 'score', operator: 'Equals', rightValue: 3 }] },
    ]),
  ],
  filterGroups: [
    {
      filters: [
        { columnKey: 'amt', operator: 'Exists' },
        { columnKey: 'dbl', operator: 'Exists' },
      ],
    },
  ],
  sort: [{ columnKey: 'cust' }, { columnKey: 'lbl', direction: 'Descending' }],
});

const pivot: PivotRefs = {
  key: 'p1',
  rows: [{ column: 'cust' }],
  columns: [{ column: 'lbl' }],
  values: [{ column: 'amt' }, { column: 'dbl' }],
  filters: [{ column: 'cust' }],
};

const withoutColumn = (spec: ModelSpec, key: string): ModelSpec => ({
  ...spec,
  columns: spec.columns.filter((column) => column.columnKey !== key),
});

describe('validateModel', () => {
  it('finds nothing in a model that compiles', () => {
    expect(() => compileModelSelect(healthy)).not.toThrow();
    expect(validateModel(healthy, [pivot])).toEqual({
      columns: [],
      joins: [],
      pivots: [],
      filterGroups: [],
      sorting: [],
      hasBreakingErrors: false,
      texts: [],
    });
  });

  it('marks every reference to a removed model column, in function columns, filters, sort and pivots', () => {
    const errors = validateModel(withoutColumn(healthy, 'amt'), [pivot]);
    expect(errors.columns).toEqual([
      {
        columnKey: 'dbl',
        message: removed('amt'),
        missingColumnKeys: ['amt'],
        location: ['columns', 1, 'function'],
      },
    ]);
    expect(errors.filterGroups).toEqual([
      {
        groupIndex: 0,
        filterIndex: 0,
        message: removed('amt'),
        missingColumnKeys: ['amt'],
        location: ['filterGroups', 0, 'filters', 0, 'columnKey'],
      },
    ]);
    expect(errors.pivots).toEqual([
      {
        pivotKey: 'p1',
        section: 'values',
        index: 0,
        message: removed('amt'),
        missingColumnKeys: ['amt'],
        location: ['pivots', 0, 'values', 0, 'column'],
      },
    ]);
    expect(errors.sorting).toEqual([]);
    expect(errors.joins).toEqual([]);
    expect(errors.hasBreakingErrors).toBe(true);
    expect(errors.texts).toEqual([removed('amt')]);
  });

  it('reports a sort entry and each pivot section by its place', () => {
    const errors = validateModel(withoutColumn(withoutColumn(healthy, 'lbl'), 'cust'), [pivot]);
    expect(errors.sorting.map((issue) => [issue.index, issue.message, issue.location])).toEqual([
      [0, removed('cust'), ['sort', 0, 'columnKey']],
      [1, removed('lbl'), ['sort', 1, 'columnKey']],
    ]);
    expect(errors.pivots.map((issue) => [issue.section, issue.index, issue.missingColumnKeys])).toEqual([
      ['rows', 0, ['cust']],
      ['columns', 0, ['lbl']],
      ['filters', 0, ['cust']],
    ]);
    expect(errors.texts).toEqual([removed('cust'), removed('lbl')]);
  });

  it('lists all missing keys of a function column in one issue', () => {
    const spec = withoutColumn(withoutColumn(healthy, 'cust'), 'dbl');
    const errors = validateModel(spec);
    expect(errors.columns).toEqual([
      {
        columnKey: 'lbl',
        message: removed('cust', 'dbl'),
        missingColumnKeys: ['cust', 'dbl'],
        location: ['columns', 1, 'function'],
      },
    ]);
  });

  it('marks join condition sides whose source column is gone, and raw columns of gone source columns', () => {
    const sources = healthy.sources.map((source) =>
      source.sourceId === CUSTOMERS.sourceId
        ? {
            ...source,
            columns: source.columns.filter(
              (c) => c.columnKey !== 'id' && c.columnKey !== 'name' && c.columnKey !== 'score',
            ),
          }
        : source,
    );
    const errors = validateModel({ ...healthy, sources });
    expect(errors.joins).toEqual([
      {
        joinIndex: 0,
        groupIndex: 0,
        conditionIndex: 0,
        side: 'left',
        message: removed('id'),
        missingColumnKeys: ['id'],
        location: ['joins', 0, 'joinGroups', 0, 'conditions', 0, 'leftColumnKey'],
      },
      {
        joinIndex: 0,
        groupIndex: 1,
        conditionIndex: 0,
        side: 'left',
        message: removed('score'),
        missingColumnKeys: ['score'],
        location: ['joins', 0, 'joinGroups', 1, 'conditions', 0, 'leftColumnKey'],
      },
    ]);
    expect(errors.columns).toEqual([
      {
        columnKey: 'cust',
        message: removed('name'),
        missingColumnKeys: ['name'],
        location: ['columns', 0, 'sourceColumn', 'columnKey'],
      },
    ]);
    expect(errors.hasBreakingErrors).toBe(true);
    expect(errors.texts).toEqual([removed('name'), removed('id'), removed('score')]);
  });

  it('treats every key of a source that is gone as removed', () => {
    const errors = validateModel({
      ...healthy,
      sources: healthy.sources.filter((s) => s.sourceId !== ORDERS.sourceId),
    });
    expect(errors.joins.map((issue) => [issue.side, issue.missingColumnKeys])).toEqual([['right', ['customer_id']]]);
    expect(errors.columns.map((issue) => [issue.columnKey, issue.missingColumnKeys])).toEqual([['amt', ['amount']]]);
  });

  it('is not breaking when only pivots refer to removed columns', () => {
    const errors = validateModel(healthy, [{ ...pivot, rows: [{ column: 'gone' }] }]);
    expect(errors.pivots.map((issue) => issue.location)).toEqual([['pivots', 0, 'rows', 0, 'column']]);
    expect(errors.hasBreakingErrors).toBe(false);
    expect(errors.texts).toEqual([removed('gone')]);
  });

  it('reports a formula that does not parse on its column, as breaking', () => {
    const spec = { ...healthy, columns: [...healthy.columns, fn('bad', '[amt] +')] };
    const errors = validateModel(spec);
    expect(errors.columns).toHaveLength(1);
    expect(errors.columns[0]).toMatchObject({
      columnKey: 'bad',
      missingColumnKeys: [],
      location: ['columns', 4, 'function'],
    });
    expect(errors.columns[0]!.message).not.toBe('');
    expect(errors.hasBreakingErrors).toBe(true);
  });
});
