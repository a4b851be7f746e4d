import { detectDates, type AmbiguousDates, type DateReading } from './csv-dates';
import { readNumbers, type NumberReading } from './csv-numbers';
import type { ResultColumn, WarehouseSession } from './types';

export interface Readings {
  dates: Map<string, DateReading>;
  /** Text columns whose dates read day-first and month-first alike (kept as Text). */
  ambiguous: AmbiguousDates[];
  numbers: Map<string, NumberReading>;
  /** How a column (its name in the table read) is stored, when not as it was read. */
  of: (name: string) => DateReading | NumberReading | undefined;
}

/**
 * How the columns of a CSV file read into `table` are stored, decided on every row (the import and
 * its preview alike): text columns holding dates (csv-dates.ts), and the columns DuckDB's sniffer
 * took for numbers, which were read as text (csv-numbers.ts). Column `i` was read as `readNames[i]`
 * with type `columns[i]`; `numberSniffs[i]` is its sniffed number type when it was read as text for
 * that, else null; `keptText[i]` marks a text column that stays text.
 */
export async function settleReadings(
  session: WarehouseSession,
  table: string,
  readNames: readonly string[],
  columns: readonly ResultColumn[],
  numberSniffs: readonly (string | null)[],
  keptText: readonly boolean[],
): Promise<Readings> {
  const textColumns = readNames.filter(
    (_, i) => columns[i]?.type === 'Text' && !keptText[i] && (numberSniffs[i] ?? null) === null,
  );
  const { readings: dates, ambiguous } = await detectDates(session, table, textColumns);
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
