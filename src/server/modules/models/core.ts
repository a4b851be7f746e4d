/**
 * What the model calls share: loading a model of the account, describing a definition, the draft
 * every edit goes to, the per-model lock, and switching the active version.
 */
import { EMPTY_DEFINITION, type Model, type ModelDefinition } from '../../../shared/models';
import type { AccountContext, Deps } from '../../context';
import { newId } from '../../db/ids';
import { badInput, notFound } from '../../errors';
import { requireWriter } from '../accounts/access';
import { checkFormula, describeDefinition, type DescribedDefinition } from './describe';
import {
  findModel,
  insertVersion,
  listAccountVersions,
  listVersions,
  saveDefinition,
  touchModel,
  type ModelRow,
  type VersionRow,
} from './repo';
import { deleteStep, deleteSteps, lastStep, pushStep, stepLabels, type StepKind, type StepLabels } from './draft-steps';
import { dependencyClosure, loadSources, referencedSources, withSourceTypes, type LoadedSource } from './sources';

export const NOT_FOUND = 'Model not found.';
export const VERSION_NOT_FOUND = 'Model version not found.';

/** The version a model page shows: the draft when asked for and present, else the active one. */
export function pickVersion(versions: VersionRow[], preferDraft: boolean): VersionRow | undefined {
  const draft = versions.find((v) => v.status === 'Draft');
  const active = versions.find((v) => v.status === 'Active');
  return (preferDraft ? (draft ?? active) : (active ?? draft)) ?? versions[0];
}

