import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import type { ColumnType } from '../../shared/tables';

/**
 * Which of the spec's column types a DuckDB type is shown as. Times of day and intervals have no
 * column type of their own and show as Text (their values are ISO text, see json-values.ts).
 */

/**
 * DuckDB's whole-number types as its catalog and sniffer print them: their casts from text round a
 * decimal (`1.5` to 2) and drop leading zeros, so callers check such text first.
 */
export const WHOLE_NUMBER_TYPES: readonly string[] =
  'TINYINT SMALLINT INTEGER BIGINT HUGEINT UTINYINT USMALLINT UINTEGER UBIGINT UHUGEINT'.split(' ');
export const isWholeNumberType = (sqlType: string): boolean => WHOLE_NUMBER_TYPES.includes(sqlType.toUpperCase());

/** The digits after the second each timestamp type holds (the engine compares filter values in them). */
export { FRACTION_DIGITS_OF } from '../../engine/values/dates';

/** Type names, with the aliases DuckDB accepts in DDL and may print back. */
const NUMBER_TYPES = new Set([
  ...WHOLE_NUMBER_TYPES,
  ...(
    'FLOAT DOUBLE DECIMAL BIGNUM VARINT INT1 INT2 INT4 INT8 INT16 INT INT128 SHORT LONG SIGNED REAL FLOAT4 FLOAT8 ' +
    'NUMERIC UINT8 UINT16 UINT32 UINT64 UINT128'
  ).split(' '),
]);
const DATE_TIME_TYPES = new Set(
  'TIMESTAMP DATETIME TIMESTAMP_S TIMESTAMP_MS TIMESTAMP_NS TIMESTAMP_US TIMESTAMPTZ'
    .split(' ')
    .concat('TIMESTAMP WITH TIME ZONE'),
);
const JSON_TYPES = new Set(['STRUCT', 'MAP', 'UNION', 'JSON', 'VARIANT']);

/** From a type name as DESCRIBE or information_schema print it, e.g. `DECIMAL(18,3)` or `VARCHAR[]`. */
export function columnTypeFromName(typeName: string): ColumnType {
  const name = typeName.trim().toUpperCase();
  // A trailing [] or [n] makes any type a LIST or ARRAY, whatever is inside.
  if (/\[\d*\]$/.test(name)) return 'Array';
  const base = name.replace(/\s*\(.*$/s, '');
  if (base === 'BOOLEAN' || base === 'BOOL' || base === 'LOGICAL') return 'Boolean';
  if (NUMBER_TYPES.has(base)) return 'Number';
  if (base === 'DATE') return 'Date';
  if (DATE_TIME_TYPES.has(base)) return 'DateTime';
  if (JSON_TYPES.has(base)) return 'Json';
  return 'Text';
}

/** From the type object of a result column (carries the JSON alias that its name alone would lose). */
export function columnTypeOf(type: DuckDBType): ColumnType {
  if (type.alias === 'JSON') return 'Json';
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return 'Array';
    case DuckDBTypeId.STRUCT:
    case DuckDBTypeId.MAP:
    case DuckDBTypeId.UNION:
    case DuckDBTypeId.VARIANT:
      return 'Json';
    default:
      return columnTypeFromName(type.toString());
  }
}
