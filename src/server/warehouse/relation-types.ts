/**
 * The warehouse's own type of each column of a relation (DuckDB's names: `BIGINT`, `HUGEINT`,
 * `DECIMAL(20,6)`, `DOUBLE`, ...), which the engine needs to compare filter values exactly: a
 * value is bound in the column's type (engine: filters/operands.ts). The metadata holds only the
 * type the user sees (Number), and a stored table's columns may be any numeric type, so the types
 * are read from the relation itself: `SELECT * .. LIMIT 0` plans the query and runs nothing.
 *
 * A stored table's or view's types are kept per relation version: every writer of a table goes
 * through `exclusive('table:<schema>.<name>')`, which moves the version on (relation-versions.ts).
 */
import { renderSelect, type CompiledQuery, type Relation } from '../../engine';
import { quoteQualified } from './quote';
import type { WarehouseExecutor } from './types';

export type SqlTypes = ReadonlyMap<string, string>;

/** Types of stored relations by account, relation and version; the oldest go past this many. */
const MAX_ENTRIES = 2_000;
const stored = new Map<string, SqlTypes>();

function remember(key: string, types: SqlTypes): void {
  stored.set(key, types);
  if (stored.size > MAX_ENTRIES) stored.delete(stored.keys().next().value as string);
}

/**
 * The SQL type of each column of `relation`, by column name. Empty when the relation cannot be
 * read (a deleted table): the query that follows reports that itself.
 */
export async function relationSqlTypes(executor: WarehouseExecutor, relation: Relation): Promise<SqlTypes> {
  if (relation.kind === 'table') {
    const name = `${relation.schema}.${relation.name}`;
    const key = `${executor.accountId}\0${name}\0${executor.relationVersion(name)}`;
    const known = stored.get(key);
    if (known) return known;
    const sql = `SELECT * FROM ${quoteQualified(relation.schema, relation.name)} LIMIT 0`;
    const types = await read(executor, { sql, parameters: [] });
    if (types.size > 0) remember(key, types);
    return types;
  }
  // A SELECT (a draft model) changes with every edit: read each time it is asked for. Its
  // output names are its columns' keys.
  return read(executor, renderSelect({ ...relation.statement, orderBy: [], limit: 0, offset: null }));
}

async function read(executor: WarehouseExecutor, query: CompiledQuery): Promise<SqlTypes> {
  try {
    const { columns } = await executor.query(query);
    return new Map(columns.map((column) => [column.name, column.sqlType]));
  } catch {
    return new Map();
  }
}
