import { detectDates, type AmbiguousDates, type DateReading } from './csv-dates';
import { isNumberSniff, readNumbers, type NumberReading } from './csv-numbers';
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

/** How the sniffed columns of a CSV file are read, before settleReadings decides how each is stored. */
export interface ReadPlan {
  /** Column `i`'s type in the reader's `types`. */
  readTypes: string[];
  /** The number type DuckDB's sniffer gave column `i`, when it is read as text for csv-numbers.ts; else null. */
  numberSniffs: (string | null)[];
  /** Column `i` was sniffed DATE and is read as TIMESTAMP. */
  widenedDates: boolean[];
}

/**
 * The plan for the sniffed `columns`, `forced[i]` read as text whatever was sniffed. Numbers are read
 * as text (csv-numbers.ts), and dates as date and time, since DuckDB's DATE reading of a later
 * `2024-01-05 10:00` (after the rows its sniffer samples) drops the time without a word.
 */
export function readPlan(columns: readonly ResultColumn[], forced: readonly boolean[]): ReadPlan {
  const numberSniffs = columns.map((c, i) => (!forced[i] && isNumberSniff(c.sqlType) ? c.sqlType : null));
  const widenedDates = columns.map((c, i) => !forced[i] && /^DATE$/i.test(c.sqlType));
  const readTypes = columns.map((c, i) =>
    forced[i] || numberSniffs[i] !== null ? 'VARCHAR' : widenedDates[i] ? 'TIMESTAMP' : c.sqlType,
  );
  return { readTypes, numberSniffs, widenedDates };
}

/** The columns of a CSV file as read into a table, and how each was read. */
export interface ReadColumns extends Omit<ReadPlan, 'readTypes'> {
  /** Column `i`'s name in the table (rowid renamed, csv-import.ts). */
  readNames: readonly string[];
  /** Column `i`'s type as read. */
  columns: readonly ResultColumn[];
  /** Column `i` is text and stays text (a re-import keeping a Text column). */
  keptText: readonly boolean[];
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
