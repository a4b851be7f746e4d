/**
 * Model versions as tables of the tables API (grid, count, download): a published version reads its
 * view; the draft compiles its SELECT on the fly (bound parameters), so edits show at once.
 */
import { compileModelPageInBaseOrder, isModelError, modelRelation, type CompiledQuery } from '../../../engine';
import type { ModelColumn } from '../../../shared/models';
import type { Column, TableSummary } from '../../../shared/tables';
import type { AccountContext } from '../../context';
import type { Db } from '../../db/database';
import { keepDerived, keptDerived } from '../../warehouse/derived-cache';
import type { WarehouseExecutor } from '../../warehouse/types';
import { badInput, notFound } from '../../errors';
import type { TableRelation } from '../tables/relations';
import { describeDefinition, toModelSpec, type DescribedDefinition } from './describe';
import {
  findVersion,
  findVersionHead,
  listAccountVersions,
  listModelRows,
  type ModelRow,
  type VersionRow,
} from './repo';
import {
  MODEL_SCHEMA,
  loadSources,
  modelViewName,
  referencedSources,
  withSourceTypes,
  type LoadedSource,
} from './sources';

export interface ModelVersionTable {
  summary: TableSummary;
  relation: TableRelation;
  described: DescribedDefinition;
  version: VersionRow;
  model: ModelRow;
}

/**
 * What a published version keeps between requests (warehouse/derived-cache.ts), with its definition
 * and dependencies, which never change once published.
 */
type KeptTable = Pick<ModelVersionTable, 'relation' | 'described'> & Pick<VersionRow, 'definition' | 'dependsOn'>;

/** Statements of one relation kept for the offsets and sizes pages ask for (a grid asks for few). */
const PAGE_STATEMENTS = 32;

/** `schema.name` of a relation a model reads. */
const relationName = (source: Pick<LoadedSource, 'relation'>) => `${source.relation.schema}.${source.relation.name}`;

function asColumns(columns: ModelColumn[]): Column[] {
  return [...columns]
    .sort((a, b) => a.order - b.order)
    .map((c, order) => ({
      columnKey: c.columnKey,
      displayName: c.displayName,
      description: c.description,
      order,
      type: c.type,
    }));
}

function summaryOf(model: ModelRow, version: VersionRow, columns: Column[]): TableSummary {
  return {
    id: version.id,
    type: 'ModelVersion',
    groupId: model.id,
    groupName: 'Models',
    name: model.name,
    columns,
    status: version.status,
    resources: version.definition.pivots.map((p) => ({ resourceKey: p.key, name: p.name })),
  };
}

