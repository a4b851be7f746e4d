/** The steps of a definition: the kinds on offer, add, remove, move, rename, integration, inputs, policy. */
import {
  AUTOMATION_MESSAGES,
  DEFAULT_STEP_POLICY,
  STEP_KIND_LABELS,
  type AddStepRequest,
  type AutomationDefinition,
  type AutomationStep,
  type InputValue,
  type StepKindInfo,
} from '../../../shared/automations';
import type { StepPolicyPatch } from '../../../shared/automations-api';
import type { AccountContext, Deps } from '../../context';
import { newId } from '../../db/ids';
import type { AutomationStepRow } from '../../db/schema';
import { badInput, notFound } from '../../errors';
import { requireWriter } from '../accounts/access';
import type { DefinitionAccess } from './definition-access';
import type { StepKindDefinition } from './step-kind';
import { stepKinds } from './step-kinds';
import { configuredStep, policyOf } from './view';

/** The catalogue entry of a kind, without its functions. */
function kindInfo(kind: StepKindDefinition): StepKindInfo {
  return {
    kind: kind.kind,
    label: kind.label,
    description: kind.description,
    integrationConnectors: kind.integrationConnectors,
    inputs: kind.inputs,
    outputs: kind.outputs,
    sideEffects: kind.sideEffects,
  };
}

