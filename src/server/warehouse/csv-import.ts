import { randomBytes } from 'node:crypto';
import type { ColumnType } from '../../shared/tables';
import { columnTypeFromName } from './column-types';
import { exactConversion } from './exact-text-cast';
import { sqlTypeText } from './sql-type-text';
import { nativeDateFormat } from './csv-dates';
import { readPlan, settleReadings } from './csv-readings';
import { inspectCsvFile, type CsvFileFacts } from './csv-file';
import { freeRowid, readCsvCall, readCsvFile, refuseWide, sniff } from './csv-read';
import { quoteIdentifier, quoteQualified, quoteString } from './quote';
import type { ResultColumn, WarehouseExecutor, WarehouseSession } from './types';
import { crashPoint } from '../durability/crash-points';
import { withProgress } from './statement-progress';

export interface CsvImportOptions {
  /** A file the server wrote (an upload); read by DuckDB directly. */
  filePath: string;
  schema: string;
  table: string;
  maxBytes: number;
  /** Adds a column numbering the rows in file order (e.g. a static table's `_row_id`). */
  rowIdColumn?: string;
  /**
   * How to store the file's columns, given the header as DuckDB reads it (names, and the types it
   * found in the first rows). Default: under the header's names, with the types found.
   */
  storeAs?: (header: ResultColumn[], session: WarehouseSession) => Promise<StoredColumn[]>;
  /** More columns than this are refused before anything is written. */
  maxColumns: number;
  /**
   * Runs first in the transaction that replaces the table, before the old one is dropped (e.g. to
   * keep it under another name). Renames and drops only: no rows of a table it renames may change.
   */
  beforeWrite?: (tx: WarehouseSession) => Promise<void>;
  /** Runs inside the transaction that replaces the table, just before it commits (e.g. a write marker). */
  beforeCommit?: (tx: WarehouseSession, result: CsvImportResult) => Promise<void>;
  /**
   * Told how far the import has got: the stage, and how far within it (0..1, from DuckDB's own
   * progress of the statement reading or writing the rows). Asks for the connection that tracks it.
   */
  onProgress?: (stage: CsvImportStage, within: number) => void;
}

/** The steps of an import whose progress is told (CsvImportOptions.onProgress). */
export type CsvImportStage = 'Reading' | 'Checking' | 'Writing';

export interface StoredColumn {
  /** The name the column is stored under (e.g. a generated column key). */
  name: string;
  /**
   * The DuckDB type of the column this one replaces, kept when every value of the file fits it (a
   * re-import keeps a Text column Text, a Number column Number); null to take the type found.
   */
  keepType: string | null;
}

export interface CsvImportResult {
  /**
   * In file order, named as in the header (DuckDB names blank ones `column<n>` and renames repeats
   * `a_1`), with the type each is stored as.
   */
  columns: ResultColumn[];
  rowCount: number;
  /** Columns read as dates or date-times, and the format their values were read in. */
  dates: { name: string; type: 'Date' | 'DateTime'; format: string }[];
  /** What else the user should be told about a column (dates that could not be read, a type not kept). */
  notes: { name: string; message: string }[];
}

/**
 * Replaces `schema.table` with the rows of a CSV file (header line first, types detected). The file
 * is read into a temporary table first and swapped in by one transaction, so a bad file or a crash
 * leaves the old table as it was. Bad files raise BadInput naming the problem and, when DuckDB knows
 * it, the line. The caller holds `exclusive('table:<schema>.<table>')`.
 */
