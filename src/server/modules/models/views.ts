/**
 * Published model versions as views in the warehouse's `model` schema, so another model, the grid
 * and downloads read them like tables. A view cannot hold bound parameters, so its text is the
 * compiled SELECT with values written as the dialect's literals — the same text "Show SQL" shows.
 * Each change of views records the versions' statuses with it (durable-writes.ts).
 */
import type { WriteJournal } from '../../durability/write-journal';
import { exclusiveAll } from '../../warehouse/exclusive-all';
import { quoteIdentifier, quoteQualified } from '../../warehouse/quote';
import type { WarehouseExecutor } from '../../warehouse/types';
import { MODEL_DELETED, VERSION_ACTIVATED, type VersionActivated } from './durable-writes';
import { MODEL_SCHEMA, modelViewName } from './sources';

/** Creates (or replaces) the version's view and makes the version the model's active one. */
export async function activateVersion(
  warehouse: WarehouseExecutor,
  writes: WriteJournal,
  activated: VersionActivated,
  viewSql: string,
): Promise<void> {
  const name = modelViewName(activated.versionId);
  await warehouse.exclusive(`schema:${MODEL_SCHEMA}`, () =>
    warehouse.run(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(MODEL_SCHEMA)}`),
  );
  await warehouse.exclusive(`table:${MODEL_SCHEMA}.${name}`, () =>
    writes.write(warehouse.accountId, VERSION_ACTIVATED, (mark) =>
      warehouse.transaction(async (tx) => {
        // Prepared, so the text must be exactly one statement: nothing can ride along after the SELECT.
        await tx.all({
          sql: `CREATE OR REPLACE VIEW ${quoteQualified(MODEL_SCHEMA, name)} AS\n${viewSql}`,
          parameters: [],
        });
        await mark(tx, activated);
      }),
    ),
  );
}

/** Drops the views of the model's versions and deletes the model. */
export async function deleteModel(
  warehouse: WarehouseExecutor,
  writes: WriteJournal,
  modelId: string,
  versionIds: string[],
): Promise<void> {
  const names = versionIds.map(modelViewName);
  await exclusiveAll(
    warehouse,
    names.map((name) => `table:${MODEL_SCHEMA}.${name}`),
    () =>
      writes.write(warehouse.accountId, MODEL_DELETED, (mark) =>
        warehouse.transaction(async (tx) => {
          for (const name of names) await tx.run(`DROP VIEW IF EXISTS ${quoteQualified(MODEL_SCHEMA, name)}`);
          await mark(tx, { modelId });
        }),
      ),
  );
}
