/**
 * An independent engine for differential tests: SQLite (better-sqlite3, in memory) behind the
 * engine's `SqlRunner`, and a small `SqliteDialect` that renders the engine's SQL tree for it.
 * Schemas are attached in-memory databases (`ATTACH ':memory:' AS data`).
 *
 * The dialect covers what the differential tests use: numbers, text, joins, filters. SQLite's
 * CAST never fails (so TRY_CAST is a plain CAST) and it has no date types, so conversions and
 * date truncation stay with the DuckDB tests.
 */
import Database from 'better-sqlite3';
import { SqlDialect } from '../../src/engine/dialect';
import type { SqlType } from '../../src/engine/sql-ast';
import type { CompiledQuery, ResultRow, SqlRunner } from '../../src/engine/sql';

export class SqliteDialect extends SqlDialect {
  override readonly name: string = 'sqlite';

  /** Named parameters: better-sqlite3 binds `@p1` from `{ p1: value }`. */
  override placeholder(index: number): string {
    return `@p${index}`;
  }

  override typeName(type: SqlType): string {
    // SQLite has integers and reals only; the engine's other exact numeric types are its INTEGER or TEXT.
    const names: Partial<Record<SqlType, string>> = {
      text: 'TEXT',
      integer: 'INTEGER',
      bigint: 'INTEGER',
      double: 'REAL',
      boolean: 'INTEGER',
      date: 'TEXT',
      timestamp: 'TEXT',
    };
    return names[type] ?? (type.startsWith('decimal') || type === 'float' ? 'REAL' : 'INTEGER');
  }

  override containsInsensitive(haystack: string, needle: string): string {
    return `(instr(lower(${haystack}), lower(${needle})) > 0)`;
  }

  override distinctFrom(left: string, right: string): string {
    return `${left} IS NOT ${right}`;
  }

  override tryCast(sql: string, type: SqlType): string {
    return `CAST(${sql} AS ${this.typeName(type)})`;
  }

  override truncateDate(): string {
    throw new Error('The SQLite test dialect has no date types');
  }
}

export const sqliteDialect = new SqliteDialect();

export interface TestSqlite extends SqlRunner {
  /** Setup SQL written by the test itself; may hold several statements. */
  exec(sql: string): void;
  /** Inserts rows into `schema.table` through bound parameters. */
  insert(qualifiedTable: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): void;
  close(): void;
}

/** SQLite binds no booleans: they become 1 and 0, as SQLite stores them. */
function bindable(value: CompiledQuery['parameters'][number]): string | number | bigint | null {
  return typeof value === 'boolean' ? Number(value) : value;
}

export function openTestSqlite(schemas: readonly string[] = []): TestSqlite {
  const db = new Database(':memory:');
  for (const schema of schemas) db.prepare(`ATTACH ':memory:' AS "${schema.replaceAll('"', '""')}"`).run();
  return {
    async all(query: CompiledQuery): Promise<ResultRow[]> {
      const statement = db.prepare(query.sql);
      if (query.parameters.length === 0) return statement.all() as ResultRow[];
      const values = Object.fromEntries(query.parameters.map((value, index) => [`p${index + 1}`, bindable(value)]));
      return statement.all(values) as ResultRow[];
    },
    exec(sql) {
      db.exec(sql);
    },
    insert(qualifiedTable, columns, rows) {
      const placeholders = columns.map(() => '?').join(', ');
      const statement = db.prepare(`INSERT INTO ${qualifiedTable} (${columns.join(', ')}) VALUES (${placeholders})`);
      for (const row of rows) statement.run(...row);
    },
    close() {
      db.close();
    },
  };
}
