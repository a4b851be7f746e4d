/**
 * A real DuckDB for the engine's tests, behind the engine's `SqlRunner` contract. Compiled queries
 * go through `prepare`, which refuses a text holding more than one statement; `runAndReadAll` with
 * values would quietly run all but the last one first.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { CompiledQuery, ResultRow, SqlRunner } from '../../src/engine/sql';
import { parameterTypes } from '../../src/server/warehouse/bind-parameters';

export interface TestDuckDb extends SqlRunner {
  /** Setup SQL written by the test itself (DDL, inserts); may hold several statements. */
  exec(sql: string, values?: (string | number | boolean | null)[]): Promise<void>;
  /** Rows of a test's own query, JSON-converted like `all`. */
  rows(sql: string): Promise<ResultRow[]>;
  close(): void;
}

/**
 * Rows as objects whose every column is an own property. getRowObjectsJson assigns by name, so a
 * column called `__proto__` (fast-check finds it) would set the prototype and vanish.
 */
function ownRows(reader: { columnNames(): string[]; getRowsJson(): unknown[][] }): ResultRow[] {
  const names = reader.columnNames();
  return reader
    .getRowsJson()
    .map((values) => Object.fromEntries(names.map((name, i) => [name, values[i]])) as ResultRow);
}

export async function openTestDuckDb(): Promise<TestDuckDb> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection: DuckDBConnection = await instance.connect();

  return {
    async all(query: CompiledQuery): Promise<ResultRow[]> {
      const prepared = await connection.prepare(query.sql);
      try {
        // Typed as the server binds them (a whole double past 2^53 is a DOUBLE, not a BIGINT).
        prepared.bind([...query.parameters], parameterTypes(query.parameters));
        const reader = await prepared.runAndReadAll();
        return ownRows(reader);
      } finally {
        prepared.destroySync();
      }
    },
    async exec(sql, values) {
      await connection.run(sql, values);
    },
    async rows(sql) {
      return ownRows(await connection.runAndReadAll(sql));
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
