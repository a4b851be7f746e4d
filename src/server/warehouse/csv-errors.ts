import { badInput, conflict, type AppError } from '../errors';

/**
 * DuckDB's CSV reader errors, turned into messages a person can act on. DuckDB numbers lines from 1,
 * the header included, as a spreadsheet or text editor would.
 */

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The sniffer gave up: with a delimiter fixed, that means rows disagree (found by a strict re-read). */
export const isDialectError = (error: unknown) => /Error when sniffing file/i.test(errorText(error));

/** A failure of DuckDB's CSV reader on the file itself (its rows, quotes or values), not of the disk or a writer. */
export const isCsvReadError = (error: unknown) =>
  isDialectError(error) || /CSV Parser state machine|CSV Error on Line/i.test(errorText(error));

/**
 * A value beyond the rows DuckDB sampled to pick column types, which its reader could not read, or
 * whose text failed its conversion to the sniffed type afterwards; reading every row first fixes it.
 */
export const isLateTypeError = (error: unknown) => /Conversion Error/i.test(errorText(error));

/** The user-facing error for a failed CSV read, or null when the failure is not about the file. */
export function csvFileError(error: unknown): AppError | null {
  const message = errorText(error);
  if (/write-write conflict|transaction conflict/i.test(message)) {
    return conflict('The table was changed by someone else during the import. Please try again.');
  }
  const lineMatch = /CSV Error on Line: (\d+)/i.exec(message);
  const line = lineMatch ? Number(lineMatch[1]) : null;
  const onLine = line === null ? '' : ` on line ${line}`;

  if (/invalid unicode|not utf-8 encoded/i.test(message)) {
    return badInput(`The file is not UTF-8 encoded (invalid characters${onLine}). Save it as UTF-8 CSV and try again.`);
  }
  const columns = /Expected Number of Columns: (\d+) Found: (\d+)/i.exec(message);
  if (columns && line !== null) {
    const [, expected, found] = columns;
    const values = found === '1' ? 'value' : 'values';
    return badInput(`Line ${line} has ${found} ${values}, but the header has ${expected} columns.`);
  }
  if (/unterminated quote/i.test(message)) return badInput(`A quoted value${onLine} is never closed.`);
  if (/Maximum line size/i.test(message)) {
    return badInput(
      line === null
        ? 'A line is too long to be a CSV row, or a quoted value is never closed.'
        : `Line ${line} is too long to be a CSV row.`,
    );
  }
  const conversion = /Could not convert string "(.*?)" to '(.+?)'/i.exec(message);
  if (conversion) {
    const [, value, type] = conversion;
    return badInput(`The value "${value}"${onLine} does not match the column's type (${type}).`);
  }
  if (line !== null || isDialectError(error)) return badInput(`The file could not be read as CSV${onLine}.`);
  // Bytes that are no CSV at all (binary, compressed or garbled text) stop DuckDB's parser outright.
  if (/CSV Parser state machine reached an invalid state/i.test(message)) {
    return badInput(
      'The file could not be read as CSV: it is not text in rows and columns. Save it as CSV and try again.',
    );
  }
  return null;
}
