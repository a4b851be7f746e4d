/**
 * How a model's published views and its versions' statuses change together across a crash
 * (src/server/durability/write-journal.ts), and what a crash may leave in the model schema.
 */
import { z } from 'zod';
import type { Db } from '../../db/database';
import type { WriteJournal } from '../../durability/write-journal';
import { quoteQualified } from '../../warehouse/quote';
import type { WarehouseConnection } from '../../warehouse/types';
import { setStatus, touchModel } from './repo';
import { MODEL_SCHEMA, modelViewName } from './sources';

export const VERSION_ACTIVATED = 'model.version-activated';
export const MODEL_DELETED = 'model.deleted';

const activatedSchema = z.object({ modelId: z.string(), versionId: z.string(), at: z.string() });
export type VersionActivated = z.infer<typeof activatedSchema>;

export function registerModelWrites(writes: WriteJournal): void {
  writes.register(VERSION_ACTIVATED, {
    payload: activatedSchema,
    /** The previous active version becomes Inactive and the version Active (its draft steps dropped). */
    async apply(db: Db, { modelId, versionId, at }) {
      const active = await db
        .selectFrom('model_versions')
        .select('id')
        .where('model_id', '=', modelId)
        .where('status', '=', 'Active')
        .where('id', '!=', versionId)
        .execute();
      for (const { id } of active) await setStatus(db, id, 'Inactive', at);
      await setStatus(db, versionId, 'Active', at);
      // A published version is no draft: its undo history ends here.
      await db.deleteFrom('model_draft_steps').where('version_id', '=', versionId).execute();
      await touchModel(db, modelId, at);
    },
  });
  writes.register(MODEL_DELETED, {
    payload: z.object({ modelId: z.string() }),
    async apply(db: Db, { modelId }) {
      await db.deleteFrom('models').where('id', '=', modelId).execute();
    },
  });
}

/** Drops views of versions that are not published (a publish a crash cut short, a deleted model). */
export async function sweepModelLeftovers(db: Db, accountId: string, connection: WarehouseConnection) {
  const views = await connection.all({
    sql: 'SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND schema_name = $1',
    parameters: [MODEL_SCHEMA],
  });
  if (views.length === 0) return;
  const published = await db
    .selectFrom('model_versions')
    .innerJoin('models', 'models.id', 'model_versions.model_id')
    .select('model_versions.id')
    .where('models.account_id', '=', accountId)
    .where('model_versions.status', 'in', ['Active', 'Inactive'])
    .execute();
  const kept = new Set(published.map((v) => modelViewName(v.id)));
  for (const { view_name: name } of views) {
    if (!kept.has(String(name)))
      await connection.run(`DROP VIEW IF EXISTS ${quoteQualified(MODEL_SCHEMA, String(name))}`);
  }
}
