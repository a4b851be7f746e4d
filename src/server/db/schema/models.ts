import type { Generated } from 'kysely';

/** Models, their versions and the undo steps of a draft. */
export interface ModelsSchema {
  models: ModelsTable;
  model_versions: ModelVersionsTable;
  model_draft_steps: ModelDraftStepsTable;
}

export interface ModelsTable {
  id: string;
  account_id: string;
  name: string;
  created_at: string;
  modified_at: string;
}

/** Undo and redo steps of a model's draft (migrations/0007_model_draft_steps.ts). */
export interface ModelDraftStepsTable {
  id: Generated<number>;
  version_id: string;
  /** 'undo' or 'redo'. */
  kind: string;
  /** What the change did, for the button's tooltip ("Add column Total"). */
  label: string;
  /** JSON of the ModelDefinition to go back (or forward) to. */
  definition: string;
  depends_on: string;
  /** 1 when the change made the draft: undoing it removes the draft. */
  created_draft: number;
  created_at: string;
}

export interface ModelVersionsTable {
  id: string;
  model_id: string;
  version_number: number;
  /** Draft, Active or Inactive; at most one Draft and one Active per model. */
  status: string;
  /** JSON of the shared ModelDefinition. */
  definition: string;
  /** JSON array of the model version ids this version reads. */
  depends_on: string;
  created_at: string;
  modified_at: string;
}
