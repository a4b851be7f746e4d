import { detectDates, type AmbiguousDates, type DateReading } from './csv-dates';
import { readNumbers, type NumberReading } from './csv-numbers';
import { quoteIdentifier } from './quote';
import type { ResultColumn, WarehouseSession } from './types';

export interface Readings {
  dates: Map<string, DateReading>;
  /** Text columns whose dates read day-first and month-first alike (kept as Text). */
  ambiguous: AmbiguousDates[];
  numbers: Map<string, NumberReading>;
  /** How a column (its name in the table read) is stored, when not as it was read. */
  of: (name: string) => DateReading | NumberReading | undefined;
}

/** The columns of a CSV file as read into a table, and how each was read. */
export interface ReadColumns {
  /** Column `i`'s name in the table (rowid renamed, csv-import.ts). */
  readNames: readonly string[];
  /** Column `i`'s type as read. */
  columns: readonly ResultColumn[];
  /** The number type DuckDB's sniffer gave column `i`, when it was read as text for csv-numbers.ts; else null. */
  numberSniffs: readonly (string | null)[];
  /** Column `i` was sniffed DATE and read as TIMESTAMP (`readTypeOf`). */
  widenedDates: readonly boolean[];
  /** Column `i` is text and stays text (a re-import keeping a Text column). */
  keptText: readonly boolean[];
}

/**
 * The type a sniffed column is read as, before settleReadings decides how it is stored: text for
 * numbers (csv-numbers.ts), and date and time for dates, since DuckDB's DATE reading of a later
 * `2024-01-05 10:00` (after the rows its sniffer samples) drops the time without a word.
 */
export function readTypeOf(sqlType: string, numberSniff: boolean): string {
  if (numberSniff) return 'VARCHAR';
  return /^DATE$/i.test(sqlType) ? 'TIMESTAMP' : sqlType;
}

/**
 * How the columns of a CSV file read into `table` are stored, decided on every row (the import and
 * its preview alike): text columns holding dates (csv-dates.ts), the columns DuckDB's sniffer took
 * for numbers, read as text (csv-numbers.ts), and dates read as date and time, which stay dates when
 * no value has a time of day.
 */
export async function settleReadings(session: WarehouseSession, table: string, read: ReadColumns): Promise<Readings> {
  const { readNames, columns, numberSniffs, widenedDates, keptText } = read;
  const textColumns = readNames.filter(
    (_, i) => columns[i]?.type === 'Text' && !keptText[i] && (numberSniffs[i] ?? null) === null,
  );
  const { readings: dates, ambiguous } = await detectDates(session, table, textColumns);
  for (const name of await datesAlone(
    session,
    table,
    readNames.filter((_, i) => widenedDates[i]),
  )) {
    dates.set(name, {
      type: 'Date',
      sqlType: 'DATE',
      format: 'YYYY-MM-DD',
      expression: (c) => `CAST(${c} AS DATE)`,
    });
  }
  const numbers = await readNumbers(
    session,
    table,
    readNames.flatMap((name, i) => {
      const sqlType = numberSniffs[i] ?? null;
      return sqlType === null ? [] : [{ name, sqlType }];
    }),
  );
  return { dates, ambiguous, numbers, of: (name) => dates.get(name) ?? numbers.get(name) };
}

/** Of `columns` (TIMESTAMP columns of `table`), those whose every value is at midnight: one pass. */
async function datesAlone(session: WarehouseSession, table: string, columns: string[]): Promise<string[]> {
  if (columns.length === 0) return [];
  const cells = columns.map((name, i) => {
    const c = quoteIdentifier(name);
    return `coalesce(bool_and(${c} = date_trunc('day', ${c})), true) AS d${i}`;
  });
  const [alone] = await session.all({ sql: `SELECT ${cells.join(', ')} FROM ${table}`, parameters: [] });
  return columns.filter((_, i) => alone?.[`d${i}`] === true);
}
