/**
 * Indexing one table: the warehouse counts and writes the entries (DuckDB aggregates and writes
 * newline-delimited JSON into the account's scratch folder), the writer thread loads them. The main
 * thread only sends two statements and a message, whatever the table's size.
 *
 * Per text column: when few values repeat a lot, one entry per distinct value with its row count
 * ('values'); when nearly every row has its own value, one entry per row ('rows'). After a sync that
 * only added rows (the rows indexed before are all still there, unchanged: same count and the same
 * fingerprint of their contents), 'rows' columns take only the new rows and 'values' columns are
 * re-counted; anything else replaces the table's entries in one transaction.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { quoteIdentifier as q, quoteQualified, quoteString } from '../warehouse/quote';
import type { WarehouseExecutor } from '../warehouse/types';
import { searchableColumns, type SearchTable } from './catalog';
import type { IndexColumnJob, IndexWriter } from './index-worker';

/** A column with at most this many distinct values, or values repeated twice on average, is indexed by value. */
const VALUE_ENTRY_LIMIT = 100_000;
/** Longer texts are indexed by their start (a search box is for finding, not for whole documents). */
const MAX_INDEXED_CHARS = 1_000;

export interface IndexedState {
  rows: number;
  maxRow: number | null;
  fingerprint: string | null;
  kinds: Map<string, string>;
}

/** What the index holds about a table now (read on the main thread's read-only connection). */
export function indexedState(reader: Database.Database | null, tableKey: string): IndexedState | null {
  if (!reader) return null;
  try {
    return readIndexedState(reader, tableKey);
  } catch (error) {
    // The file is being created by the writer: nothing indexed yet.
    if (/no such table/i.test(String(error))) return null;
    throw error;
  }
}

function readIndexedState(reader: Database.Database, tableKey: string): IndexedState | null {
  const table = reader
    .prepare('SELECT tid, rows, max_row, fingerprint FROM tables WHERE table_key = ?')
    .get(tableKey) as { tid: number; rows: number; max_row: number | null; fingerprint: string | null } | undefined;
  if (!table) return null;
  const kinds = reader.prepare('SELECT column_key, kind FROM columns WHERE tid = ?').all(table.tid) as {
    column_key: string;
    kind: string;
  }[];
  return {
    rows: table.rows,
    maxRow: table.max_row,
    fingerprint: table.fingerprint,
    kinds: new Map(kinds.map((k) => [k.column_key, k.kind])),
  };
}

