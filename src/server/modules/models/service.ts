import {
  EMPTY_DEFINITION,
  type AddColumnRequest,
  type DuplicateModelRequest,
  type FilterGroupsRequest,
  type JoinsRequest,
  type ModelNameRequest,
  type PivotsRequest,
  type ReorderColumnsRequest,
  type SortRequest,
  type UpdateColumnRequest,
  type ValidateFunctionRequest,
  type Model,
  type ModelListItem,
  type ModelVersionSummary,
  type ValidateFunctionResult,
} from '../../../shared/models';
import { FORMULA_FUNCTIONS } from '../../../shared/functions';
import type { AccountContext, Deps } from '../../context';
import { badInput, conflict, notFound } from '../../errors';
import { requireWriter } from '../accounts/access';
import { checkFormula } from './describe';
import { addColumn, checkJoins, columnName, deleteColumn, reorderColumns, updateColumn, updateLabel } from './edits';
import { findVersion, listAccountVersions, listModelRows, listVersions, touchModel } from './repo';
import { loadSources, referencedSources, sourceOptions } from './sources';
import { activateVersion, deleteModel } from './views';
import { registerModelWrites } from './durable-writes';
import { VERSION_NOT_FOUND, createModelCore, pickVersion } from './core';
import { createPivotData } from './pivot-data';
import type { PivotExportFormat } from './pivot-export';
import type { ModelChartRequest, PivotExportQuery, PivotPageRequest } from '../../../shared/models-api';

