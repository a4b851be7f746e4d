/**
 * Values typed, pasted or sent by a script into a static table's typed columns (the editor's
 * changes): DuckDB's cast of such a value into its column would silently change some of them, so
 * those are refused, naming the value, or stored as the same instant.
 */
import type { SqlValue } from '../../../engine';
import type { WarehouseSession } from '../../warehouse/types';
import { fitsDecimal, fitsDouble, normalDecimal, plainDecimal } from '../../exact-values/decimal-text';
import { FRACTION_DIGITS_OF, WHOLE_NUMBER_TYPES, isWholeNumberType } from '../../warehouse/column-types';
import { STATIC_SCHEMA, warehouseTableName } from './physical';

/**
 * The stored type of the table's typed columns by key, where DuckDB's cast of a value would change
 * it: whole numbers (an imported CSV's integers), exact decimals (an import's long numbers) and
 * doubles round; DATE drops a time of day; TIMESTAMP ignores an offset; every timestamp type cuts
 * digits after the second it does not hold.
 */
export async function typedColumns(session: WarehouseSession, id: string): Promise<Map<string, string>> {
  const types = ['DOUBLE', 'DATE', ...Object.keys(FRACTION_DIGITS_OF), ...WHOLE_NUMBER_TYPES];
  const rows = await session.all({
    sql:
      'SELECT column_name, data_type FROM duckdb_columns() WHERE schema_name = $1 AND table_name = $2 ' +
      `AND (data_type IN (${types.map((_, i) => `$${i + 3}`).join(', ')}) OR starts_with(data_type, 'DECIMAL('))`,
    parameters: [STATIC_SCHEMA, warehouseTableName(id), ...types],
  });
  return new Map(rows.map((r) => [String(r.column_name), String(r.data_type)]));
}

/** An ISO date with a time after it, and the time's offset or zone if it has one. */
const DATE_AND_TIME =
  /^[+-]?\d{4,}-\d{1,2}-\d{1,2}(?:T|\s+)(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*([zZ]|UTC|[+-]\d{2}(?::?\d{2})?)?$/;
/** Offsets that are UTC itself. */
const UTC = /^(?:[zZ]|UTC|[+-]00(?::?00)?)$/;

/** Why a value typed into a column of `type` would not be stored as typed, or null when it would. */
export function misfit(type: string, value: SqlValue): string | null {
  if (value === null || typeof value === 'boolean') return null;
  const text = typeof value === 'string' ? value.trim() : String(value);
  if (type === 'DATE') {
    const [, clock, zone] = DATE_AND_TIME.exec(text) ?? [];
    if (clock === undefined) return null;
    // Midnight UTC is the date itself; any other time, or an offset putting it on another day, is lost.
    const midnight = !/[1-9]/.test(clock) && (zone === undefined || UTC.test(zone));
    return midnight ? null : `${text} has a time of day, and a Date column holds dates alone`;
  }
  const digits = FRACTION_DIGITS_OF[type];
  if (digits !== undefined) {
    const [, clock, zone] = DATE_AND_TIME.exec(text) ?? [];
    const fraction = clock?.split('.')[1]?.replace(/0+$/, '') ?? '';
    if (fraction.length > digits) return `${text} has more digits after the second than its column holds (${digits})`;
    // Offsets are applied for the other timestamp types (zonedTimesInUtc), in microseconds.
    if (type === 'TIMESTAMP_NS' && zone !== undefined && !UTC.test(zone)) {
      return `${text} has an offset, and a column of times to the nanosecond holds times without one`;
    }
    return null;
  }
  // Not a number at all: DuckDB's cast refuses it, naming the value.
  const plain = text === '' ? null : plainDecimal(text);
  if (plain === null) return null;
  if (isWholeNumberType(type)) return normalDecimal(plain).includes('.') ? `${text} is not a whole number` : null;
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(type);
  if (decimal) {
    const [precision, scale] = [Number(decimal[1]), Number(decimal[2])];
    return fitsDecimal(plain, precision, scale)
      ? null
      : `${text} needs more than the column's ${precision - scale} digits before the point and ${scale} after`;
  }
  // A JSON number is a double already; typed text must come back from one as written.
  if (type === 'DOUBLE' && typeof value === 'string' && !fitsDouble(text)) {
    return `${text} has more digits than a Number column holds exactly (15)`;
  }
  return null;
}

/** Texts per statement: one parameter each. */
const BATCH = 500;

/** Column types whose times have no zone, and whose values zonedTimesInUtc gives exactly. */
export const UNZONED_TIME_TYPES: ReadonlySet<string> = new Set(['TIMESTAMP', 'TIMESTAMP_MS', 'TIMESTAMP_S']);

/**
 * For a TIMESTAMP column (times without an offset, read as UTC): each of `texts` that has an offset
 * (`2024-01-05T10:00:00+02:00`), mapped to the same instant's UTC time (`2024-01-05 08:00:00`).
 * DuckDB's cast to TIMESTAMP would keep 10:00 and drop the offset. The warehouse's zone is UTC
 * (account-instances.ts), so TIMESTAMPTZ to TIMESTAMP gives UTC. Texts that are no time are left out:
 * the column's cast refuses them as before.
 */
export async function zonedTimesInUtc(session: WarehouseSession, texts: string[]): Promise<Map<string, string>> {
  const zoned = [...new Set(texts.filter((text) => DATE_AND_TIME.exec(text.trim())?.[2] !== undefined))];
  const utc = new Map<string, string>();
  for (let start = 0; start < zoned.length; start += BATCH) {
    const batch = zoned.slice(start, start + BATCH);
    const rows = await session.all({
      sql:
        'SELECT v, CAST(CAST(TRY_CAST(v AS TIMESTAMPTZ) AS TIMESTAMP) AS VARCHAR) AS utc ' +
        `FROM (VALUES ${batch.map((_, i) => `($${i + 1}::VARCHAR)`).join(', ')}) t(v)`,
      parameters: batch,
    });
    for (const row of rows) if (typeof row.utc === 'string') utc.set(String(row.v), row.utc);
  }
  return utc;
}
