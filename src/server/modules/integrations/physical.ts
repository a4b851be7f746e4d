/**
 * Where an integration's rows live: one warehouse schema per integration (its schemaName), one table
 * per dataset. Dataset tables carry a hidden `_row_id` numbering rows in arrival order (the grid's
 * stable key and the tie-break of de-duplication).
 */
import { RESERVED_SCHEMAS, schemaNameFrom } from '../../../shared/integrations';
import { badInput } from '../../errors';
import { quoteIdentifier, quoteQualified } from '../../warehouse/quote';

export const ROW_ID = '_row_id';
/** Staging tables of a sync start with this, so leftovers of a crash can be found and dropped. */
export const STAGING_PREFIX = '_stg_';

export { quoteIdentifier as q, quoteQualified };

/** Whether DuckDB takes the text as a column's name. */
const canName = (name: string) => name !== '' && !name.includes('\0');

/**
 * The warehouse column each source property is stored in. A source may hold names a warehouse table
 * cannot have side by side: DuckDB tells column names apart without regard to case (PostgreSQL's
 * "A" and "a" are two columns), and `_row_id` is the table's own row number. Such a property is
 * stored under the first free `<name>_2`, `<name>_3`, ...; every other name is kept as it is, so the
 * columns of existing datasets never move. A name no column can have (empty, or holding a NUL
 * character: DuckDB refuses both) is stored without its NUL characters (an empty one as `column`),
 * made free the same way.
 * Decided over all of a dataset's properties in their order, so choosing fewer of them never
 * renames one.
 */
export function warehouseColumnNames(properties: readonly string[]): Map<string, string> {
  const taken = new Set([ROW_ID]);
  const names = new Map<string, string>();
  for (const property of properties) {
    const key = property.toLowerCase();
    if (taken.has(key) || !canName(property)) continue;
    taken.add(key);
    names.set(property, property);
  }
  for (const property of properties) {
    if (names.has(property)) continue;
    const base = property.replaceAll('\0', '') || 'column';
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    taken.add(name.toLowerCase());
    names.set(property, name);
  }
  return names;
}

/** What a sync's log says of each property stored under another name than its own (warehouseColumnNames). */
export function renamedColumnNotices(columns: readonly { name: string; field: string }[]): string[] {
  return columns
    .filter((c) => c.name !== c.field)
    .map((c) => {
      const why = !canName(c.field)
        ? c.field === ''
          ? 'a column needs a name'
          : 'a column name cannot hold a NUL character'
        : c.field.toLowerCase() === ROW_ID
          ? `${ROW_ID} is the name of the table's own row number`
          : 'the warehouse does not tell column names apart by case, and another property has this name';
      return `Property "${c.field.replaceAll('\0', '\\0')}" is stored as column "${c.name}": ${why}.`;
    });
}

/** The cleaned schema name, or a 400 when it is empty or reserved. */
export function cleanSchemaName(raw: string): string {
  const name = schemaNameFrom(raw.trim());
  if (!/[a-z0-9]/.test(name)) throw badInput('schemaName: use at least one letter or digit.');
  if ((RESERVED_SCHEMAS as readonly string[]).includes(name) || name.startsWith('duckdb_') || name.startsWith('pg_'))
    throw badInput(`schemaName: "${name}" is reserved by the warehouse; choose another name.`);
  return name;
}

/** A table name for a dataset, unique among `taken` (cleaned like schema names, never starting with `_`). */
export function datasetTableName(datasetName: string, taken: ReadonlySet<string>): string {
  let base = schemaNameFrom(datasetName).replace(/^_+/, '').slice(0, 60) || 'dataset';
  if (/^\d/.test(base)) base = `d_${base}`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  return name;
}
