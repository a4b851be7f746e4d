/**
 * Published model versions as views in the warehouse's `model` schema, so another model, the grid
 * and downloads read them like tables. A view cannot hold bound parameters, so its text is the
 * compiled SELECT with values written as the dialect's literals — the same text "Show SQL" shows.
 */
import type { WarehouseExecutor } from '../../warehouse/types';
import { quoteIdentifier, quoteQualified } from '../../warehouse/quote';
import { MODEL_SCHEMA, modelViewName } from './sources';

export async function createModelView(warehouse: WarehouseExecutor, versionId: string, viewSql: string): Promise<void> {
  const name = modelViewName(versionId);
  await warehouse.exclusive(`schema:${MODEL_SCHEMA}`, () =>
    warehouse.run(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(MODEL_SCHEMA)}`),
  );
  // Prepared, so the text must be exactly one statement: nothing can ride along after the SELECT.
  await warehouse.exclusive(`table:${MODEL_SCHEMA}.${name}`, () =>
    warehouse.all({
      sql: `CREATE OR REPLACE VIEW ${quoteQualified(MODEL_SCHEMA, name)} AS\n${viewSql}`,
      parameters: [],
    }),
  );
}

export async function dropModelViews(warehouse: WarehouseExecutor, versionIds: string[]): Promise<void> {
  for (const versionId of versionIds) {
    const name = modelViewName(versionId);
    await warehouse.exclusive(`table:${MODEL_SCHEMA}.${name}`, () =>
      warehouse.run(`DROP VIEW IF EXISTS ${quoteQualified(MODEL_SCHEMA, name)}`),
    );
  }
}
