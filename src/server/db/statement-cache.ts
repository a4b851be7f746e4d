import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct statements kept; query shapes are few, so this is only a bound for IN lists of many lengths. */
const MAX_STATEMENTS = 500;

/**
 * The database as Kysely's SQLite dialect sees it, with each statement prepared once per SQL text
 * and reused: Kysely asks for a new prepared statement on every query, and preparing costs ~50 µs,
 * several times the run of a lookup by key, on each of the few lookups of every request. Safe
 * because Kysely runs one query at a time on its single connection and reads each result fully
 * (no streaming reads here); SQLite re-prepares a statement itself after a schema change.
 */
export function withStatementCache(database: SqliteDatabase): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= MAX_STATEMENTS) statements.clear();
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