export function createModelsService(deps: Deps) {
  registerModelWrites(deps.writes);
  const core = createModelCore(deps);
  const pivots = createPivotData(deps);
  const {
    db,
    now,
    warehouse,
    locked,
    mustModel,
    describe,
    present,
    editDraft,
    step,
    get,
    createWith,
    refuseBadFormula,
    refuseCycles,
  } = core;
  return {
    async list(ctx: AccountContext): Promise<ModelListItem[]> {
      const models = await listModelRows(db, ctx.accountId);
      const versions = await listAccountVersions(db, ctx.accountId);
      const items = await Promise.all(
        models.map(async (model): Promise<ModelListItem> => {
          const own = versions.filter((v) => v.modelId === model.id);
          const shown = pickVersion(own, false);
          const sources = shown ? await loadSources(db, ctx.accountId, referencedSources(shown.definition)) : [];
          const active = own.find((v) => v.status === 'Active');
          return {
            id: model.id,
            name: model.name,
            sources: sources.map((s) => ({ sourceId: s.sourceId, sourceType: s.sourceType, name: s.name })),
            versionNumber: active?.versionNumber ?? shown?.versionNumber ?? null,
            activeVersionId: active?.id ?? null,
            hasUnpublishedChanges: own.some((v) => v.status === 'Draft'),
            status: active ? 'Active' : 'Draft',
            isPublishing: false,
            modifiedAt: model.modified_at,
          };
        }),
      );
      return items.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
    },

    async create(ctx: AccountContext, { name }: ModelNameRequest): Promise<Model> {
      requireWriter(ctx);
      return createWith(ctx, name, EMPTY_DEFINITION, []);
    },

    get,

    async getVersion(ctx: AccountContext, versionId: string): Promise<Model> {
      const found = await findVersion(db, ctx.accountId, versionId);
      if (!found) throw notFound(VERSION_NOT_FOUND);
      return present(ctx, found.model, found.version);
    },

    async versions(ctx: AccountContext, id: string): Promise<ModelVersionSummary[]> {
      await mustModel(ctx, id);
      return (await listVersions(db, id)).map((v) => ({
        versionId: v.id,
        versionNumber: v.versionNumber,
        status: v.status,
        createdAt: v.createdAt,
        modifiedAt: v.modifiedAt,
      }));
    },

    async rename(ctx: AccountContext, id: string, { name }: ModelNameRequest): Promise<Model> {
      requireWriter(ctx);
      const model = await mustModel(ctx, id);
      await touchModel(db, id, now(), name);
      return get(ctx, model.id, { draft: true });
    },

    async remove(ctx: AccountContext, id: string): Promise<void> {
      requireWriter(ctx);
      await mustModel(ctx, id);
      await locked(ctx, id, async () => {
        const all = await listAccountVersions(db, ctx.accountId);
        const own = new Set(all.filter((v) => v.modelId === id).map((v) => v.id));
        const user = all.find(
          (v) => v.modelId !== id && v.status !== 'Inactive' && v.dependsOn.some((d) => own.has(d)),
        );
        if (user) {
          const models = await listModelRows(db, ctx.accountId);
          const name = models.find((m) => m.id === user.modelId)?.name ?? 'another model';
          throw conflict(`This model is used by ${name}. Remove it from there first.`);
        }
        await deleteModel(warehouse(ctx), deps.writes, id, [...own]);
      });
    },

    addColumn: (ctx: AccountContext, id: string, input: AddColumnRequest) =>
      editDraft(ctx, id, `Add column ${input.displayName}`, async (definition, sources) => {
        const withSource = input.sourceColumn
          ? [...sources, ...(await loadSources(db, ctx.accountId, [input.sourceColumn]))]
          : sources;
        const formula = input.function ? refuseBadFormula(definition, withSource, input.function, null) : null;
        return addColumn(definition, formula ? { ...input, function: formula } : input, withSource).definition;
      }),
    updateColumn: (ctx: AccountContext, id: string, columnKey: string, input: UpdateColumnRequest) =>
      editDraft(
        ctx,
        id,
        (definition) => updateLabel(definition, columnKey, input),
        (definition, sources) => {
          const formula =
            input.function === undefined ? undefined : refuseBadFormula(definition, sources, input.function, columnKey);
          return updateColumn(definition, columnKey, formula === undefined ? input : { ...input, function: formula });
        },
      ),
    deleteColumn: (ctx: AccountContext, id: string, columnKey: string) =>
      editDraft(
        ctx,
        id,
        (definition) => `Remove column ${columnName(definition, columnKey)}`,
        (definition) => deleteColumn(definition, columnKey),
      ),
    reorderColumns: (ctx: AccountContext, id: string, input: ReorderColumnsRequest) =>
      editDraft(ctx, id, 'Reorder columns', (definition) => reorderColumns(definition, input)),
    setJoins: (ctx: AccountContext, id: string, { joins }: JoinsRequest) => {
      checkJoins(joins);
      return editDraft(ctx, id, 'Edit relationships', (definition) => ({ ...definition, joins }));
    },
    setPivots: (ctx: AccountContext, id: string, { pivots }: PivotsRequest) => {
      if (new Set(pivots.map((p) => p.key)).size !== pivots.length) throw badInput('Pivot keys must be unique.');
      return editDraft(ctx, id, 'Change pivots', (definition) => ({ ...definition, pivots }));
    },
    setFilterGroups: (ctx: AccountContext, id: string, { filterGroups }: FilterGroupsRequest) =>
      editDraft(ctx, id, 'Change filters', (definition) => ({ ...definition, filterGroups })),
    setSort: (ctx: AccountContext, id: string, { sort }: SortRequest) =>
      editDraft(ctx, id, 'Change sort', (definition) => ({ ...definition, sort })),

    /** Takes back the draft's last change, one at a time (draft-steps.ts). */
    undo: (ctx: AccountContext, id: string) => step(ctx, id, 'undo'),
    /** Brings back the change Undo took back last. */
    redo: (ctx: AccountContext, id: string) => step(ctx, id, 'redo'),

    /** The draft becomes the active version, its view created first so readers never miss it. */
    async publish(ctx: AccountContext, id: string): Promise<Model> {
      requireWriter(ctx);
      const model = await mustModel(ctx, id);
      return locked(ctx, id, async () => {
        const versions = await listVersions(db, id);
        const draft = versions.find((v) => v.status === 'Draft');
        if (!draft) throw badInput('There are no unpublished changes to publish.');
        const { described } = await describe(ctx, draft.definition);
        if (described.errors.hasBreakingErrors) throw badInput(described.errors.texts[0] ?? 'The model has errors.');
        if (!described.compiled) throw badInput(described.problem ?? 'The model cannot be published yet.');
        await refuseCycles(ctx, model, described.dependsOn);
        await activateVersion(
          warehouse(ctx),
          deps.writes,
          { modelId: id, versionId: draft.id, at: now() },
          described.viewSql,
        );
        return get(ctx, id);
      });
    },

    /** Discards the draft; a model never published has nothing to go back to. */
    async revert(ctx: AccountContext, id: string): Promise<Model> {
      requireWriter(ctx);
      await mustModel(ctx, id);
      return locked(ctx, id, async () => {
        const versions = await listVersions(db, id);
        const draft = versions.find((v) => v.status === 'Draft');
        if (!draft) throw badInput('There are no unpublished changes to discard.');
        if (versions.length === 1) throw badInput('This model has no published version to go back to.');
        await db.deleteFrom('model_versions').where('id', '=', draft.id).execute();
        await touchModel(db, id, now());
        return get(ctx, id);
      });
    },

    /** Makes an earlier published version the one in use (its view is rebuilt from its definition). */
    async setActive(ctx: AccountContext, versionId: string): Promise<Model> {
      requireWriter(ctx);
      const found = await findVersion(db, ctx.accountId, versionId);
      if (!found) throw notFound(VERSION_NOT_FOUND);
      const { model, version } = found;
      if (version.status === 'Draft') throw badInput('Publish the draft instead of making it active.');
      return locked(ctx, model.id, async () => {
        if (version.status !== 'Active') {
          const { described } = await describe(ctx, version.definition);
          if (!described.compiled) throw badInput(described.problem ?? 'This version cannot be used any more.');
          await activateVersion(
            warehouse(ctx),
            deps.writes,
            { modelId: model.id, versionId: version.id, at: now() },
            described.viewSql,
          );
        }
        return get(ctx, model.id);
      });
    },

    /** A new model whose draft copies a version: the one named, else the active one, else the newest draft. */
    async duplicate(ctx: AccountContext, id: string, input: DuplicateModelRequest): Promise<Model> {
      requireWriter(ctx);
      const model = await mustModel(ctx, id);
      const versions = await listVersions(db, id);
      const source = input.versionId ? versions.find((v) => v.id === input.versionId) : pickVersion(versions, false);
      if (!source) throw notFound(VERSION_NOT_FOUND);
      const name = input.name === undefined ? `${model.name} - Copy`.slice(0, 100) : input.name;
      if (name === '') throw badInput('Enter a name for the copy.');
      return createWith(ctx, name, source.definition, source.dependsOn);
    },

    functions: () => FORMULA_FUNCTIONS,

    pivotPage: (ctx: AccountContext, versionId: string, pivotKey: string, request: PivotPageRequest) =>
      pivots.page(ctx, versionId, pivotKey, request),

    /** A model version's rows summed up by a category, for a chart of the model sheet. */
    chartData: (ctx: AccountContext, versionId: string, request: ModelChartRequest) =>
      pivots.chart(ctx, versionId, request),

    /** The pivot of the version shown on the model page (the draft, else the active one), whole. */
    async exportPivot(ctx: AccountContext, id: string, query: PivotExportQuery) {
      const format: PivotExportFormat = query.format;
      await mustModel(ctx, id);
      const versions = await listVersions(db, id);
      const version = query.versionId ? versions.find((v) => v.id === query.versionId) : pickVersion(versions, true);
      if (!version) throw notFound(VERSION_NOT_FOUND);
      const result = await pivots.all(ctx, version.id, query.pivotKey);
      // Any name is made safe for the header by http/attachment.ts; this keeps the file name plain.
      const safeName = result.name.replace(/[^\w .-]+/g, '_').trim() || 'pivot';
      return { ...result, format, fileName: `${safeName}.${format}`, sheetName: result.name };
    },

    /** Checks a formula in the scope of a version's columns, pointing at the problem's position. */
    async validateFunction(
      ctx: AccountContext,
      versionId: string,
      input: ValidateFunctionRequest,
    ): Promise<ValidateFunctionResult> {
      const found = await findVersion(db, ctx.accountId, versionId);
      if (!found) throw notFound(VERSION_NOT_FOUND);
      const { sources } = await describe(ctx, found.version.definition);
      const { keyed: _stored, ...result } = checkFormula(
        found.version.definition,
        sources,
        input.function,
        input.columnKey ?? null,
      );
      return result;
    },

    sourceOptions: async (ctx: AccountContext, id: string) => {
      await mustModel(ctx, id);
      return sourceOptions(db, ctx.accountId, id);
    },
  };
}

export type ModelsService = ReturnType<typeof createModelsService>;