interface Stats {
  rows: number;
  maxRow: number | null;
  fingerprint: string | null;
  /** Rows at or below the indexed max row, and their fingerprint. */
  oldRows: number;
  oldFingerprint: string | null;
  distinct: number[];
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

async function readStats(
  executor: WarehouseExecutor,
  table: SearchTable,
  columns: string[],
  before: IndexedState | null,
): Promise<Stats> {
  const relation = `${quoteQualified(table.schema, table.table)} AS t`;
  const key = table.rowKey ? q(table.rowKey) : null;
  const oldMax = before?.maxRow ?? null;
  // A number this code holds (never user text), checked to be an integer before it is written in.
  const old = key && oldMax !== null && Number.isSafeInteger(oldMax) ? `${key} <= ${oldMax}` : 'false';
  const select = [
    'count(*) AS n',
    key ? `max(${key}) AS m` : 'NULL AS m',
    key ? `CAST(bit_xor(hash(t)) AS VARCHAR) AS f` : 'NULL AS f',
    `count(*) FILTER (WHERE ${old}) AS o`,
    key ? `CAST(bit_xor(hash(t)) FILTER (WHERE ${old}) AS VARCHAR) AS of` : 'NULL AS of',
    ...columns.map((c, i) => `approx_count_distinct(${q(c)}) AS d${i}`),
  ];
  const [row] = await executor.all({ sql: `SELECT ${select.join(', ')} FROM ${relation}`, parameters: [] });
  return {
    rows: num(row?.n),
    maxRow: row?.m === null || row?.m === undefined ? null : Number(row.m),
    fingerprint: text(row?.f),
    oldRows: num(row?.o),
    oldFingerprint: text(row?.of),
    distinct: columns.map((_, i) => num(row?.[`d${i}`])),
  };
}

/**
 * Writes the table's new entries with the warehouse and loads them with the writer. `excluded`:
 * columns kept out of search. Throws when the table's rows cannot be read (gone from the warehouse).
 */
export async function indexTable(options: {
  executor: WarehouseExecutor;
  writer: IndexWriter;
  file: string;
  table: SearchTable;
  excluded: ReadonlySet<string>;
  before: IndexedState | null;
  now: Date;
}): Promise<{ documentsFile: boolean }> {
  const { executor, writer, file, table, excluded, before } = options;
  const columns = searchableColumns(table.columns)
    .map((c) => c.columnKey)
    .filter((c) => !excluded.has(c));
  const stats = await readStats(executor, table, columns, before);
  // Only rows were added since the last build: the rows indexed then are all there, unchanged.
  const appended =
    before !== null &&
    before.maxRow !== null &&
    stats.maxRow !== null &&
    stats.maxRow >= before.maxRow &&
    stats.oldRows === before.rows &&
    before.fingerprint !== null &&
    stats.oldFingerprint === before.fingerprint;
  // Nothing new, and the same columns searchable: the index already holds this table.
  const sameColumns =
    before !== null && before.kinds.size === columns.length && columns.every((c) => before.kinds.has(c));
  if (appended && stats.rows === before.rows && sameColumns) {
    return { documentsFile: false };
  }
  const jobs: IndexColumnJob[] = columns.map((columnKey, i) => {
    const distinct = stats.distinct[i] ?? 0;
    const kind = distinct <= VALUE_ENTRY_LIMIT || distinct * 2 <= stats.rows ? 'values' : 'rows';
    const onlyNew = appended && kind === 'rows' && before.kinds.get(columnKey) === 'rows';
    return { columnKey, kind, replace: !onlyNew };
  });
  const relation = quoteQualified(table.schema, table.table);
  const key = table.rowKey ? q(table.rowKey) : null;
  const parts = jobs.map((job, i) => {
    const value = `left(CAST(${q(job.columnKey)} AS VARCHAR), ${MAX_INDEXED_CHARS})`;
    if (job.kind === 'values') {
      return `SELECT ${i} AS c, v, n, r FROM (SELECT ${value} AS v, count(*) AS n, ${key ? `min(${key})` : 'NULL'} AS r
        FROM ${relation} WHERE ${q(job.columnKey)} IS NOT NULL GROUP BY 1) WHERE v <> ''`;
    }
    const since =
      !job.replace && before?.maxRow !== null && Number.isSafeInteger(before?.maxRow)
        ? ` AND ${key} > ${before?.maxRow}`
        : '';
    return `SELECT ${i} AS c, ${value} AS v, 1 AS n, ${key ?? 'NULL'} AS r FROM ${relation}
      WHERE ${q(job.columnKey)} IS NOT NULL AND CAST(${q(job.columnKey)} AS VARCHAR) <> ''${since}`;
  });
  let entries: string | null = null;
  if (parts.length > 0) {
    fs.mkdirSync(executor.scratchDir, { recursive: true });
    entries = path.join(executor.scratchDir, `search-${randomUUID()}.ndjson`);
    await executor.run(`COPY (${parts.join('\nUNION ALL\n')}) TO ${quoteString(entries)} (FORMAT JSON)`);
  }
  try {
    await writer.run({
      op: 'index',
      job: {
        file,
        tableKey: table.key,
        entries,
        columns: jobs,
        rows: stats.rows,
        maxRow: stats.maxRow,
        fingerprint: stats.fingerprint,
        indexedAt: options.now.toISOString(),
      },
    });
  } finally {
    if (entries) await fs.promises.rm(entries, { force: true });
  }
  return { documentsFile: true };
}
