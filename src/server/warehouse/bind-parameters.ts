import { BIGINT, BOOLEAN, DOUBLE, HUGEINT, INTEGER, SQLNULL, VARCHAR, type DuckDBType } from '@duckdb/node-api';
import type { SqlValue } from '../../engine/sql';

const INT32_MAX = 2_147_483_647;
const INT64_MAX = 9_223_372_036_854_775_807n;

/**
 * Explicit DuckDB types for `$1..$n` values. Left to inference, a whole JS number above 2^63 (1e20)
 * would be bound as BIGINT and fail, so integers that are not exact stay DOUBLE.
 */
export function parameterTypes(parameters: readonly SqlValue[]): DuckDBType[] {
  return parameters.map((value) => {
    if (value === null) return SQLNULL;
    switch (typeof value) {
      case 'string':
        return VARCHAR;
      case 'boolean':
        return BOOLEAN;
      case 'bigint':
        return value <= INT64_MAX && value >= -INT64_MAX - 1n ? BIGINT : HUGEINT;
      case 'number':
        if (!Number.isSafeInteger(value)) return DOUBLE;
        return Math.abs(value) <= INT32_MAX ? INTEGER : BIGINT;
    }
  });
}
