/**
 * Undo and redo of a model's draft, one change at a time.
 *
 * Kept on the server, next to the draft, rather than in the client: the draft itself lives on the
 * server and every change is saved at once, so a history in the page would be lost on reload,
 * would not know of changes made in another tab or through the API, and could "undo" into a state
 * the draft never had. Here each change to the draft (add, edit, remove or reorder columns,
 * relationships, filters, sort, pivots) records the definition it replaced, in the same transaction
 * as the change, so the history always matches the draft. At most DRAFT_STEP_LIMIT steps are kept;
 * a new change clears the redo steps; publishing or discarding the draft drops them all.
 */
import type { ModelDefinition } from '../../../shared/models';
import type { Db } from '../../db/database';

export const DRAFT_STEP_LIMIT = 50;

export type StepKind = 'undo' | 'redo';

export interface DraftStep {
  id: number;
  kind: StepKind;
  label: string;
  definition: ModelDefinition;
  dependsOn: string[];
  createdDraft: boolean;
}

export interface StepLabels {
  undo: string | null;
  redo: string | null;
}

function parse<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The newest step of a kind, or undefined. */
export async function lastStep(db: Db, versionId: string, kind: StepKind): Promise<DraftStep | undefined> {
  const row = await db
    .selectFrom('model_draft_steps')
    .selectAll()
    .where('version_id', '=', versionId)
    .where('kind', '=', kind)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    kind,
    label: row.label,
    definition: parse<ModelDefinition | null>(row.definition, null) ?? {
      columns: [],
      joins: [],
      filterGroups: [],
      sort: [],
      pivots: [],
    },
    dependsOn: parse<string[]>(row.depends_on, []),
    createdDraft: row.created_draft === 1,
  };
}

/** What Undo and Redo would do next, for the buttons (null: nothing). */
export async function stepLabels(db: Db, versionId: string): Promise<StepLabels> {
  const [undo, redo] = await Promise.all([lastStep(db, versionId, 'undo'), lastStep(db, versionId, 'redo')]);
  return { undo: undo?.label ?? null, redo: redo?.label ?? null };
}

export async function pushStep(db: Db, versionId: string, step: Omit<DraftStep, 'id'>, at: string): Promise<void> {
  await db
    .insertInto('model_draft_steps')
    .values({
      version_id: versionId,
      kind: step.kind,
      label: step.label,
      definition: JSON.stringify(step.definition),
      depends_on: JSON.stringify(step.dependsOn),
      created_draft: step.createdDraft ? 1 : 0,
      created_at: at,
    })
    .execute();
  // Keep the newest steps only.
  const old = await db
    .selectFrom('model_draft_steps')
    .select('id')
    .where('version_id', '=', versionId)
    .where('kind', '=', step.kind)
    .orderBy('id', 'desc')
    .offset(DRAFT_STEP_LIMIT)
    .limit(1_000)
    .execute();
  if (old.length > 0) {
    await db
      .deleteFrom('model_draft_steps')
      .where(
        'id',
        'in',
        old.map((r) => r.id),
      )
      .execute();
  }
}

export async function deleteSteps(db: Db, versionId: string, kind?: StepKind): Promise<void> {
  let query = db.deleteFrom('model_draft_steps').where('version_id', '=', versionId);
  if (kind) query = query.where('kind', '=', kind);
  await query.execute();
}

export async function deleteStep(db: Db, id: number): Promise<void> {
  await db.deleteFrom('model_draft_steps').where('id', '=', id).execute();
}