export async function resolveModelVersionTable(
  db: Db,
  ctx: AccountContext,
  versionId: string,
  executor?: WarehouseExecutor,
): Promise<ModelVersionTable> {
  // A published version's definition never changes: its compiled relation is kept until a relation
  // it reads changes, so its pages and counts do not load, check and compile it again each time;
  // only its status and its model (name) are read again.
  const kept = executor && keptDerived<KeptTable>(executor, `model-version:${versionId}`);
  if (kept) {
    const head = await findVersionHead(db, ctx.accountId, versionId);
    if (!head) throw notFound('Table not found.');
    const { relation, described, definition, dependsOn } = kept;
    const version = { ...head.version, definition, dependsOn };
    return {
      relation,
      described,
      summary: summaryOf(head.model, version, relation.columns),
      version,
      model: head.model,
    };
  }
  const found = await findVersion(db, ctx.accountId, versionId);
  if (!found) throw notFound('Table not found.');
  const { model, version } = found;
  const published = version.status !== 'Draft';
  const writesBefore = executor?.writesSettled() ?? 0;
  const read = new Set<string>();
  const loaded = await loadSources(db, ctx.accountId, referencedSources(version.definition));
  // With the warehouse at hand, the model's joins and filters compare in the columns' own types.
  const sources = executor ? await withSourceTypes(executor, loaded, version.definition) : loaded;
  const described = describeDefinition(version.definition, sources);
  const columns = asColumns(described.columns);
  const defaultSorting = version.definition.sort;
  const spec = toModelSpec(version.definition, sources);
  // Unsorted, unfiltered pages in base-table order read only the first rows of the base table.
  const compileUnsorted = (page: { offset: number; limit: number }, keyBound: boolean): CompiledQuery | null => {
    if (!described.compiled) return null;
    try {
      return compileModelPageInBaseOrder(spec, page, { keyBound });
    } catch (error) {
      if (isModelError(error)) return null;
      throw error;
    }
  };
  const statements = new Map<string, CompiledQuery | null>();
  const unsortedPage = (page: { offset: number; limit: number }, keyBound = false): CompiledQuery | null => {
    const key = `${page.offset}:${page.limit}:${keyBound}`;
    let statement = statements.get(key);
    if (statement === undefined) {
      statement = compileUnsorted(page, keyBound);
      if (statements.size >= PAGE_STATEMENTS) statements.clear();
      statements.set(key, statement);
    }
    return statement;
  };
  // A version whose sources changed since (a column removed by a re-import, a type changed, a model
  // it reads broken in turn) cannot run: its own problem answers, not the warehouse's binder error.
  if (!described.compiled) {
    throw badInput(
      described.problem ?? (version.status === 'Draft' ? 'The model has no data yet.' : 'The model cannot be read.'),
    );
  }
  const upstream = await upstreamProblem(db, ctx.accountId, sources, new Set([version.id]), read);
  if (upstream) throw badInput(upstream);
  let relation: TableRelation;
  if (version.status === 'Draft') {
    relation = { source: modelRelation(described.compiled), columns, rowKey: null, defaultSorting, unsortedPage };
  } else {
    // A published version's stored columns are those its view was created with.
    relation = {
      source: { kind: 'table', schema: MODEL_SCHEMA, name: modelViewName(version.id) },
      columns: asColumns(version.definition.columns),
      rowKey: null,
      defaultSorting,
      unsortedPage,
    };
  }
  if (executor && published) {
    for (const source of sources) read.add(relationName(source));
    read.add(`${MODEL_SCHEMA}.${modelViewName(version.id)}`);
    keepDerived(executor, `model-version:${version.id}`, writesBefore, read, {
      relation,
      described,
      definition: version.definition,
      dependsOn: version.dependsOn,
    } satisfies KeptTable);
  }
  return { summary: summaryOf(model, version, relation.columns), relation, described, version, model };
}

/**
 * The first problem of a model version this one reads, directly or through others (each version
 * looked at once): its view would fail when read.
 */
async function upstreamProblem(
  db: Db,
  accountId: string,
  sources: LoadedSource[],
  seen: Set<string>,
  /** Collects every relation the upstream versions read. */
  read: Set<string>,
): Promise<string | null> {
  for (const source of sources) {
    if (source.sourceType !== 'ModelVersion' || source.missing || seen.has(source.sourceId)) continue;
    seen.add(source.sourceId);
    const found = await findVersion(db, accountId, source.sourceId);
    if (!found) continue;
    const own = await loadSources(db, accountId, referencedSources(found.version.definition));
    for (const upstream of own) read.add(relationName(upstream));
    const described = describeDefinition(found.version.definition, own);
    const problem = described.compiled ? await upstreamProblem(db, accountId, own, seen, read) : described.problem;
    if (problem) return `${source.name}: ${problem}`;
  }
  return null;
}

/** The active version of each model, as the table list offers them (e.g. as model sources). */
export async function listModelVersionTables(db: Db, ctx: AccountContext): Promise<TableSummary[]> {
  const models = new Map((await listModelRows(db, ctx.accountId)).map((m) => [m.id, m]));
  const versions = await listAccountVersions(db, ctx.accountId);
  return versions.flatMap((version) => {
    const model = models.get(version.modelId);
    if (!model || version.status !== 'Active') return [];
    return [summaryOf(model, version, asColumns(version.definition.columns))];
  });
}
