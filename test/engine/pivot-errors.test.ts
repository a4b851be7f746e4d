/** Pivots the user can fix are refused with a ModelError: its code, its location and words a person reads. */
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/engine/errors';
import { compilePivotColumnKeys, compilePivotQuery, readPivotColumnKeys, type PivotSpec } from '../../src/engine/pivot';
import { PIVOT_MAX_COLUMN_KEYS } from '../../src/shared/pivots';
import { SALES, SALES_COLUMNS, pivotSpec } from './pivot-fixture';

function errorOf(pivot: PivotSpec, columnKeys: (string | null)[][] = [], page = { offset: 0, limit: 200 }): ModelError {
  try {
    compilePivotQuery({ relation: SALES, columns: SALES_COLUMNS, pivot, columnKeys, page });
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('The pivot compiled');
}

const fields = { rows: [{ column: 'region' }] };

describe('pivot ModelErrors', () => {
  it.each([
    [
      'an unknown row field',
      pivotSpec({ rows: [{ column: 'nope' }] }),
      'unknown_column',
      ['rows', 0, 'column'],
      'Unknown column "nope"',
    ],
    [
      'a Json column field',
      pivotSpec({ columns: [{ column: 'meta' }] }),
      'field_not_pivotable',
      ['columns', 0, 'column'],
      'Columns: "meta" is a Json column, which a pivot cannot group or aggregate',
    ],
    [
      'an Array row field',
      pivotSpec({ rows: [{ column: 'region' }, { column: 'tags' }] }),
      'field_not_pivotable',
      ['rows', 1, 'column'],
      'Rows: "tags" is an Array column, which a pivot cannot group or aggregate',
    ],
    [
      'an Array value, even counted',
      pivotSpec({ ...fields, values: [{ column: 'tags', function: 'Count' }] }),
      'field_not_pivotable',
      ['values', 0, 'column'],
      'Values: "tags" is an Array column, which a pivot cannot group or aggregate',
    ],
    [
      'Sum of Text',
      pivotSpec({ ...fields, values: [{ column: 'qty' }, { column: 'city' }] }),
      'aggregation_not_applicable',
      ['values', 1, 'function'],
      'Values: Sum does not apply to "City", a Text column (use Count, Count unique, Min, Max)',
    ],
    [
      'Avg of a Date',
      pivotSpec({ values: [{ column: 'day', function: 'Avg' }] }),
      'aggregation_not_applicable',
      ['values', 0, 'function'],
      'Values: Average does not apply to "day", a Date column (use Count, Count unique, Min, Max)',
    ],
    [
      'Max of a Boolean',
      pivotSpec({ values: [{ column: 'paid', function: 'Max' }] }),
      'aggregation_not_applicable',
      ['values', 0, 'function'],
      'Values: Max does not apply to "paid", a Boolean column (use Count, Count unique)',
    ],
    [
      'a percentage of dates',
      pivotSpec({ values: [{ column: 'at', function: 'Min', showAs: 'PercentOfRow' }] }),
      'show_as_not_applicable',
      ['values', 0, 'showAs'],
      'Values: % of Row needs a number, but Min of "at" is a DateTime',
    ],
    [
      'an unknown aggregation',
      pivotSpec({ values: [{ column: 'qty', function: 'Median' as never }] }),
      'invalid_pivot',
      ['values', 0, 'function'],
      'Values: unknown aggregation "Median"',
    ],
    [
      'a sort by a value field that does not exist',
      pivotSpec({ rows: [{ column: 'region', sort: { valueIndex: 1 } }], values: [{ column: 'qty' }] }),
      'invalid_sorting',
      ['rows', 0, 'sort', 'valueIndex'],
      'Rows: "Region" is sorted by a value field that does not exist (the pivot has values 1 to 1)',
    ],
    [
      'a sort by value without values',
      pivotSpec({ columns: [{ column: 'year', sort: { valueIndex: 0 } }] }),
      'invalid_sorting',
      ['columns', 0, 'sort', 'valueIndex'],
      'Columns: "Year" is sorted by a value field that does not exist (the pivot has no values)',
    ],
    [
      'a filter on an unknown column',
      pivotSpec({
        ...fields,
        filters: [
          { column: 'qty', operator: 'Exists' },
          { column: 'gone', operator: 'Exists' },
        ],
      }),
      'unknown_column',
      ['filters', 1, 'column'],
      'Unknown column "gone"',
    ],
    [
      'a filter value that is not a number',
      pivotSpec({ ...fields, filters: [{ column: 'amount', operator: 'GreaterThan', value: 'ten' }] }),
      'invalid_number',
      ['filters', 0, 'value'],
      'Filter on "Amount": "ten" is not a number',
    ],
  ] as const)('refuses %s', (_title, pivot, code, location, message) => {
    const error = errorOf(pivot);
    expect({ code: error.code, location: error.location, message: error.message }).toEqual({ code, location, message });
  });

  it('refuses a page that is not whole numbers from 0', () => {
    expect(errorOf(pivotSpec(fields), [], { offset: -1, limit: 200 }).location).toEqual(['page', 'offset']);
    expect(errorOf(pivotSpec(fields), [], { offset: 0, limit: 1.5 }).code).toBe('invalid_page');
  });

  it('names the column fields and the limit when they have too many combinations', () => {
    const pivot = pivotSpec({ columns: [{ column: 'region' }, { column: 'year' }], values: [{ column: 'qty' }] });
    const rows = Array.from({ length: 4 }, (_, index) => ({ k0: `r${index}`, k1: String(index) }));
    expect(readPivotColumnKeys({ columns: SALES_COLUMNS, pivot, rows: rows.slice(0, 3), limit: 3 })).toEqual([
      ['r0', '0'],
      ['r1', '1'],
      ['r2', '2'],
    ]);
    expect(() => readPivotColumnKeys({ columns: SALES_COLUMNS, pivot, rows, limit: 3 })).toThrow(
      new ModelError(
        'The column fields "Region", "Year" have more than 3 combinations of values; a pivot shows at most 3 columns per value. ' +
          'Filter the pivot, or choose a column field with fewer values.',
        'too_many_column_keys',
        ['columns'],
      ),
    );
    const one = pivotSpec({ columns: [{ column: 'city' }], values: [{ column: 'qty' }] });
    expect(() => readPivotColumnKeys({ columns: SALES_COLUMNS, pivot: one, rows, limit: 2 })).toThrow(
      /^The column field "City" has more than 2 values;/,
    );
  });

  it(`refuses more than ${PIVOT_MAX_COLUMN_KEYS} column keys in the pivot query`, () => {
    const pivot = pivotSpec({ columns: [{ column: 'city' }], values: [{ column: 'qty' }] });
    const keys = Array.from({ length: PIVOT_MAX_COLUMN_KEYS + 1 }, (_, index) => [String(index)]);
    expect(errorOf(pivot, keys).code).toBe('too_many_column_keys');
    expect(() =>
      compilePivotColumnKeys({ relation: SALES, columns: SALES_COLUMNS, pivot, limit: PIVOT_MAX_COLUMN_KEYS + 1 }),
    ).toThrow(Error);
  });

  it('treats a column key of the wrong shape as a bug, not a user error', () => {
    const pivot = pivotSpec({ columns: [{ column: 'city' }], values: [{ column: 'qty' }] });
    expect(() =>
      compilePivotQuery({
        relation: SALES,
        columns: SALES_COLUMNS,
        pivot,
        columnKeys: [['a', 'b']],
        page: { offset: 0, limit: 1 },
      }),
    ).toThrow(/^A column key has 2 parts, not 1$/);
  });
});
