import type {
  DuckDBConnection,
  DuckDBPreparedStatement,
  DuckDBResult,
  DuckDBResultReader,
  DuckDBType,
  DuckDBValue,
} from '@duckdb/node-api';
import type { CompiledQuery, ResultRow, SqlValue } from '../../engine/sql';
import { parameterTypes } from './bind-parameters';
import { columnTypeOf } from './column-types';
import type { Gate } from './gate';
import { toJsonValue } from './json-values';
import type { ResultColumn, WarehouseSession } from './types';

/** The statements of one connection. Every native call passes the gate (see gate.ts). */
export function createSession(connection: DuckDBConnection, gate: Gate): WarehouseSession {
  /**
   * A compiled query as exactly one prepared statement with its values bound: DuckDB refuses to
   * prepare text holding several statements, so nothing can ride along after a query. The statement
   * is destroyed when `work` ends: it holds its plan's native state (~0.7 MB for a keys-first page)
   * that JS garbage collection, blind to native memory, frees too late, and ~1,300 pages ran the
   * instance out of its memory_limit.
   */
  const withStatement = async <T>(query: CompiledQuery, work: (s: DuckDBPreparedStatement) => Promise<T>) => {
    const statement = await gate.run(() => connection.prepare(query.sql));
    try {
      statement.bind([...query.parameters], parameterTypes(query.parameters));
      return await work(statement);
    } finally {
      statement.destroySync();
    }
  };
  const read = (query: CompiledQuery): Promise<DuckDBResultReader> =>
    withStatement(query, (statement) => gate.run(() => statement.runAndReadAll()));

  return {
    async all(query) {
      const reader = await read(query);
      return rowObjects(reader.deduplicatedColumnNames(), reader.columnTypes(), reader.getRows());
    },

    async query(query) {
      const reader = await read(query);
      const names = reader.deduplicatedColumnNames();
      const types = reader.columnTypes();
      return { columns: resultColumns(names, types), rows: rowObjects(names, types, reader.getRows()) };
    },

    async *stream(query) {
      const statement = await gate.run(() => connection.prepare(query.sql));
      try {
        statement.bind([...query.parameters], parameterTypes(query.parameters));
        const result: DuckDBResult = await gate.run(() => statement.stream());
        const names = result.deduplicatedColumnNames();
        const types = result.columnTypes();
        for (;;) {
          const chunk = await gate.run(() => result.fetchChunk());
          if (!chunk || chunk.rowCount === 0) return;
          yield rowObjects(names, types, chunk.getRows());
        }
      } finally {
        statement.destroySync();
      }
    },

    async run(sql: string, parameters: SqlValue[] = []) {
      // Without values the text may hold several statements (DDL scripts); with values it is prepared
      // as exactly one.
      if (parameters.length === 0) return (await gate.run(() => connection.run(sql))).rowsChanged;
      return withStatement(
        { sql, parameters },
        async (statement) => (await gate.run(() => statement.run())).rowsChanged,
      );
    },
  };
}

function resultColumns(names: readonly string[], types: readonly DuckDBType[]): ResultColumn[] {
  return names.map((name, index) => {
    const type = types[index];
    if (!type) throw new Error(`DuckDB reported no type for column ${name}`);
    return { name, type: columnTypeOf(type), sqlType: type.alias ?? type.toString() };
  });
}

/**
 * Converted with the result's column types: the types of a chunk's vectors lose the JSON alias of a
 * top-level column, which would leave JSON columns as text. Built with Object.fromEntries, which
 * makes every name an own property: assigning `row['__proto__']` would set the prototype instead
 * and lose a column of that name.
 */
function rowObjects(names: readonly string[], types: readonly DuckDBType[], rows: DuckDBValue[][]): ResultRow[] {
  return rows.map((values): ResultRow =>
    Object.fromEntries(names.map((name, index) => [name, toJsonValue(values[index] ?? null, types[index])])),
  );
}
