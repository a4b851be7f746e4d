import { describe, expect, it } from 'vitest';
import type { Filter, FilterGroup } from '../../../src/shared/tables';
import { expectError, makeApp, signIn } from '../helpers';
import { infiniteScroll, keyOf, ok, tableFromCsv } from '../static-tables/helpers';

const CSV = [
  'Name,Amount,Day,At,Active',
  'Alpha,10,2024-01-05,2024-01-05 10:00:00,true',
  'beta,25.5,2024-02-10,2024-02-10 12:30:00,false',
  'Gamma,-3,2024-03-15,2024-03-15 08:00:00,true',
  'delta,,2024-02-29,,',
  'Epsilon,100,,2024-12-31 23:59:59,false',
].join('\n');

type Condition = Omit<Filter, 'columnKey' | 'conditionOperator'> & { column: string; conditionOperator?: 'And' | 'Or' };

async function imported() {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const table = await tableFromCsv(t, cookie, CSV);
  const group = (...conditions: Condition[]): FilterGroup => ({
    filters: conditions.map(({ column, conditionOperator = 'Or', ...rest }) => ({
      ...rest,
      columnKey: keyOf(table, column),
      conditionOperator,
    })),
  });
  /** Names of the rows matching the filter groups, in row order. */
  const names = async (...filterGroups: FilterGroup[]) => {
    const res = ok(await infiniteScroll(t, cookie, table.id, { filterGroups }));
    return res.data.map((row) => row[keyOf(table, 'Name')]);
  };
  return { t, cookie, table, group, names };
}

describe('filters on an imported CSV', () => {
  it('detects the column types', async () => {
    const { table } = await imported();
    expect(table.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['Name', 'Text'],
      ['Amount', 'Number'],
      ['Day', 'Date'],
      ['At', 'DateTime'],
      ['Active', 'Boolean'],
    ]);
  });

  it('filters numbers', async () => {
    const { group, names } = await imported();
    const amount = (operator: Filter['operator'], value?: number | string, value2?: number) =>
      names(group({ column: 'Amount', operator, value, value2 }));
    expect(await amount('Equals', 10)).toEqual(['Alpha']);
    expect(await amount('Equals', '25.5')).toEqual(['beta']);
    // Negative operators keep blank cells.
    expect(await amount('NotEquals', 10)).toEqual(['beta', 'Gamma', 'delta', 'Epsilon']);
    expect(await amount('GreaterThan', 10)).toEqual(['beta', 'Epsilon']);
    expect(await amount('GreaterThanOrEquals', 10)).toEqual(['Alpha', 'beta', 'Epsilon']);
    expect(await amount('LessThan', 10)).toEqual(['Gamma']);
    expect(await amount('LessThanOrEquals', 10)).toEqual(['Alpha', 'Gamma']);
    expect(await amount('Between', -3, 25.5)).toEqual(['Alpha', 'beta', 'Gamma']);
    expect(await amount('Empty')).toEqual(['delta']);
    expect(await amount('Exists')).toEqual(['Alpha', 'beta', 'Gamma', 'Epsilon']);
  });

  it('filters dates and date-times given as ISO text', async () => {
    const { group, names } = await imported();
    expect(await names(group({ column: 'Day', operator: 'Equals', value: '2024-02-10' }))).toEqual(['beta']);
    expect(
      await names(group({ column: 'Day', operator: 'Between', value: '2024-02-01', value2: '2024-02-29' })),
    ).toEqual(['beta', 'delta']);
    expect(await names(group({ column: 'Day', operator: 'GreaterThan', value: '2024-02-29' }))).toEqual(['Gamma']);
    expect(await names(group({ column: 'Day', operator: 'Empty' }))).toEqual(['Epsilon']);
    expect(await names(group({ column: 'At', operator: 'GreaterThan', value: '2024-02-10T12:00:00Z' }))).toEqual([
      'beta',
      'Gamma',
      'Epsilon',
    ]);
    expect(await names(group({ column: 'At', operator: 'LessThan', value: '2024-02-01' }))).toEqual(['Alpha']);
  });

  it('filters text, ignoring case for Contains', async () => {
    const { group, names } = await imported();
    expect(await names(group({ column: 'Name', operator: 'Contains', value: 'LPH' }))).toEqual(['Alpha']);
    expect(await names(group({ column: 'Name', operator: 'NotContains', value: 'ta' }))).toEqual([
      'Alpha',
      'Gamma',
      'Epsilon',
    ]);
    expect(await names(group({ column: 'Name', operator: 'Equals', value: 'beta' }))).toEqual(['beta']);
    expect(await names(group({ column: 'Name', operator: 'NotEquals', value: 'beta' }))).toHaveLength(4);
  });

  it('filters booleans', async () => {
    const { group, names } = await imported();
    expect(await names(group({ column: 'Active', operator: 'Equals', value: true }))).toEqual(['Alpha', 'Gamma']);
    expect(await names(group({ column: 'Active', operator: 'Equals', value: false }))).toEqual(['beta', 'Epsilon']);
    expect(await names(group({ column: 'Active', operator: 'Empty' }))).toEqual(['delta']);
  });

  it('joins filters by their condition operator (Or by default) and groups with And', async () => {
    const { group, names } = await imported();
    const either = group(
      { column: 'Amount', operator: 'GreaterThan', value: 50 },
      { column: 'Name', operator: 'Equals', value: 'Alpha' },
    );
    expect(await names(either)).toEqual(['Alpha', 'Epsilon']);
    const both = group(
      { column: 'Active', operator: 'Equals', value: true },
      { column: 'Amount', operator: 'GreaterThan', value: 0, conditionOperator: 'And' },
    );
    expect(await names(both)).toEqual(['Alpha']);
    const notEpsilon = group({ column: 'Name', operator: 'NotEquals', value: 'Epsilon' });
    expect(await names(either, notEpsilon)).toEqual(['Alpha']);
    expect(await names(group(), either)).toEqual(['Alpha', 'Epsilon']);
  });

  it('refuses values of the wrong type and missing values with 400 naming the column', async () => {
    const { t, cookie, table, group } = await imported();
    const refused = async (condition: Condition) => {
      const res = await infiniteScroll(t, cookie, table.id, { filterGroups: [group(condition)] });
      return expectError(res, 400);
    };
    expect(await refused({ column: 'Amount', operator: 'Equals', value: 'ten' })).toBe(
      'Filter on "Amount": "ten" is not a number',
    );
    expect(await refused({ column: 'Day', operator: 'Equals', value: 'not a date' })).toMatch(
      /^Filter on "Day": "not a date" is not a date/,
    );
    expect(await refused({ column: 'Amount', operator: 'Between', value: 1 })).toMatch(/^Filter on "Amount": /);
    expect(await refused({ column: 'Name', operator: 'Equals' })).toMatch(/^Filter on "Name": /);
  });
});
