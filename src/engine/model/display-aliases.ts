/**
 * "Show SQL" for people: the model's SELECT with each column named by its display name instead of
 * its key, so a data engineer can read it. Only the output names change (function columns inline
 * their references' expressions, and filters read expressions, never aliases), so the text is the
 * same query and returns the same rows; the published view keeps the keys, which pages, filters,
 * exports and other models read.
 */
import type { SelectStatement } from '../sql-ast';

/** Case-insensitive, as DuckDB compares identifiers. */
const fold = (name: string): string => name.toLocaleLowerCase();

/**
 * One alias per column, in order: the display name (trimmed), else the key; a name met before gets
 * ` (2)`, ` (3)`, ... so every alias is unique. NUL cannot be quoted, so such a name falls back to the key.
 */
export function displayAliases(columns: readonly { columnKey: string; displayName: string }[]): string[] {
  const taken = new Set<string>();
  return columns.map(({ columnKey, displayName }) => {
    const trimmed = displayName.trim();
    const base = trimmed === '' || trimmed.includes('\0') ? columnKey : trimmed;
    let alias = base;
    for (let n = 2; taken.has(fold(alias)); n++) alias = `${base} (${n})`;
    taken.add(fold(alias));
    return alias;
  });
}

/** The statement with its select items renamed to `aliases` (one per item, in order). */
export function renameItems(statement: SelectStatement, aliases: readonly string[]): SelectStatement {
  if (aliases.length !== statement.items.length) throw new Error('One alias per select item is needed');
  return { ...statement, items: statement.items.map((item, i) => ({ ...item, alias: aliases[i]! })) };
}