export function createModelCore(deps: Deps) {
  const { db, clock } = deps;
  const now = () => clock().toISOString();
  const warehouse = (ctx: AccountContext) => deps.warehouse.forAccount(ctx.accountId);
  /** Edits of one model one at a time: each reads, changes and writes the whole draft. */
  const locked = <T>(ctx: AccountContext, modelId: string, work: () => Promise<T>) =>
    warehouse(ctx).exclusive(`model:${modelId}`, work);

  async function mustModel(ctx: AccountContext, id: string): Promise<ModelRow> {
    const model = await findModel(db, ctx.accountId, id);
    if (!model) throw notFound(NOT_FOUND);
    return model;
  }

  async function describe(ctx: AccountContext, definition: ModelDefinition) {
    const loaded = await loadSources(db, ctx.accountId, referencedSources(definition));
    const sources = await withSourceTypes(warehouse(ctx), loaded, definition);
    return { described: describeDefinition(definition, sources), sources };
  }

  function toModel(
    model: ModelRow,
    version: VersionRow,
    versions: VersionRow[],
    described: DescribedDefinition,
    sources: LoadedSource[],
    steps: StepLabels,
  ): Model {
    const definition = version.definition;
    return {
      id: model.id,
      name: model.name,
      versionId: version.id,
      versionNumber: version.versionNumber,
      status: version.status,
      hasUnpublishedChanges: versions.some((v) => v.status === 'Draft'),
      isPublishing: false,
      activeVersionId: versions.find((v) => v.status === 'Active')?.id ?? null,
      columns: [...described.columns].sort((a, b) => a.order - b.order),
      joins: definition.joins,
      filterGroups: definition.filterGroups,
      sort: definition.sort,
      pivots: definition.pivots,
      sources: sources.map((s) => ({ sourceId: s.sourceId, sourceType: s.sourceType, name: s.name })),
      errors: described.errors,
      // What "Show SQL" shows: the view's query with columns named for people (same rows).
      viewSql: described.shownSql,
      modifiedAt: version.modifiedAt,
      undoLabel: version.status === 'Draft' ? steps.undo : null,
      redoLabel: version.status === 'Draft' ? steps.redo : null,
    };
  }

  const labelsOf = (version: VersionRow): Promise<StepLabels> =>
    version.status === 'Draft' ? stepLabels(db, version.id) : Promise.resolve({ undo: null, redo: null });

  async function present(ctx: AccountContext, model: ModelRow, version: VersionRow): Promise<Model> {
    const versions = await listVersions(db, model.id);
    const { described, sources } = await describe(ctx, version.definition);
    return toModel(model, version, versions, described, sources, await labelsOf(version));
  }

  /** The draft, made from the active (else newest) version when there is none yet. */
  async function ensureDraft(model: ModelRow): Promise<{ draft: VersionRow; created: boolean }> {
    const versions = await listVersions(db, model.id);
    const draft = versions.find((v) => v.status === 'Draft');
    if (draft) return { draft, created: false };
    const base = pickVersion(versions, false);
    const at = now();
    const created: VersionRow = {
      id: newId(),
      modelId: model.id,
      versionNumber: Math.max(0, ...versions.map((v) => v.versionNumber)) + 1,
      status: 'Draft',
      definition: base?.definition ?? EMPTY_DEFINITION,
      dependsOn: base?.dependsOn ?? [],
      createdAt: at,
      modifiedAt: at,
    };
    await insertVersion(db, created, at);
    return { draft: created, created: true };
  }

  /** A model may not read one of its own versions, directly or through other models. */
  async function refuseCycles(ctx: AccountContext, model: ModelRow, dependsOn: string[]): Promise<void> {
    if (dependsOn.length === 0) return;
    const versions = await listAccountVersions(db, ctx.accountId);
    const own = new Set(versions.filter((v) => v.modelId === model.id).map((v) => v.id));
    if ([...dependencyClosure(versions, dependsOn)].some((id) => own.has(id))) {
      throw badInput('A model cannot read its own data, directly or through another model.');
    }
  }

  /**
   * Applies `edit` to the draft under the model's lock and answers the draft as the page shows it.
   * The change is one undo step named `label` (draft-steps.ts); a change that changes nothing is none.
   */
  async function editDraft(
    ctx: AccountContext,
    modelId: string,
    label: string | ((definition: ModelDefinition) => string),
    edit: (definition: ModelDefinition, sources: LoadedSource[]) => ModelDefinition | Promise<ModelDefinition>,
  ): Promise<Model> {
    requireWriter(ctx);
    const model = await mustModel(ctx, modelId);
    return locked(ctx, modelId, async () => {
      const { draft, created } = await ensureDraft(model);
      let next: ModelDefinition;
      let result: Awaited<ReturnType<typeof describe>>;
      try {
        const current = await describe(ctx, draft.definition);
        next = await edit(draft.definition, current.sources);
        result = await describe(ctx, next);
        await refuseCycles(ctx, model, result.described.dependsOn);
      } catch (error) {
        // A refused edit leaves no empty draft behind ("unpublished changes" that change nothing).
        if (created) await db.deleteFrom('model_versions').where('id', '=', draft.id).execute();
        throw error;
      }
      const { described, sources } = result;
      // Stored with the types and problems found now, so lists and other models read them as shown.
      const saved: ModelDefinition = { ...next, columns: described.columns };
      const changed = created || JSON.stringify(saved) !== JSON.stringify(draft.definition);
      const at = now();
      await db.transaction().execute(async (trx) => {
        await saveDefinition(trx, draft.id, saved, described.dependsOn, at);
        if (!changed) return;
        const name = typeof label === 'string' ? label : label(draft.definition);
        await pushStep(
          trx,
          draft.id,
          {
            kind: 'undo',
            label: name,
            definition: draft.definition,
            dependsOn: draft.dependsOn,
            createdDraft: created,
          },
          at,
        );
        await deleteSteps(trx, draft.id, 'redo');
      });
      await touchModel(db, model.id, at);
      const versions = await listVersions(db, model.id);
      const version = versions.find((v) => v.id === draft.id) ?? { ...draft, definition: saved };
      return toModel(model, version, versions, described, sources, await labelsOf(version));
    });
  }

  /**
   * Takes back the draft's last change (`undo`) or the last change taken back (`redo`). Undoing the
   * change that made the draft removes the draft: the model is back at its published version.
   */
  async function step(ctx: AccountContext, modelId: string, kind: StepKind): Promise<Model> {
    requireWriter(ctx);
    const model = await mustModel(ctx, modelId);
    return locked(ctx, modelId, async () => {
      const versions = await listVersions(db, model.id);
      const draft = versions.find((v) => v.status === 'Draft');
      const last = draft && (await lastStep(db, draft.id, kind));
      if (!draft || !last)
        throw badInput(kind === 'undo' ? 'There is no change to undo.' : 'There is no change to redo.');
      const at = now();
      if (kind === 'undo' && last.createdDraft) {
        await db.deleteFrom('model_versions').where('id', '=', draft.id).execute();
        await touchModel(db, model.id, at);
        return get(ctx, model.id, { draft: true });
      }
      const { described } = await describe(ctx, last.definition);
      const saved: ModelDefinition = { ...last.definition, columns: described.columns };
      const opposite: StepKind = kind === 'undo' ? 'redo' : 'undo';
      await db.transaction().execute(async (trx) => {
        await saveDefinition(trx, draft.id, saved, described.dependsOn, at);
        await deleteStep(trx, last.id);
        await pushStep(
          trx,
          draft.id,
          {
            kind: opposite,
            label: last.label,
            definition: draft.definition,
            dependsOn: draft.dependsOn,
            createdDraft: false,
          },
          at,
        );
      });
      await touchModel(db, model.id, at);
      return get(ctx, model.id, { draft: true });
    });
  }

  async function get(
    ctx: AccountContext,
    id: string,
    { draft }: { draft: boolean } = { draft: false },
  ): Promise<Model> {
    const model = await mustModel(ctx, id);
    const version = pickVersion(await listVersions(db, id), draft);
    if (!version) throw notFound(VERSION_NOT_FOUND);
    return present(ctx, model, version);
  }

  async function createWith(
    ctx: AccountContext,
    name: string,
    definition: ModelDefinition,
    dependsOn: string[],
  ): Promise<Model> {
    const id = newId();
    const at = now();
    const version: VersionRow = {
      id: newId(),
      modelId: id,
      versionNumber: 1,
      status: 'Draft',
      definition,
      dependsOn,
      createdAt: at,
      modifiedAt: at,
    };
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('models')
        .values({ id, account_id: ctx.accountId, name, created_at: at, modified_at: at })
        .execute();
      await insertVersion(trx, version, at);
    });
    const model = await mustModel(ctx, id);
    return present(ctx, model, version);
  }

  /**
   * A formula as typed (columns by name) in its stored form (columns by key); one that does not
   * parse, names an unknown or ambiguous column or does not type-check is refused with its message.
   */
  function refuseBadFormula(
    definition: ModelDefinition,
    sources: LoadedSource[],
    formula: string,
    columnKey: string | null,
  ): string {
    const result = checkFormula(definition, sources, formula, columnKey);
    if (!result.valid || result.keyed === null) throw badInput(result.message ?? 'The formula is not valid.');
    return result.keyed;
  }

  return {
    db,
    now,
    warehouse,
    locked,
    mustModel,
    describe,
    present,
    ensureDraft,
    refuseCycles,
    editDraft,
    step,
    get,
    createWith,
    refuseBadFormula,
  };
}

export type ModelCore = ReturnType<typeof createModelCore>;
