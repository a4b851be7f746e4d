import { EMPTY_DEFINITION, MODEL_STATUSES, type ModelDefinition, type ModelStatus } from '../../../shared/models';
import { compiledLookup } from '../../db/compiled';
import type { Db } from '../../db/database';
import type { ModelVersionsTable, ModelsTable } from '../../db/schema';

export type ModelRow = ModelsTable;

/** A version with its model, in the account (every page and count of a model version reads it). */
const versionLookup = compiledLookup((db: Db) =>
  db
    .selectFrom('model_versions')
    .innerJoin('models', 'models.id', 'model_versions.model_id')
    .selectAll('model_versions')
    .select(['models.name as model_name', 'models.account_id', 'models.created_at as model_created_at'])
    .select('models.modified_at as model_modified_at')
    .where('model_versions.id', '=', '')
    .where('models.account_id', '=', ''),
);

/**
 * The same row without the definition and dependencies: a published version's pages and counts
 * keep those (they never change) and need only its status and its model's name again.
 */
const versionHeadLookup = compiledLookup((db: Db) =>
  db
    .selectFrom('model_versions')
    .innerJoin('models', 'models.id', 'model_versions.model_id')
    .select(['model_versions.id', 'model_versions.model_id', 'model_versions.version_number'])
    .select(['model_versions.status', 'model_versions.created_at', 'model_versions.modified_at'])
    .select(['models.name as model_name', 'models.account_id', 'models.created_at as model_created_at'])
    .select('models.modified_at as model_modified_at')
    .where('model_versions.id', '=', '')
    .where('models.account_id', '=', ''),
);

export interface VersionRow {
  id: string;
  modelId: string;
  versionNumber: number;
  status: ModelStatus;
  definition: ModelDefinition;
  dependsOn: string[];
  createdAt: string;
  modifiedAt: string;
}

function asStatus(value: string): ModelStatus {
  return (MODEL_STATUSES as readonly string[]).includes(value) ? (value as ModelStatus) : 'Inactive';
}

type VersionHeadRow = Omit<ModelVersionsTable, 'definition' | 'depends_on'>;
export type VersionHead = Omit<VersionRow, 'definition' | 'dependsOn'>;

function toVersionHead(row: VersionHeadRow): VersionHead {
  return {
    id: row.id,
    modelId: row.model_id,
    versionNumber: row.version_number,
    status: asStatus(row.status),
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  };
}

/** A damaged definition reads as an empty one rather than taking the model page down. */
function parseDefinition(text: string): ModelDefinition {
  try {
    return { ...EMPTY_DEFINITION, ...(JSON.parse(text) as Partial<ModelDefinition>) };
  } catch {
    return EMPTY_DEFINITION;
  }
}

function parseIds(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function toVersion(row: ModelVersionsTable): VersionRow {
  return { ...toVersionHead(row), definition: parseDefinition(row.definition), dependsOn: parseIds(row.depends_on) };
}

interface WithModel {
  model_name: string;
  account_id: string;
  model_created_at: string;
  model_modified_at: string;
}

function modelOf(row: VersionHeadRow & WithModel): ModelRow {
  return {
    id: row.model_id,
    account_id: row.account_id,
    name: row.model_name,
    created_at: row.model_created_at,
    modified_at: row.model_modified_at,
  };
}

/** The model if it belongs to the account; other accounts' ids read as missing. */
export function findModel(db: Db, accountId: string, id: string): Promise<ModelRow | undefined> {
  return db
    .selectFrom('models')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export function listModelRows(db: Db, accountId: string): Promise<ModelRow[]> {
  return db.selectFrom('models').selectAll().where('account_id', '=', accountId).execute();
}

/** Every version of the account's models, newest first; for lists and cycle checks. */
export async function listAccountVersions(db: Db, accountId: string): Promise<VersionRow[]> {
  const rows = await db
    .selectFrom('model_versions')
    .innerJoin('models', 'models.id', 'model_versions.model_id')
    .selectAll('model_versions')
    .where('models.account_id', '=', accountId)
    .orderBy('model_versions.version_number', 'desc')
    .execute();
  return rows.map(toVersion);
}

export async function listVersions(db: Db, modelId: string): Promise<VersionRow[]> {
  const rows = await db
    .selectFrom('model_versions')
    .selectAll()
    .where('model_id', '=', modelId)
    .orderBy('version_number', 'desc')
    .execute();
  return rows.map(toVersion);
}

/** A version of one of the account's models. */
export async function findVersion(
  db: Db,
  accountId: string,
  versionId: string,
): Promise<{ version: VersionRow; model: ModelRow } | undefined> {
  const [row] = await versionLookup(db, [versionId, accountId]);
  return row && { version: toVersion(row), model: modelOf(row) };
}

/** findVersion without the definition and dependencies (see versionHeadLookup). */
export async function findVersionHead(
  db: Db,
  accountId: string,
  versionId: string,
): Promise<{ version: VersionHead; model: ModelRow } | undefined> {
  const [row] = await versionHeadLookup(db, [versionId, accountId]);
  return row && { version: toVersionHead(row), model: modelOf(row) };
}

export async function insertVersion(
  db: Db,
  version: Omit<VersionRow, 'createdAt' | 'modifiedAt'>,
  at: string,
): Promise<void> {
  await db
    .insertInto('model_versions')
    .values({
      id: version.id,
      model_id: version.modelId,
      version_number: version.versionNumber,
      status: version.status,
      definition: JSON.stringify(version.definition),
      depends_on: JSON.stringify(version.dependsOn),
      created_at: at,
      modified_at: at,
    })
    .execute();
}

export async function saveDefinition(
  db: Db,
  versionId: string,
  definition: ModelDefinition,
  dependsOn: string[],
  at: string,
): Promise<void> {
  await db
    .updateTable('model_versions')
    .set({ definition: JSON.stringify(definition), depends_on: JSON.stringify(dependsOn), modified_at: at })
    .where('id', '=', versionId)
    .execute();
}

export async function setStatus(db: Db, versionId: string, status: ModelStatus, at: string): Promise<void> {
  await db.updateTable('model_versions').set({ status, modified_at: at }).where('id', '=', versionId).execute();
}

export async function touchModel(db: Db, modelId: string, at: string, name?: string): Promise<void> {
  await db
    .updateTable('models')
    .set({ modified_at: at, ...(name === undefined ? {} : { name }) })
    .where('id', '=', modelId)
    .execute();
}
