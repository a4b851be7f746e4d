/**
 * Which columns of an imported CSV file are the table's earlier columns. A column whose header
 * matches an earlier column's name keeps that column's key, so the models, pivots and filters that
 * read it keep working after the same file (or next month's) is uploaded again; it also keeps its
 * description and, where every value of the file fits, its type (csv-import.ts checks the values).
 *
 * Names match when they are equal after Unicode normalisation (NFC), trimming spaces at both ends and
 * folding runs of spaces into one; headers still unmatched then match ignoring case. Each earlier
 * column is taken at most once, by the first header in file order. The column shows the file's
 * header as its name. Earlier columns no header matched are gone; a new column never reuses the key
 * of one (a model reading it shows it as removed instead of reading some other column).
 *
 * A column keeps its type only when it held a value: the blank A and B of a new table, or a column
 * never filled in, take the type found in the file.
 */
import type { Column } from '../../../shared/tables';
import { columnTypeFromName } from '../../warehouse/column-types';
import type { StoredColumn } from '../../warehouse/csv-import';
import type { ResultColumn, WarehouseSession } from '../../warehouse/types';
import { STATIC_SCHEMA, newColumnKey, q, qualified, warehouseTableName } from './physical';

const normalised = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ');

/** The earlier column each header takes (null for a new column), in header order. */
export function matchHeaders(existing: readonly Column[], header: readonly string[]): (Column | null)[] {
  const free = new Set(existing);
  const matched: (Column | null)[] = header.map(() => null);
  const pass = (same: (a: string, b: string) => boolean) => {
    header.forEach((name, i) => {
      if (matched[i]) return;
      const found = existing.find((c) => free.has(c) && same(normalised(c.displayName), normalised(name)));
      if (!found) return;
      matched[i] = found;
      free.delete(found);
    });
  };
  pass((a, b) => a === b);
  pass((a, b) => a.toLowerCase() === b.toLowerCase());
  return matched;
}

export interface ImportColumns {
  stored: StoredColumn[];
  /** The key of each header's column. */
  keys: string[];
  /** The earlier column each header took, or null. */
  matched: (Column | null)[];
  /** Earlier columns no header took. */
  removed: Column[];
}

/** Keys and kept types for a file's header; reads the table's current column types from the warehouse. */
export async function importColumns(
  session: WarehouseSession,
  tableId: string,
  existing: Column[],
  header: ResultColumn[],
): Promise<ImportColumns> {
  const matched = matchHeaders(
    existing,
    header.map((c) => c.name),
  );
  const taken = new Set<string>([...existing.map((c) => c.columnKey), ...header.map((c) => c.name)]);
  const keys = matched.map((column) => {
    if (column) return column.columnKey;
    const key = newColumnKey(taken);
    taken.add(key);
    return key;
  });
  const keepTypes = await typesToKeep(session, tableId, matched, header);
  return {
    stored: keys.map((name, i) => ({ name, keepType: keepTypes[i] ?? null })),
    keys,
    matched,
    removed: existing.filter((c) => !matched.includes(c)),
  };
}

/**
 * The warehouse type of each matched column that held a value, when the file's first rows suggest
 * another type (the same type needs nothing kept), and of each Text column: its values are kept as
 * written, where the import would read dates or times out of them. The table may not exist yet:
 * nothing is kept.
 */
async function typesToKeep(
  session: WarehouseSession,
  tableId: string,
  matched: (Column | null)[],
  header: ResultColumn[],
): Promise<(string | null)[]> {
  const differing = matched.flatMap((column, i) =>
    column && (column.type !== header[i]?.type || column.type === 'Text') ? [{ i, key: column.columnKey }] : [],
  );
  if (differing.length === 0) return matched.map(() => null);
  const types = new Map(
    (
      await session.all({
        sql:
          'SELECT column_name, data_type FROM duckdb_columns() ' +
          'WHERE database_name = current_database() AND schema_name = $1 AND table_name = $2',
        parameters: [STATIC_SCHEMA, warehouseTableName(tableId)],
      })
    ).map((r) => [String(r.column_name), String(r.data_type)]),
  );
  const present = differing.filter(({ key }) => types.has(key));
  if (present.length === 0) return matched.map(() => null);
  const [counts] = await session.all({
    sql: `SELECT ${present.map(({ key }, n) => `count(${q(key)})::DOUBLE AS n${n}`).join(', ')} FROM ${qualified(tableId)}`,
    parameters: [],
  });
  const keep: (string | null)[] = matched.map(() => null);
  present.forEach(({ i, key }, n) => {
    const type = types.get(key) as string;
    // Only the spec's types are kept; a held value makes the column's type something users rely on.
    if (Number(counts?.[`n${n}`]) > 0 && columnTypeFromName(type) !== 'Json') keep[i] = type;
  });
  return keep;
}
