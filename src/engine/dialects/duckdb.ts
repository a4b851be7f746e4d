/**
 * DuckDB, the warehouse of every account and the default dialect. Only what differs from the
 * standard SQL of `SqlDialect` is here.
 */
import { SqlDialect, type DialectCapabilities } from '../dialect';
import type { SqlType } from '../sql-ast';

export class DuckDbDialect extends SqlDialect {
  override readonly name: string = 'duckdb';
  // DuckDB's own late materialization covers LIMIT + OFFSET up to late_materialization_max_rows (50).
  override readonly capabilities: DialectCapabilities = {
    nativeLateMaterializationRows: 50,
    filteredPlainRows: 10_000,
  };

  /** DuckDB stores NUL in text but its parser ends a literal there, so NUL is spelled `chr(0)`. */
  protected override stringLiteral(value: string): string {
    const parts = value.split('\0').map((part) => `'${part.replaceAll("'", "''")}'`);
    return parts.length === 1 ? parts[0]! : `(${parts.join(' || chr(0) || ')})`;
  }

  override typeName(type: SqlType): string {
    return type === 'double' ? 'DOUBLE' : super.typeName(type);
  }

  /** `contains(lower(..))` measured about 3x faster than ILIKE '%..%' on 10M rows, and needs no escaping. */
  override containsInsensitive(haystack: string, needle: string): string {
    return `contains(lower(${haystack}), lower(${needle}))`;
  }

  /**
   * Minified JSON, also for STRUCT and MAP columns, whose own text form (`{'k': 'it\\'s'}`) quotes
   * and escapes differently from what the grid shows.
   */
  override jsonToText(sql: string): string {
    return `CAST(to_json(${sql}) AS VARCHAR)`;
  }

  override arrayLength(sql: string): string {
    return `len(${sql})`;
  }
}

export const duckdbDialect = new DuckDbDialect();
