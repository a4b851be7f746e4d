import { randomBytes } from 'node:crypto';
import { freeRowid, readCsvCall, readCsvFile, refuseWide, sniff } from './csv-read';
import { sqlTypeText } from './sql-type-text';
import { readPlan, settleReadings } from './csv-readings';
import { inspectCsvFile, type CsvFileFacts } from './csv-file';
import { quoteIdentifier, quoteString } from './quote';
import { columnTypeFromName } from './column-types';
import type { ResultColumn, WarehouseExecutor } from './types';

export interface CsvPreview {
  /** As the header names them, with the type the import would detect in these rows. */
  columns: ResultColumn[];
  /** The first rows, values in column order (JSON-safe). */
  rows: unknown[][];
}

/**
 * The first rows of a CSV file (the head of an upload) read as an import reads them: the same
 * delimiter and dialect, the types DuckDB detects, dates in other formats than ISO read as the
 * import would (csv-dates.ts). Reads into a temporary table only: nothing is written to the
 * warehouse file. Bad files raise the import's errors (csv-errors.ts).
 */
export async function previewCsvFile(
  executor: WarehouseExecutor,
  filePath: string,
  limits: { maxBytes: number; maxColumns: number; rows: number },
): Promise<CsvPreview> {
  const facts = await inspectCsvFile(filePath, limits.maxBytes);
  refuseWide(facts.headerFields, limits.maxColumns);
  return readCsvFile(executor, filePath, facts, (path, extra) => readHead(executor, path, facts, limits, extra));
}

async function readHead(
  executor: WarehouseExecutor,
  filePath: string,
  facts: CsvFileFacts,
  limits: { maxColumns: number; rows: number },
  extra: string,
): Promise<CsvPreview> {
  const scratch = quoteIdentifier(`_preview_${randomBytes(6).toString('hex')}`);
  return executor.session(async (session) => {
    try {
      const sniffed = await sniff(session, filePath, facts, extra);
      refuseWide(sniffed.columns.length, limits.maxColumns);
      // Dates DuckDB would guess a format for, and numbers, are read as text, then settled as the
      // import settles them.
      const plan = readPlan(
        sniffed.columns,
        sniffed.columns.map((c) => sniffed.guessedDateFormat && (c.type === 'Date' || c.type === 'DateTime')),
      );
      const types = plan.readTypes.map((type) => quoteString(sqlTypeText(type)));
      const typeList = `${extra}${types.length > 0 ? `, types = [${types.join(', ')}]` : ''}`;
      await session.run(`CREATE TEMP TABLE ${scratch} AS SELECT * FROM ${readCsvCall(facts, typeList)}`, [filePath]);
      const { columns } = await session.query({ sql: `SELECT * FROM ${scratch} LIMIT 0`, parameters: [] });
      const headerNames = columns.map((c) => c.name);
      const readNames = await freeRowid(session, scratch, headerNames);
      const readings = await settleReadings(session, scratch, { ...plan, readNames, columns, keptText: [] });
      const readingOf = readings.of;
      const selected = readNames.map((name, i) => {
        const expression = readingOf(name)?.expression(quoteIdentifier(name)) ?? quoteIdentifier(name);
        return `${expression} AS c${i}`;
      });
      if (selected.length === 0) return { columns: [], rows: [] };
      // Every row converted, as the import's copy converts them: a value its column's type cannot
      // read fails here too (the shown rows alone would not), and every row is sniffed instead.
      await session.all({
        sql: `SELECT ${selected.map((_, i) => `count(c${i})`).join(', ')} FROM (SELECT ${selected.join(', ')} FROM ${scratch})`,
        parameters: [],
      });
      const rows = await session.all({
        sql: `SELECT ${selected.join(', ')} FROM ${scratch} ORDER BY rowid LIMIT ${Math.max(1, Math.floor(limits.rows))}`,
        parameters: [],
      });
      return {
        columns: headerNames.map((name, i) => {
          const sqlType = readingOf(readNames[i] as string)?.sqlType ?? columns[i]?.sqlType ?? 'VARCHAR';
          return { name, sqlType, type: columnTypeFromName(sqlType) };
        }),
        rows: rows.map((row) => selected.map((_, i) => row[`c${i}`] ?? null)),
      };
    } finally {
      await session.run(`DROP TABLE IF EXISTS ${scratch}`);
    }
  });
}
