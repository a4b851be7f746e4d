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
