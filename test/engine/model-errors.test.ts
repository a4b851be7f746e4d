import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/engine/errors';
import type { FilterSpec, TableQuery } from '../../src/engine/ir';
import { compileCountQuery, compilePageQuery } from '../../src/engine/table-query';
import { tableQuery, withFilters } from './fixture';

function modelError(run: () => unknown): ModelError {
  try {
    run();
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('Expected a ModelError');
}

const filterError = (filter: FilterSpec): ModelError => modelError(() => compilePageQuery(withFilters(filter)));

describe('ModelError for what a user can fix', () => {
  it.each<[string, FilterSpec, string, string, (string | number)[]]>([
    [
      'an unknown column',
      { columnKey: 'foo', operator: 'Equals', value: 1 },
      'Unknown column "foo"',
      'unknown_column',
      ['columnKey'],
    ],
    [
      'an unknown operator',
      { columnKey: 'amount', operator: 'Like' as FilterSpec['operator'], value: 1 },
      'Filter on "amount": unknown operator "Like"',
      'unknown_operator',
      ['operator'],
    ],
    [
      'Contains on a number',
      { columnKey: 'amount', operator: 'Contains', value: '1' },
      'Filter on "amount": Contains does not apply to a Number column',
      'operator_not_applicable',
      ['operator'],
    ],
    [
      'Between on text',
      { columnKey: 'name', operator: 'Between', value: 'a', value2: 'b' },
      'Filter on "Name": Between does not apply to a Text column',
      'operator_not_applicable',
      ['operator'],
    ],
    [
      'Equals on an array',
      { columnKey: 'tags', operator: 'Equals', value: 'red' },
      'Filter on "tags": Equals does not apply to a Array column',
      'operator_not_applicable',
      ['operator'],
    ],
    [
      'GreaterThan on a boolean',
      { columnKey: 'active', operator: 'GreaterThan', value: true },
      'Filter on "active": GreaterThan does not apply to a Boolean column',
      'operator_not_applicable',
      ['operator'],
    ],
    [
      'a missing value',
      { columnKey: 'amount', operator: 'Equals' },
      'Filter on "amount": please enter a value',
      'missing_value',
      ['value'],
    ],
    [
      'a null value',
      { columnKey: 'born', operator: 'LessThan', value: null },
      'Filter on "born": please enter a value',
      'missing_value',
      ['value'],
    ],
    [
      'an empty text value',
      { columnKey: 'name', operator: 'Contains', value: '' },
      'Filter on "Name": please enter a value',
      'missing_value',
      ['value'],
    ],
    [
      'a blank number',
      { columnKey: 'amount', operator: 'Equals', value: '   ' },
      'Filter on "amount": please enter a value',
      'missing_value',
      ['value'],
    ],
    [
      'Between without value2',
      { columnKey: 'amount', operator: 'Between', value: 1 },
      'Filter on "amount": please enter a value',
      'missing_value',
      ['value2'],
    ],
    [
      'a word for a number',
      { columnKey: 'amount', operator: 'Equals', value: 'abc' },
      'Filter on "amount": "abc" is not a number',
      'invalid_number',
      ['value'],
    ],
    [
      'a boolean for a number',
      { columnKey: 'amount', operator: 'GreaterThan', value: true },
      'Filter on "amount": "true" is not a number',
      'invalid_number',
      ['value'],
    ],
    [
      'Infinity',
      { columnKey: 'qty', operator: 'LessThan', value: '1e999' },
      'Filter on "qty": "1e999" is not a number',
      'invalid_number',
      ['value'],
    ],
    [
      'SQL as a number',
      { columnKey: 'qty', operator: 'Between', value: 1, value2: '1; DROP TABLE x' },
      'Filter on "qty": "1; DROP TABLE x" is not a number',
      'invalid_number',
      ['value2'],
    ],
    [
      'maybe as a boolean',
      { columnKey: 'active', operator: 'Equals', value: 'maybe' },
      'Filter on "active": "maybe" is not true or false',
      'invalid_boolean',
      ['value'],
    ],
    [
      'the 30th of February',
      { columnKey: 'born', operator: 'Equals', value: '2024-02-30' },
      'Filter on "born": "2024-02-30" is not a date (use YYYY-MM-DD)',
      'invalid_date',
      ['value'],
    ],
    [
      'a number as a date',
      { columnKey: 'born', operator: 'Equals', value: 20240101 },
      'Filter on "born": "20240101" is not a date (use YYYY-MM-DD)',
      'invalid_date',
      ['value'],
    ],
    [
      'hour 25',
      { columnKey: 'seen', operator: 'GreaterThan', value: '2024-03-01T25:00:00Z' },
      'Filter on "seen": "2024-03-01T25:00:00Z" is not a date and time (use ISO 8601, e.g. 2024-03-01T14:30:00Z)',
      'invalid_datetime',
      ['value'],
    ],
    [
      'yesterday',
      { columnKey: 'seen', operator: 'Between', value: '2024-01-01', value2: 'yesterday' },
      'Filter on "seen": "yesterday" is not a date and time (use ISO 8601, e.g. 2024-03-01T14:30:00Z)',
      'invalid_datetime',
      ['value2'],
    ],
  ])('refuses %s', (_title, filter, message, code, path) => {
    const error = filterError(filter);
    expect(error.message).toBe(message);
    expect(error.code).toBe(code);
    expect(error.location).toEqual(['filterGroups', 0, 'filters', 0, ...path]);
  });

  it('cuts long values short in messages', () => {
    const error = filterError({ columnKey: 'amount', operator: 'Equals', value: 'x'.repeat(500) });
    expect(error.message).toBe(`Filter on "amount": "${'x'.repeat(57)}..." is not a number`);
  });

  it('points at the filter and group', () => {
    const query = tableQuery({
      filterGroups: [
        { filters: [{ columnKey: 'amount', operator: 'Exists' }] },
        {
          filters: [
            { columnKey: 'amount', operator: 'Exists' },
            { columnKey: 'nope', operator: 'Exists' },
          ],
        },
      ],
    });
    expect(modelError(() => compileCountQuery(query)).location).toEqual(['filterGroups', 1, 'filters', 1, 'columnKey']);
  });

  it.each<[string, Partial<TableQuery>, string, string, (string | number)[]]>([
    [
      'sorting on an unknown column',
      { sorting: [{ columnKey: 'zz' }] },
      'Unknown column "zz"',
      'unknown_column',
      ['sorting', 0, 'columnKey'],
    ],
    [
      'an unknown sort direction',
      { sorting: [{ columnKey: 'qty', direction: 'Up' as 'Ascending' }] },
      'Sort on "qty": unknown direction "Up"',
      'invalid_sorting',
      ['sorting', 0, 'direction'],
    ],
    ['selecting an unknown column', { select: ['name', 'zz'] }, 'Unknown column "zz"', 'unknown_column', ['select', 1]],
    [
      'page 0',
      { page: { page: 0, pageSize: 50 } },
      'Page must be a whole number from 1, got 0',
      'invalid_page',
      ['page', 'page'],
    ],
    [
      'a fractional page size',
      { page: { page: 1, pageSize: 2.5 } },
      'Page size must be a whole number from 1, got 2.5',
      'invalid_page',
      ['page', 'pageSize'],
    ],
    [
      'a page beyond any table',
      { page: { page: 2 ** 52, pageSize: 1000 } },
      `Page ${2 ** 52} is beyond any table`,
      'invalid_page',
      ['page', 'page'],
    ],
    [
      'a NUL in a table name',
      { source: { kind: 'table', schema: 'static', name: 't\0x' } },
      'The name "t\\0x" contains a NUL character',
      'invalid_identifier',
      ['source', 'name'],
    ],
    [
      'an empty schema name',
      { source: { kind: 'table', schema: '', name: 't' } },
      'A name cannot be empty',
      'invalid_identifier',
      ['source', 'schema'],
    ],
    [
      'a NUL in a column key',
      { columns: [{ columnKey: 'a\0', type: 'Text' }] },
      'The name "a\\0" contains a NUL character',
      'invalid_identifier',
      ['columns', 0, 'columnKey'],
    ],
  ])('refuses %s', (_title, overrides, message, code, location) => {
    const error = modelError(() => compilePageQuery(tableQuery(overrides)));
    expect([error.message, error.code, error.location]).toEqual([message, code, location]);
  });

  it('keeps bugs in the caller plain errors', () => {
    const query = tableQuery({
      columns: [
        { columnKey: 'a', type: 'Text' },
        { columnKey: 'a', type: 'Number' },
      ],
    });
    expect(() => compilePageQuery(query)).toThrow(Error);
    expect(() => compilePageQuery(query)).not.toThrow(ModelError);
  });
});