/** A name not yet used by another step of the definition: 'HTTP request', then 'HTTP request 2'... */
function freeName(base: string, taken: string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base} ${n}`)) return `${base} ${n}`;
}

export function createStepsService(deps: Deps, access: DefinitionAccess) {
  const { db, clock } = deps;
  const { kindOf, mustFind, mustFindStep, fresh, touch, mustBeAccountIntegration } = access;

  /**
   * Rewrites positions 0..n-1 in the order given (a move or a removal keeps them dense), after
   * removing `removed` if given, in one transaction.
   */
  async function reorder(definitionId: string, order: (ids: string[]) => string[], removed?: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      if (removed) await trx.deleteFrom('automation_steps').where('id', '=', removed).execute();
      const current = await trx
        .selectFrom('automation_steps')
        .select('id')
        .where('definition_id', '=', definitionId)
        .orderBy('position')
        .execute();
      for (const [position, id] of order(current.map((s) => s.id)).entries())
        await trx
          .updateTable('automation_steps')
          .set({ position })
          .where('id', '=', id)
          .where('definition_id', '=', definitionId)
          .execute();
      await trx
        .updateTable('automation_definitions')
        .set({ modified_at: clock().toISOString() })
        .where('id', '=', definitionId)
        .execute();
    });
  }

  async function updateStep(
    ctx: AccountContext,
    id: string,
    stepId: string,
    change: (step: AutomationStepRow) => Partial<AutomationStepRow>,
  ): Promise<AutomationDefinition> {
    await mustFind(ctx, id);
    requireWriter(ctx);
    const step = await mustFindStep(id, stepId);
    const set = { ...change(step), modified_at: clock().toISOString() };
    await db.updateTable('automation_steps').set(set).where('id', '=', stepId).execute();
    await touch(id);
    return fresh(ctx, id);
  }

  return {
    /** The step kinds Configure offers (those registered). */
    stepKinds(): StepKindInfo[] {
      return stepKinds().map(kindInfo);
    },

    /** Adds a step at `position` (default: last); the ones at and after it move down. Answers the definition and the new step's id. */
    async addStep(
      ctx: AccountContext,
      id: string,
      input: AddStepRequest,
    ): Promise<{ definition: AutomationDefinition; stepId: string }> {
      await mustFind(ctx, id);
      requireWriter(ctx);
      if (input.integrationId) await mustBeAccountIntegration(ctx, input.integrationId);
      const kind = kindOf(input.kind);
      const defaults = Object.fromEntries(
        (kind?.inputs ?? []).filter((i) => i.default !== undefined).map((i) => [i.name, i.default as InputValue]),
      );
      const stepId = newId();
      const now = clock().toISOString();
      await db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('automation_steps')
          .select(['id', 'name', 'position'])
          .where('definition_id', '=', id)
          .orderBy('position')
          .execute();
        const position = Math.min(input.position ?? existing.length, existing.length);
        for (const step of existing.slice(position).reverse())
          await trx
            .updateTable('automation_steps')
            .set({ position: step.position + 1 })
            .where('id', '=', step.id)
            .execute();
        await trx
          .insertInto('automation_steps')
          .values({
            id: stepId,
            definition_id: id,
            position,
            name:
              input.name ??
              freeName(
                kind?.label ?? STEP_KIND_LABELS[input.kind],
                existing.map((s) => s.name),
              ),
            kind: input.kind,
            integration_id: input.integrationId ?? null,
            inputs: JSON.stringify({ ...defaults, ...input.inputs }),
            policy: JSON.stringify(DEFAULT_STEP_POLICY),
            created_at: now,
            modified_at: now,
          })
          .execute();
        await trx.updateTable('automation_definitions').set({ modified_at: now }).where('id', '=', id).execute();
      });
      return { definition: await fresh(ctx, id), stepId };
    },

    /** The step as the REST call answers it (POST .../steps: "response has id"). */
    stepOf(definition: AutomationDefinition, stepId: string): AutomationStep {
      const step = definition.steps.find((s) => s.id === stepId);
      if (!step) throw notFound(AUTOMATION_MESSAGES.stepNotFound);
      return step;
    },

    async removeStep(ctx: AccountContext, id: string, stepId: string): Promise<AutomationDefinition> {
      await mustFind(ctx, id);
      requireWriter(ctx);
      await mustFindStep(id, stepId);
      await reorder(id, (ids) => ids, stepId);
      return fresh(ctx, id);
    },

    async moveStep(ctx: AccountContext, id: string, stepId: string, position: number): Promise<AutomationDefinition> {
      await mustFind(ctx, id);
      requireWriter(ctx);
      await mustFindStep(id, stepId);
      await reorder(id, (ids) => {
        const order = ids.filter((s) => s !== stepId);
        order.splice(Math.min(position, order.length), 0, stepId);
        return order;
      });
      return fresh(ctx, id);
    },

    async renameStep(ctx: AccountContext, id: string, stepId: string, name: string): Promise<AutomationDefinition> {
      return updateStep(ctx, id, stepId, () => ({ name }));
    },

    async setStepIntegration(
      ctx: AccountContext,
      id: string,
      stepId: string,
      integrationId: string | null,
    ): Promise<AutomationDefinition> {
      await mustFind(ctx, id);
      requireWriter(ctx);
      if (integrationId) await mustBeAccountIntegration(ctx, integrationId);
      return updateStep(ctx, id, stepId, () => ({ integration_id: integrationId }));
    },

    /** Sets one input (null clears it); an input the step's kind does not have is refused. */
    async setStepInput(
      ctx: AccountContext,
      id: string,
      stepId: string,
      input: string,
      value: InputValue,
    ): Promise<AutomationDefinition> {
      return updateStep(ctx, id, stepId, (step) => {
        const kind = kindOf(configuredStep(step).kind);
        if (kind && !kind.inputs.some((i) => i.name === input)) throw badInput(`This step has no input "${input}".`);
        const inputs = configuredStep(step).inputs;
        if (value === null) delete inputs[input];
        else inputs[input] = value;
        return { inputs: JSON.stringify(inputs) };
      });
    },

    /** Changes only the policy fields sent. */
    async setStepPolicy(
      ctx: AccountContext,
      id: string,
      stepId: string,
      patch: StepPolicyPatch,
    ): Promise<AutomationDefinition> {
      return updateStep(ctx, id, stepId, (step) => {
        const sent = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
        return { policy: JSON.stringify({ ...policyOf(step), ...sent }) };
      });
    },
  };
}
