/** The shared Pivot schema and helpers the server and client use. */
import { describe, expect, it } from 'vitest';
import { columnFormatSchema } from '../../src/shared/models';
import { newPivot, pivotSchema, pivotValueDecimals, pivotValueLabel } from '../../src/shared/pivots';

describe('shared pivot definitions', () => {
  it("names a new pivot 'Pivot table N' after the largest N in use, with both totals on and a fresh key", () => {
    const first = newPivot([]);
    expect(first).toMatchObject({
      name: 'Pivot table 1',
      showRowTotals: true,
      showColumnTotals: true,
      rows: [],
      values: [],
    });
    expect(first.key).toMatch(/^[a-z]{4}$/);
    const existing = [
      { key: 'aaaa', name: 'Pivot table 4' },
      { key: 'bbbb', name: 'Sales' },
    ];
    // A random source that first returns the taken key 'aaaa', then 'bbbb', then 'cccc'.
    const draws = [...Array(4).fill(0), ...Array(4).fill(1 / 26), ...Array(4).fill(2 / 26)];
    const pivot = newPivot(existing, () => draws.shift()!);
    expect(pivot).toMatchObject({ key: 'cccc', name: 'Pivot table 5' });
    expect(newPivot([{ key: 'abcd', name: 'Mine' }]).name).toBe('Pivot table 2');
  });

  it('fills the defaults of the spec: Sum, Default, ascending by key, no time grain, both totals, no chart', () => {
    const pivot = pivotSchema.parse({ key: 'abcd', name: ' P ', rows: [{ column: 'a' }], values: [{ column: 'b' }] });
    expect(pivot).toEqual({
      key: 'abcd',
      name: 'P',
      filters: [],
      rows: [{ column: 'a', sort: { direction: 'Ascending', valueIndex: null }, grain: null }],
      columns: [],
      values: [{ column: 'b', function: 'Sum', showAs: 'Default', displayName: null }],
      showRowTotals: true,
      showColumnTotals: true,
      chart: null,
    });
    expect(pivotSchema.safeParse({ key: 'abcd', name: 'P', rows: [{ column: 'a', grain: 'hour' }] }).success).toBe(
      false,
    );
    expect(pivotSchema.safeParse({ key: 'abcd', name: 'P', chart: { type: 'radar' } }).success).toBe(false);
    expect(pivotSchema.parse({ key: 'abcd', name: 'P', chart: {} }).chart).toEqual({ type: 'bar', shown: true });
    expect(
      pivotSchema.safeParse({ key: 'abcd', name: 'P', values: [{ column: 'b', function: 'Median' }] }).success,
    ).toBe(false);
  });

  it('labels a value by its display name, or by aggregation and column', () => {
    expect(pivotValueLabel({ function: 'CountUnique', displayName: null }, 'City')).toBe('Count unique of City');
    expect(pivotValueLabel({ function: 'Avg', displayName: '  ' }, 'Amount')).toBe('Average of Amount');
    expect(pivotValueLabel({ function: 'Sum', displayName: 'Revenue' }, 'Amount')).toBe('Revenue');
  });

  it('names a percentage by its show-as first: of a sum by the column, else by the aggregate', () => {
    expect(pivotValueLabel({ function: 'Sum', showAs: 'PercentOfRow', displayName: null }, 'Amount')).toBe(
      '% of Row · Amount',
    );
    expect(pivotValueLabel({ function: 'Count', showAs: 'PercentOfGrandTotal', displayName: null }, 'Id')).toBe(
      '% of Grand Total · Count of Id',
    );
    expect(pivotValueLabel({ function: 'Sum', showAs: 'Default', displayName: null }, 'Amount')).toBe('Sum of Amount');
  });

  it('gives each value field one number of decimals: its format, else by aggregate and SQL type', () => {
    const sum = { function: 'Sum', showAs: 'Default' } as const;
    expect(pivotValueDecimals(sum, { sqlType: 'BIGINT' })).toBe(0);
    expect(pivotValueDecimals(sum, { sqlType: 'HUGEINT' })).toBe(0);
    expect(pivotValueDecimals(sum, { sqlType: 'DOUBLE' })).toBe(2);
    expect(pivotValueDecimals(sum, { sqlType: 'DECIMAL(18,6)' })).toBe(2);
    expect(pivotValueDecimals(sum, {})).toBe(2);
    expect(pivotValueDecimals({ function: 'Avg', showAs: 'Default' }, { sqlType: 'INTEGER' })).toBe(2);
    expect(pivotValueDecimals({ function: 'Count', showAs: 'Default' }, { sqlType: 'DOUBLE' })).toBe(0);
    expect(pivotValueDecimals({ function: 'Count', showAs: 'PercentOfRow' }, {})).toBe(2);
    const format = { ...columnFormatSchema.parse({}), decimalPlaces: 3 };
    expect(pivotValueDecimals(sum, { sqlType: 'BIGINT', format })).toBe(3);
    expect(pivotValueDecimals({ function: 'Sum', showAs: 'PercentOfColumn' }, { format })).toBe(2);
  });
});