export async function importCsvToTable(
  executor: WarehouseExecutor,
  options: CsvImportOptions,
): Promise<CsvImportResult> {
  const facts = await inspectCsvFile(options.filePath, options.maxBytes);
  refuseWide(facts.headerFields, options.maxColumns);
  const { schema } = options;
  await executor.exclusive(`schema:${schema}`, () =>
    executor.run(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`),
  );
  return readCsvFile(executor, options.filePath, facts, (filePath, extra) =>
    replaceFromCsv(executor, { ...options, filePath }, facts, extra),
  );
}

/** DuckDB's strptime reads `%y` 00-68 as 2000-2068 and 69-99 as 1969-1999: the user is told. */
const TWO_DIGIT_YEARS = 'Its years are written with two digits, read as 1969 to 2068 (68 is 2068, 69 is 1969).';

const TYPE_WORDS: Partial<Record<ColumnType, string>> = {
  Number: 'a number',
  Date: 'a date',
  DateTime: 'a date and time',
  Boolean: 'true or false',
};

/**
 * Two steps, together cheaper than reading the file straight into the warehouse: DuckDB reads the
 * file in parallel into a temporary (in-memory, spillable) table, then copies it into the warehouse
 * file, where it compresses. Read straight in, the parallel reader's rows must be put back in file
 * order as they are written, which cost more than the copy (about 520 against 260 + 190 ms for 1M
 * rows on 2 cores). The temporary table's committed rows are numbered in file order by `rowid`, so
 * the copy also fills the row number column, without a window or an UPDATE; it keeps their order,
 * as DuckDB keeps insertion order (an ORDER BY rowid would sort). Dates in other formats than ISO
 * are read as text and converted by the copy (csv-dates.ts).
 */
async function replaceFromCsv(
  executor: WarehouseExecutor,
  options: CsvImportOptions,
  facts: CsvFileFacts,
  /** More read_csv options: every row sniffed (readCsvFile). */
  extra: string,
): Promise<CsvImportResult> {
  const scratch = quoteIdentifier(`_import_${randomBytes(6).toString('hex')}`);
  const { onProgress } = options;
  const told = (stage: CsvImportStage) => (onProgress ? (within: number) => onProgress(stage, within) : undefined);
  return executor.session(
    async (session) => {
      try {
        const sniffed = await sniff(session, options.filePath, facts, extra);
        refuseWide(sniffed.columns.length, options.maxColumns);
        const stored =
          (await options.storeAs?.(sniffed.columns, session)) ??
          sniffed.columns.map((c) => ({ name: c.name, keepType: null }));
        const keepsText = stored.map((s) => s.keepType !== null && columnTypeFromName(s.keepType) === 'Text');
        // Read as text: dates in a format DuckDB guessed (csv-dates.ts decides), and columns staying Text.
        const forced = sniffed.columns.map(
          (c, i) =>
            (keepsText[i] && c.type !== 'Text') ||
            (sniffed.guessedDateFormat && (c.type === 'Date' || c.type === 'DateTime')),
        );
        // Numbers, ISO dates and date-times are read as text and typed exactly (csv-readings.ts):
        // DuckDB's reading of a value its sniffer did not see rounds it (1.5 in a whole-number
        // column), drops its leading zeros, its time of day or its offset.
        const plan = readPlan(sniffed.columns, forced);
        // Every column's type is given, so the reader does not detect them a second time.
        const typeList = plan.readTypes.map((type) => quoteString(sqlTypeText(type)));
        const types = typeList.length > 0 ? `, types = [${typeList.join(', ')}]` : '';
        await withProgress(
          session,
          () =>
            session.run(`CREATE TEMP TABLE ${scratch} AS SELECT * FROM ${readCsvCall(facts, extra + types)}`, [
              options.filePath,
            ]),
          told('Reading'),
        );
        onProgress?.('Checking', 0);
        const { columns } = await session.query({ sql: `SELECT * FROM ${scratch} LIMIT 0`, parameters: [] });
        const [count] = await session.all({ sql: `SELECT count(*)::DOUBLE AS n FROM ${scratch}`, parameters: [] });
        refuseWide(columns.length, options.maxColumns);
        const headerNames = columns.map((c) => c.name);
        const readNames = await freeRowid(session, scratch, headerNames);

        const {
          dates: readings,
          ambiguous,
          numbers,
          times,
          of: readingOf,
        } = await settleReadings(session, scratch, { ...plan, readNames, columns, keptText: keepsText });
        const values = readNames.map(
          (name) => readingOf(name)?.expression(quoteIdentifier(name)) ?? quoteIdentifier(name),
        );
        const valueTypes = readNames.map((name, i) => readingOf(name)?.sqlType ?? columns[i]?.sqlType ?? 'VARCHAR');
        const notes = ambiguous.map(({ name, formats }) => ({
          name: headerNames[readNames.indexOf(name)] ?? name,
          message:
            `Its dates read both as ${formats[0]} and as ${formats[1]} (no day is above 12), ` +
            'so it was kept as Text rather than guessing which is the day.',
        }));
        for (const [name, reading] of readings) {
          if (!/\bYY\b/.test(reading.format)) continue;
          notes.push({ name: headerNames[readNames.indexOf(name)] ?? name, message: TWO_DIGIT_YEARS });
        }
        for (const [name, reading] of [...numbers, ...times]) {
          if (reading.note) notes.push({ name: headerNames[readNames.indexOf(name)] ?? name, message: reading.note });
        }
        notes.push(...(await keepTypes(session, scratch, headerNames, values, valueTypes, stored)));

        const selected = readNames.map((name, i) => `${values[i]} AS ${quoteIdentifier(stored[i]?.name ?? name)}`);
        if (options.rowIdColumn) selected.push(`rowid + 1 AS ${quoteIdentifier(options.rowIdColumn)}`);
        const target = quoteQualified(options.schema, options.table);
        crashPoint('csv-import:read');
        onProgress?.('Writing', 0);
        return await session.transaction(async (tx) => {
          await options.beforeWrite?.(tx);
          await tx.run(`DROP TABLE IF EXISTS ${target}`);
          await withProgress(
            session,
            () => tx.run(`CREATE TABLE ${target} AS SELECT ${selected.join(', ')} FROM ${scratch}`),
            told('Writing'),
          );
          const created = await tx.query({ sql: `SELECT * FROM ${target} LIMIT 0`, parameters: [] });
          const result: CsvImportResult = {
            columns: headerNames.map((name, i) => {
              const column = created.columns[i] as ResultColumn;
              return { name, type: column.type, sqlType: column.sqlType };
            }),
            rowCount: Number(count?.n ?? 0),
            dates: headerNames.flatMap((name, i) => {
              const reading = readings.get(readNames[i] as string);
              const type = created.columns[i]?.type;
              if (type !== 'Date' && type !== 'DateTime') return [];
              const format = reading?.format ?? nativeDateFormat(created.columns[i]?.sqlType ?? '');
              return format ? [{ name, type, format }] : [];
            }),
            notes,
          };
          await options.beforeCommit?.(tx, result);
          return result;
        });
      } finally {
        await session.run(`DROP TABLE IF EXISTS ${scratch}`);
      }
    },
    { watched: onProgress !== undefined },
  );
}

/**
 * Where a column replaces one of another type (`keepType`), the old type is kept when every value
 * is the same value in it (exact-text-cast.ts); otherwise the new type stays and a note says so. Changes
 * `values` in place to the converting SQL. Text columns were read as text already.
 */
async function keepTypes(
  session: WarehouseSession,
  table: string,
  headerNames: string[],
  values: string[],
  valueTypes: string[],
  stored: StoredColumn[],
): Promise<{ name: string; message: string }[]> {
  const changing = stored.flatMap((s, i) => {
    if (s.keepType === null) return [];
    const from = columnTypeFromName(s.keepType);
    const to = columnTypeFromName(valueTypes[i] as string);
    return from === to || from === 'Text' ? [] : [{ i, keep: sqlTypeText(s.keepType), from, to }];
  });
  if (changing.length === 0) return [];
  const kept = new Map(
    changing.map(({ i, keep }) => [i, exactConversion(values[i] as string, valueTypes[i] as string, keep)]),
  );
  // The first value in file order that would not be itself in the kept type, to name in the note.
  const checks = changing.map(({ i }) => {
    const value = values[i] as string;
    return `arg_min(CAST(${value} AS VARCHAR), rowid) FILTER (WHERE ${value} IS NOT NULL AND (${kept.get(i)}) IS NULL) AS k${i}`;
  });
  const [lost] = await session.all({ sql: `SELECT ${checks.join(', ')} FROM ${table}`, parameters: [] });
  const notes: { name: string; message: string }[] = [];
  for (const { i, from, to } of changing) {
    const example = lost?.[`k${i}`];
    if (example === null || example === undefined) {
      values[i] = kept.get(i) as string;
      continue;
    }
    notes.push({
      name: headerNames[i] as string,
      message:
        `It was ${from} and is now ${to}: not every value in the file is ${TYPE_WORDS[from] ?? `of type ${from}`} ` +
        `as written (such as "${String(example).slice(0, 40)}").`,
    });
  }
  return notes;
}
