import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../src/shared/model-compare';
import { EMPTY_DEFINITION, type ModelColumn, type ModelDefinition } from '../../src/shared/models';

const column = (columnKey: string, displayName: string, extra: Partial<ModelColumn> = {}): ModelColumn => ({
  columnKey,
  displayName,
  description: null,
  order: 0,
  type: 'Text',
  format: null,
  displayWidth: null,
  function: null,
  sourceColumn: { sourceId: 't1', sourceType: 'StaticTable', columnKey },
  dependentColumnKeys: [],
  error: null,
  castTo: null,
  style: null,
  ...extra,
});

describe('compareVersions', () => {
  it('lists added, removed and changed columns, filters, sort and pivots', () => {
    const before: ModelDefinition = {
      ...EMPTY_DEFINITION,
      columns: [column('aaaa', 'Name'), column('bbbb', 'City')],
      sort: [{ columnKey: 'aaaa', direction: 'Ascending' }],
    };
    const after: ModelDefinition = {
      ...EMPTY_DEFINITION,
      columns: [column('aaaa', 'Full name'), column('cccc', 'Amount'), { ...column('bbbb', 'City'), type: 'Number' }],
      filterGroups: [{ filters: [{ columnKey: 'aaaa', operator: 'Exists', conditionOperator: 'Or' }] }],
      sort: [{ columnKey: 'aaaa', direction: 'Ascending' }],
    };
    expect(compareVersions(before, after)).toEqual([
      { area: 'Columns', kind: 'changed', name: 'Full name' },
      { area: 'Columns', kind: 'added', name: 'Amount' },
      { area: 'Filters', kind: 'added', name: 'Model filters' },
    ]);
    expect(compareVersions(after, before)).toContainEqual({ area: 'Columns', kind: 'removed', name: 'Amount' });
    expect(compareVersions(before, before)).toEqual([]);
  });
});
