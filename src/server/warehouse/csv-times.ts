/**
 * ISO dates and date-times from a CSV, exactly. DuckDB's sniffer types a column from its first
 * 20,480 rows and then reads later values with a lenient cast, which changes them without a word:
 * in a TIMESTAMP column `2024-01-05T10:00:00+02:00` keeps its wall time and drops the offset, and
 * `10:00:00.123456789` loses its last three digits (in any row: so do instants); in a DATE column
 * `2024-01-05 10:30` loses its time. So the columns it sniffed as DATE, TIMESTAMP or TIMESTAMPTZ are
 * read as text, and each is stored as:
 * - its sniffed type, when a cheap look at every value finds nothing such a cast would change: ten
 *   characters each for a date; for a date-time, no numeric offset and at most six digits after the
 *   second; for an instant, at most six digits after the second;
 * - else, after a careful look: TIMESTAMPTZ when a value names an offset or a zone (every value then
 *   an instant, one without an offset in UTC), TIMESTAMP_NS for nanoseconds, DATE when every value
 *   of a date column is at midnight, else the sniffed TIMESTAMP or TIMESTAMPTZ; Text when a value is
 *   no date at all (as DuckDB's reading of every row would), or when nanoseconds come with an offset
 *   or outside the years 1677-2262, which no type holds.
 * A later value the sniffed type cannot read at all fails the write, and the import then reads
 * every row to choose the types (csv-import.ts).
 */
import { quoteIdentifier } from './quote';
import type { WarehouseSession } from './types';

/** The column types of the sniffer's that are read as text and decided here. */
export type SniffedTime = 'DATE' | 'TIMESTAMP' | 'TIMESTAMPTZ';

export const asSniffedTime = (sqlType: string): SniffedTime | null => {
  const type = sqlType.toUpperCase();
  if (type === 'TIMESTAMP WITH TIME ZONE' || type === 'TIMESTAMPTZ') return 'TIMESTAMPTZ';
  return type === 'DATE' || type === 'TIMESTAMP' ? type : null;
};

export interface TimeReading {
  /** The DuckDB type stored. */
  sqlType: string;
  /** SQL making the stored value of the column's text (the column given quoted). */
  expression: (column: string) => string;
  /** What the user is told, when the column stays Text. */
  note: string | null;
}

const cast = (type: string): TimeReading => ({ sqlType: type, expression: (c) => `CAST(${c} AS ${type})`, note: null });
const asText: TimeReading = { sqlType: 'VARCHAR', expression: (c) => c, note: null };

/**
 * SQL: the text may hold what the sniffed TIMESTAMP's cast would change: a numeric offset (`+02:00`,
 * `-0500`: a plus sign, or a third hyphen), or more than six digits after the second (only a value
 * longer than `YYYY-MM-DD hh:mm:ss.ffffff` can hold them). The cast reads `Z` and ` UTC` as UTC, as
 * the column's other values are, and cannot read zone names at all. Searches for fixed text and the
 * length each string carries cost a fraction of a regular expression.
 */
const maybeChanged = (c: string) =>
  `(coalesce(bool_or(contains(${c}, '+') OR ${c} LIKE '%-%-%-%'), false) OR coalesce(max(strlen(${c})), 0) > 26)`;

export interface SniffedTimeColumn {
  /** The column's name in the table read. */
  name: string;
  sniffed: SniffedTime;
}

/** How to store each of `columns` (text columns of `table` DuckDB sniffed as DATE, TIMESTAMP or TIMESTAMPTZ). */
export async function readTimes(
  session: WarehouseSession,
  table: string,
  columns: readonly SniffedTimeColumn[],
): Promise<Map<string, TimeReading>> {
  const readings = new Map<string, TimeReading>();
  if (columns.length === 0) return readings;
  // strlen reads the length each string carries: the date check costs little more than the scan.
  const cells = columns.map(({ name, sniffed }, i) => {
    const c = quoteIdentifier(name);
    if (sniffed === 'DATE') return `coalesce(min(strlen(${c})) = 10 AND max(strlen(${c})) = 10, true) AS k${i}`;
    // Instants: only digits past microseconds would be cut, and `…:ss.ffffffZ` is as long as they get
    // without them, or a value without a point has none.
    if (sniffed === 'TIMESTAMPTZ') {
      return `(coalesce(max(strlen(${c})), 0) <= 27 OR NOT coalesce(bool_or(contains(${c}, '.')), false)) AS k${i}`;
    }
    return `NOT ${maybeChanged(c)} AS k${i}`;
  });
  const [clean] = await session.all({ sql: `SELECT ${cells.join(', ')} FROM ${table}`, parameters: [] });
  for (const [i, { name, sniffed }] of columns.entries()) {
    readings.set(name, clean?.[`k${i}`] === true ? cast(sniffed) : await carefulReading(session, table, name, sniffed));
  }
  return readings;
}

async function carefulReading(
  session: WarehouseSession,
  table: string,
  name: string,
  sniffed: SniffedTime,
): Promise<TimeReading> {
  const c = quoteIdentifier(name);
  const naive = `TRY_CAST(${c} AS TIMESTAMP)`;
  const [found] = await session.all({
    sql:
      `SELECT count(*) FILTER (WHERE ${c} IS NOT NULL AND TRY_CAST(${c} AS TIMESTAMPTZ) IS NULL)::DOUBLE AS not_times, ` +
      `coalesce(bool_or(TRY_CAST(${c} AS TIMESTAMPTZ) IS DISTINCT FROM CAST(${naive} AS TIMESTAMPTZ)), false) AS zoned, ` +
      `coalesce(bool_or(regexp_matches(${c}, '\\.[0-9]{6}[0-9]*[1-9]')), false) AS nanos, ` +
      `count(*) FILTER (WHERE ${c} IS NOT NULL AND TRY_CAST(${c} AS TIMESTAMP_NS) IS NULL)::DOUBLE AS not_ns, ` +
      `coalesce(bool_and(${naive} = date_trunc('day', ${naive})), true) AS midnight ` +
      `FROM ${table}`,
    parameters: [],
  });
  if (Number(found?.not_times ?? 0) > 0) return asText;
  const zoned = found?.zoned === true;
  const nanos = found?.nanos === true;
  if (nanos && (zoned || Number(found?.not_ns ?? 0) > 0)) {
    return {
      ...asText,
      note:
        'Its values have more than six digits after the second, which a date and time holds only without an ' +
        'offset and between the years 1677 and 2262, so it was kept as Text, every value as written.',
    };
  }
  if (zoned) return cast('TIMESTAMPTZ');
  if (nanos) return cast('TIMESTAMP_NS');
  if (sniffed === 'DATE' && found?.midnight === true) {
    return { sqlType: 'DATE', expression: (v) => `CAST(CAST(${v} AS TIMESTAMP) AS DATE)`, note: null };
  }
  return cast(sniffed === 'TIMESTAMPTZ' ? 'TIMESTAMPTZ' : 'TIMESTAMP');
}
