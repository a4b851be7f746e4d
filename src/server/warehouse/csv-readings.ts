import { detectDates, type AmbiguousDates, type DateReading } from './csv-dates';
import { isNumberSniff, readNumbers, type NumberReading } from './csv-numbers';
import { asSniffedTime, readTimes, type SniffedTime, type TimeReading } from './csv-times';
import type { ResultColumn, WarehouseSession } from './types';

export interface Readings {
  dates: Map<string, DateReading>;
  /** Text columns whose dates read day-first and month-first alike (kept as Text). */
  ambiguous: AmbiguousDates[];
  numbers: Map<string, NumberReading>;
  /** Columns DuckDB's sniffer took for ISO dates or date-times, read as text (csv-times.ts). */
  times: Map<string, TimeReading>;
  /** How a column (its name in the table read) is stored, when not as it was read. */
  of: (name: string) => DateReading | NumberReading | TimeReading | undefined;
}

/** How the sniffed columns of a CSV file are read, before settleReadings decides how each is stored. */
export interface ReadPlan {
  /** Column `i`'s type in the reader's `types`. */
  readTypes: string[];
  /** The number type DuckDB's sniffer gave column `i`, when it is read as text for csv-numbers.ts; else null. */
  numberSniffs: (string | null)[];
  /** The DATE or TIMESTAMP DuckDB's sniffer gave column `i`, when it is read as text for csv-times.ts; else null. */
  timeSniffs: (SniffedTime | null)[];
}

/**
 * The plan for the sniffed `columns`, `forced[i]` read as text whatever was sniffed. Numbers, ISO
 * dates and ISO date-times are read as text and typed on every row (csv-numbers.ts, csv-times.ts):
 * DuckDB's reading of a value after the rows its sniffer samples rounds `1.5` in a whole-number
 * column, drops the time of `2024-01-05 10:00` in a date column, the offset of a date-time.
 */
export function readPlan(columns: readonly ResultColumn[], forced: readonly boolean[]): ReadPlan {
  const numberSniffs = columns.map((c, i) => (!forced[i] && isNumberSniff(c.sqlType) ? c.sqlType : null));
  const timeSniffs = columns.map((c, i) => (forced[i] ? null : asSniffedTime(c.sqlType)));
  // A column shown as Text is read as text: DuckDB's reading of a TIME cuts nanoseconds, drops an
  // offset and writes `10:00` as `10:00:00`.
  const readTypes = columns.map((c, i) =>
    forced[i] || numberSniffs[i] !== null || timeSniffs[i] !== null || c.type === 'Text' ? 'VARCHAR' : c.sqlType,
  );
  return { readTypes, numberSniffs, timeSniffs };
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
 * its preview alike): text columns holding dates (csv-dates.ts), and the columns DuckDB's sniffer
 * took for numbers (csv-numbers.ts) or ISO dates and date-times (csv-times.ts), read as text.
 */
export async function settleReadings(session: WarehouseSession, table: string, read: ReadColumns): Promise<Readings> {
  const { readNames, columns, numberSniffs, timeSniffs, keptText } = read;
  const textColumns = readNames.filter(
    (_, i) =>
      columns[i]?.type === 'Text' &&
      !keptText[i] &&
      (numberSniffs[i] ?? null) === null &&
      (timeSniffs[i] ?? null) === null,
  );
  const { readings: dates, ambiguous } = await detectDates(session, table, textColumns);
  const times = await readTimes(
    session,
    table,
    readNames.flatMap((name, i) => {
      const sniffed = timeSniffs[i] ?? null;
      return sniffed === null ? [] : [{ name, sniffed }];
    }),
  );
  const numbers = await readNumbers(
    session,
    table,
    readNames.flatMap((name, i) => {
      const sqlType = numberSniffs[i] ?? null;
      return sqlType === null ? [] : [{ name, sqlType }];
    }),
  );
  return {
    dates,
    ambiguous,
    numbers,
    times,
    of: (name) => dates.get(name) ?? numbers.get(name) ?? times.get(name),
  };
}
