import type { RelationColumn, TableRelation } from '../../../engine';
import type { ModelDefinition, ModelSourceOption, SourceRef } from '../../../shared/models';
import type { Db } from '../../db/database';
import { relationSqlTypes } from '../../warehouse/relation-types';
import type { WarehouseExecutor } from '../../warehouse/types';
import { ROW_ID, STATIC_SCHEMA, warehouseTableName } from '../static-tables/physical';
import { findTable, listColumns } from '../static-tables/repo';
import { findIntegrationDatasetTable, listIntegrationDatasetTables } from '../integrations/dataset-tables';
import { findVersion, listAccountVersions, listModelRows, type VersionRow } from './repo';

/** Published model versions are views in this warehouse schema. */
export const MODEL_SCHEMA = 'model';

export function modelViewName(versionId: string): string {
  return `v_${versionId.replace(/-/g, '')}`;
}

/** A table a model reads, as the engine needs it; `missing` when it was deleted or cannot be read. */
export interface LoadedSource extends SourceRef {
  name: string;
  groupName: string;
  relation: TableRelation;
  columns: RelationColumn[];
  missing: boolean;
  /** A column unique per row, when the source has one (static tables: `_row_id`). */
  rowKey?: string | null;
}

export const sourceKeyOf = (ref: SourceRef): string => `${ref.sourceType}:${ref.sourceId}`;

/** Every source a definition names, in first-use order (columns, then joins). */
export function referencedSources(definition: ModelDefinition): SourceRef[] {
  const seen = new Map<string, SourceRef>();
  const add = (ref: SourceRef | null | undefined) => {
    if (ref && !seen.has(sourceKeyOf(ref)))
      seen.set(sourceKeyOf(ref), { sourceId: ref.sourceId, sourceType: ref.sourceType });
  };
  for (const column of definition.columns) add(column.sourceColumn);
  for (const join of definition.joins) {
    add(join.leftTable);
    add(join.rightTable);
  }
  return [...seen.values()];
}

function missingSource(ref: SourceRef, name: string): LoadedSource {
  return {
    ...ref,
    name,
    groupName: '',
    relation: { kind: 'table', schema: STATIC_SCHEMA, name: '_missing' },
    columns: [],
    missing: true,
  };
}

/** Output columns of a published version, as another model reads them. */
export function versionColumns(version: VersionRow): RelationColumn[] {
  return [...version.definition.columns]
    .sort((a, b) => a.order - b.order)
    .map((c) => ({ columnKey: c.columnKey, type: c.type, displayName: c.displayName }));
}

/** Reads what the engine needs of each source, scoped to the account. */
export async function loadSources(db: Db, accountId: string, refs: SourceRef[]): Promise<LoadedSource[]> {
  return Promise.all(
    refs.map(async (ref): Promise<LoadedSource> => {
      if (ref.sourceType === 'StaticTable') {
        const table = await findTable(db, accountId, ref.sourceId);
        if (!table) return missingSource(ref, 'A deleted table');
        const columns = await listColumns(db, table.id);
        return {
          ...ref,
          name: table.name,
          groupName: 'Tables',
          relation: { kind: 'table', schema: STATIC_SCHEMA, name: warehouseTableName(table.id) },
          rowKey: ROW_ID,
          columns: columns.map((c) => ({ columnKey: c.columnKey, type: c.type, displayName: c.displayName })),
          missing: false,
        };
      }
      if (ref.sourceType === 'ModelVersion') {
        const found = await findVersion(db, accountId, ref.sourceId);
        if (!found || found.version.status === 'Draft') return missingSource(ref, 'A deleted model version');
        return {
          ...ref,
          name: `${found.model.name} (v${found.version.versionNumber})`,
          groupName: 'Models',
          relation: { kind: 'table', schema: MODEL_SCHEMA, name: modelViewName(found.version.id) },
          columns: versionColumns(found.version),
          missing: false,
        };
      }
      const dataset = await findIntegrationDatasetTable(db, accountId, ref.sourceId);
      if (!dataset) return missingSource(ref, 'A deleted integration dataset');
      return {
        ...ref,
        name: dataset.summary.name,
        groupName: dataset.summary.groupName,
        relation: { kind: 'table', schema: dataset.schema, name: dataset.table },
        columns: dataset.summary.columns.map((c) => ({
          columnKey: c.columnKey,
          type: c.type,
          displayName: c.displayName,
        })),
        missing: false,
      };
    }),
  );
}

