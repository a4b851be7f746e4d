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
 * - else, after a careful look (PostgreSQL's `… BC` read in ISO years, as syncs read it,
 *   era-text.ts): TIMESTAMPTZ when a value names an offset or a zone (every value then an instant,
 *   one without an offset in UTC), TIMESTAMP_NS for nanoseconds, DATE when every value of a date
 *   column is at midnight, else the sniffed TIMESTAMP or TIMESTAMPTZ; Text when a value is no date
 *   at all (as DuckDB's reading of every row would), or when nanoseconds come with an offset or
 *   outside the years 1677-2262, which no type holds.
 * A later value the sniffed type cannot read at all fails the write, and the import then reads
 * every row to choose the types (csv-import.ts).
 */
import { eraText } from './era-text';
import { asText, castTo, type TextReading } from './csv-text-reading';
import { quoteIdentifier } from './quote';
import type { WarehouseSession } from './types';

/** The column types of the sniffer's that are read as text and decided here. */
export type SniffedTime = 'DATE' | 'TIMESTAMP' | 'TIMESTAMPTZ';

export const asSniffedTime = (sqlType: string): SniffedTime | null => {
  const type = sqlType.toUpperCase();
  if (type === 'TIMESTAMP WITH TIME ZONE' || type === 'TIMESTAMPTZ') return 'TIMESTAMPTZ';
  return type === 'DATE' || type === 'TIMESTAMP' ? type : null;
};

export type TimeReading = TextReading;

/** SQL: more than six digits after the second, the last of them not zero. */
export const finerThanMicros = (c: string) => `regexp_matches(${c}, '\\.[0-9]{6}[0-9]*[1-9]')`;

export interface SniffedTimeColumn {
  /** The column's name in the table read. */
  name: string;
  sniffed: SniffedTime;
}

/**
 * SQL per column, true when its values may hold what the sniffed type's cast would change:
 * - `o${i}`, a date-time's numeric offset (`+02:00`, `-0500`: a plus sign, or a third hyphen). The
 *   cast reads `Z` and ` UTC` as UTC, as the column's other values are, and cannot read zone names;
 * - `l${i}`, length enough for more than six digits after the second (longer than
 *   `YYYY-MM-DD hh:mm:ss.ffffff`, and `Z` for an instant), or for a date, any length but ten.
 * Fixed-text searches and the length each string carries cost a fraction of a regular expression.
 */
function cheapLook(c: string, sniffed: SniffedTime, i: number): string {
  const longest = `coalesce(max(strlen(${c})), 0)`;
  if (sniffed === 'DATE') return `false AS o${i}, coalesce(min(strlen(${c})) <> 10, false) OR ${longest} > 10 AS l${i}`;
  const offset = `coalesce(bool_or(contains(${c}, '+') OR ${c} LIKE '%-%-%-%'), false)`;
  const point = `coalesce(bool_or(contains(${c}, '.')), false)`;
  const long = `${longest} > ${sniffed === 'TIMESTAMPTZ' ? 27 : 26} AND ${point}`;
  return `${sniffed === 'TIMESTAMPTZ' ? 'false' : offset} AS o${i}, ${long} AS l${i}`;
}

/** How to store each of `columns` (text columns of `table` DuckDB sniffed as DATE, TIMESTAMP or TIMESTAMPTZ). */
export async function readTimes(
  session: WarehouseSession,
  table: string,
  columns: readonly SniffedTimeColumn[],
): Promise<Map<string, TimeReading>> {
  const readings = new Map<string, TimeReading>();
  if (columns.length === 0) return readings;
  const cells = columns.map(({ name, sniffed }, i) => cheapLook(quoteIdentifier(name), sniffed, i));
  const [look] = await session.all({ sql: `SELECT ${cells.join(', ')} FROM ${table}`, parameters: [] });
  for (const [i, { name, sniffed }] of columns.entries()) {
    const [offset, long] = [look?.[`o${i}`] === true, look?.[`l${i}`] === true];
    if (!offset && !long) readings.set(name, castTo(sniffed));
    // Long date-times that may only be finer than microseconds (PostgreSQL's `…00.123456+00`): that alone is checked.
    else if (!offset && sniffed !== 'DATE' && !(await anyFinerThanMicros(session, table, name))) {
      readings.set(name, castTo(sniffed));
    } else readings.set(name, await carefulReading(session, table, name, sniffed));
  }
  return readings;
}

async function anyFinerThanMicros(session: WarehouseSession, table: string, name: string): Promise<boolean> {
  const c = quoteIdentifier(name);
  const [found] = await session.all({
    sql: `SELECT coalesce(bool_or(${finerThanMicros(c)}), false) AS finer FROM ${table}`,
    parameters: [],
  });
  return found?.finer === true;
}

async function carefulReading(
  session: WarehouseSession,
  table: string,
  name: string,
  sniffed: SniffedTime,
): Promise<TimeReading> {
  const column = quoteIdentifier(name);
  // `… BC` (PostgreSQL's era) is read in ISO years, as the syncs read it.
  const c = eraText(column);
  const naive = `TRY_CAST(${c} AS TIMESTAMP)`;
  const [found] = await session.all({
    sql:
      `SELECT count(*) FILTER (WHERE ${c} IS NOT NULL AND TRY_CAST(${c} AS TIMESTAMPTZ) IS NULL)::DOUBLE AS not_times, ` +
      `coalesce(bool_or(TRY_CAST(${c} AS TIMESTAMPTZ) IS DISTINCT FROM CAST(${naive} AS TIMESTAMPTZ)), false) AS zoned, ` +
      `coalesce(bool_or(${finerThanMicros(c)}), false) AS nanos, ` +
      `count(*) FILTER (WHERE ${c} IS NOT NULL AND TRY_CAST(${c} AS TIMESTAMP_NS) IS NULL)::DOUBLE AS not_ns, ` +
      `coalesce(bool_and(${naive} = date_trunc('day', ${naive})), true) AS midnight ` +
      `FROM ${table}`,
    parameters: [],
  });
  const read = (type: string): TimeReading => ({
    sqlType: type,
    expression: (v) => `CAST(${eraText(v)} AS ${type})`,
    note: null,
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
  if (zoned) return read('TIMESTAMPTZ');
  if (nanos) return read('TIMESTAMP_NS');
  if (sniffed === 'DATE' && found?.midnight === true) {
    return { sqlType: 'DATE', expression: (v) => `CAST(CAST(${eraText(v)} AS TIMESTAMP) AS DATE)`, note: null };
  }
  return read(sniffed === 'TIMESTAMPTZ' ? 'TIMESTAMPTZ' : 'TIMESTAMP');
}
