import { describe, expect, it } from 'vitest';
import { columnTypeFromName } from '../../../src/server/warehouse/column-types';
import { makeWarehouse, sql } from './helpers';

describe('column types', () => {
  it.each([
    ['BOOLEAN', 'Boolean'],
    ['TINYINT', 'Number'],
    ['INTEGER', 'Number'],
    ['BIGINT', 'Number'],
    ['HUGEINT', 'Number'],
    ['UBIGINT', 'Number'],
    ['DOUBLE', 'Number'],
    ['FLOAT', 'Number'],
    ['DECIMAL(18,3)', 'Number'],
    ['numeric(10, 2)', 'Number'],
    ['DATE', 'Date'],
    ['TIMESTAMP', 'DateTime'],
    ['TIMESTAMP_NS', 'DateTime'],
    ['TIMESTAMP WITH TIME ZONE', 'DateTime'],
    ['TIMESTAMPTZ', 'DateTime'],
    ['TIME', 'Text'],
    ['INTERVAL', 'Text'],
    ['VARCHAR', 'Text'],
    ['UUID', 'Text'],
    ['BLOB', 'Text'],
    ["ENUM('a', 'b')", 'Text'],
    ['INTEGER[]', 'Array'],
    ['VARCHAR[3]', 'Array'],
    ['STRUCT(a INTEGER)[]', 'Array'],
    ['STRUCT("a" INTEGER, "b" VARCHAR[])', 'Json'],
    ['MAP(VARCHAR, INTEGER)', 'Json'],
    ['JSON', 'Json'],
    ['UNION(num INTEGER, str VARCHAR)', 'Json'],
    ['SOMETHING_NEW', 'Text'],
  ])('%s is %s', (name, expected) => {
    expect(columnTypeFromName(name)).toBe(expected);
  });

  it('reports each result column with its column type and DuckDB type, also with no rows', async () => {
    const { warehouse } = makeWarehouse();
    const result = await warehouse.forAccount('acc-1').query(
      sql(`SELECT 1::BIGINT AS n, 'x' AS t, true AS b, DATE '2024-01-01' AS d, TIMESTAMPTZ '2024-01-01 00:00:00+00' AS ts,
             [1] AS l, {'a': 1} AS s, '{}'::JSON AS j, 1.5::DECIMAL(9,2) AS dec WHERE false`),
    );
    expect(result.rows).toEqual([]);
    expect(result.columns).toEqual([
      { name: 'n', type: 'Number', sqlType: 'BIGINT' },
      { name: 't', type: 'Text', sqlType: 'VARCHAR' },
      { name: 'b', type: 'Boolean', sqlType: 'BOOLEAN' },
      { name: 'd', type: 'Date', sqlType: 'DATE' },
      { name: 'ts', type: 'DateTime', sqlType: 'TIMESTAMP WITH TIME ZONE' },
      { name: 'l', type: 'Array', sqlType: 'INTEGER[]' },
      { name: 's', type: 'Json', sqlType: 'STRUCT("a" INTEGER)' },
      { name: 'j', type: 'Json', sqlType: 'JSON' },
      { name: 'dec', type: 'Number', sqlType: 'DECIMAL(9,2)' },
    ]);
  });
});