/**
 * The sources with their columns' warehouse types (BIGINT, DECIMAL(20,6), ...) when the definition
 * compares values, in joins or filters: the engine then binds each value in its column's type and
 * compares two exact types safely. Read once per table version (relation-types.ts).
 */
export async function withSourceTypes(
  executor: WarehouseExecutor,
  sources: LoadedSource[],
  definition: Pick<ModelDefinition, 'joins' | 'filterGroups'>,
): Promise<LoadedSource[]> {
  const compares = definition.joins.length > 0 || definition.filterGroups.some((group) => group.filters.length > 0);
  if (!compares) return sources;
  return Promise.all(
    sources.map(async (source) => {
      if (source.missing) return source;
      const types = await relationSqlTypes(executor, source.relation);
      const columns = source.columns.map((column) => {
        const sqlType = types.get(column.columnKey);
        return sqlType ? { ...column, sqlType } : column;
      });
      return { ...source, columns };
    }),
  );
}

/**
 * Model versions `versionIds` read, directly or through other versions: a model may not read a
 * version whose closure includes one of its own versions.
 */
export function dependencyClosure(versions: VersionRow[], versionIds: string[]): Set<string> {
  const byId = new Map(versions.map((v) => [v.id, v]));
  const closure = new Set<string>();
  const stack = [...versionIds];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (closure.has(id)) continue;
    closure.add(id);
    stack.push(...(byId.get(id)?.dependsOn ?? []));
  }
  return closure;
}

/** The tables the column picker offers: static tables, and the active versions of other models. */
export async function sourceOptions(db: Db, accountId: string, modelId: string): Promise<ModelSourceOption[]> {
  const tables = await db
    .selectFrom('static_tables')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .execute();
  const options: ModelSourceOption[] = await Promise.all(
    tables.map(async (t) => ({
      sourceId: t.id,
      sourceType: 'StaticTable' as const,
      name: t.name,
      groupName: 'Tables',
      columns: (await listColumns(db, t.id)).map((c) => ({
        columnKey: c.columnKey,
        displayName: c.displayName,
        type: c.type,
      })),
    })),
  );
  for (const dataset of await listIntegrationDatasetTables(db, accountId)) {
    options.push({
      sourceId: dataset.id,
      sourceType: 'IntegrationDataset',
      name: dataset.name,
      groupName: dataset.groupName,
      columns: dataset.columns.map((c) => ({ columnKey: c.columnKey, displayName: c.displayName, type: c.type })),
    });
  }
  const models = new Map((await listModelRows(db, accountId)).map((m) => [m.id, m]));
  const versions = await listAccountVersions(db, accountId);
  const ownVersionIds = new Set(versions.filter((v) => v.modelId === modelId).map((v) => v.id));
  for (const version of versions) {
    if (version.status !== 'Active' || version.modelId === modelId) continue;
    const readsThisModel = [...dependencyClosure(versions, [version.id])].some((id) => ownVersionIds.has(id));
    if (readsThisModel) continue;
    const model = models.get(version.modelId);
    options.push({
      sourceId: version.id,
      sourceType: 'ModelVersion',
      name: `${model?.name ?? 'Model'} (v${version.versionNumber})`,
      groupName: 'Models',
      columns: versionColumns(version).map((c) => ({
        columnKey: c.columnKey,
        displayName: c.displayName ?? c.columnKey,
        type: c.type,
      })),
    });
  }
  return options.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}
