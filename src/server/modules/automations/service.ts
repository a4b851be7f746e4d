/**
 * Automation definitions and their steps (spec data-areas: Automations; §7's definition calls).
 * Every read and write is scoped to the caller's account (other accounts' ids are not found);
 * writes need a writer. A definition's error and each step's are computed on every read
 * (validation.ts), so what the page shows is what the runner will refuse.
 */
import {
  AUTOMATION_MESSAGES,
  DEFAULT_STEP_POLICY,
  STEP_KIND_LABELS,
  type AddStepRequest,
  type AutomationDefinition,
  type AutomationListItem,
  type AutomationStep,
  type AutomationTrigger,
  type CreateAutomationRequest,
  type InputOption,
  type InputValue,
  type StepInputOptions,
  type StepKindInfo,
  type StepPreview,
  type UpdateAutomationRequest,
} from '../../../shared/automations';
import type { StepPolicyPatch } from '../../../shared/automations-api';
import type { AccountContext, Deps } from '../../context';
import { newId } from '../../db/ids';
import type { AutomationDefinitionRow, AutomationDefinitionsTable, AutomationStepRow } from '../../db/schema';
import { badInput, notFound } from '../../errors';
import type { CoreServices } from '../../services';
import { requireWriter } from '../accounts/access';
import { findDefinition, integrationRefs, lastRuns, listDefinitionRows, stepRowsOf, userNames } from './repo';
import { nextRunOf, patternOf } from './schedule-pattern';
import type { StepEnv, StepKindDefinition } from './step-kind';
import { stepKind, stepKinds } from './step-kinds';
import { resolveInputs } from './templates';
import { TRIGGER_FIELDS, asInputValues, sampleTriggerData } from './trigger-data';
import {
  configuredStep,
  definitionView,
  listItemView,
  policyOf,
  triggerOf,
  validationOf,
  type ViewContext,
} from './view';
import { AUTOMATION_FIELDS, RUN_FIELDS, VALIDATION_MESSAGES, stepError } from './validation';

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.name.localeCompare(b.name);

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

export function createAutomationsService(deps: Deps, core: CoreServices) {
  const { db, clock } = deps;
  const kindOf = stepKind;

  async function viewContext(accountId: string): Promise<ViewContext> {
    return { integrations: await integrationRefs(db, accountId), kindOf };
  }

  async function mustFind(ctx: AccountContext, id: string): Promise<AutomationDefinitionRow> {
    const row = await findDefinition(db, ctx.accountId, id);
    if (!row) throw notFound(AUTOMATION_MESSAGES.notFound);
    return row;
  }

  async function stepsOf(definitionId: string): Promise<AutomationStepRow[]> {
    return (await stepRowsOf(db, [definitionId])).get(definitionId) ?? [];
  }

  async function mustFindStep(definitionId: string, stepId: string): Promise<AutomationStepRow> {
    const step = await db
      .selectFrom('automation_steps')
      .selectAll()
      .where('id', '=', stepId)
      .where('definition_id', '=', definitionId)
      .executeTakeFirst();
    if (!step) throw notFound(AUTOMATION_MESSAGES.stepNotFound);
    return step;
  }

  async function view(accountId: string, row: AutomationDefinitionRow): Promise<AutomationDefinition> {
    const [steps, names, context] = await Promise.all([
      stepsOf(row.id),
      userNames(db, [row.created_by]),
      viewContext(accountId),
    ]);
    return definitionView(row, steps, row.created_by ? (names.get(row.created_by) ?? null) : null, context);
  }

  /** The definition as it is now, after a write. */
  async function fresh(ctx: AccountContext, id: string): Promise<AutomationDefinition> {
    return view(ctx.accountId, await mustFind(ctx, id));
  }

  async function touch(definitionId: string): Promise<void> {
    await db
      .updateTable('automation_definitions')
      .set({ modified_at: clock().toISOString() })
      .where('id', '=', definitionId)
      .execute();
  }

  /**
   * The columns a trigger is stored in, with its cron and next time. The schedule and the AfterSync
   * integration are kept whatever the type, so switching to Manual and back finds them again; only
   * a Schedule trigger has a cron and a next time (what the schedule ticker reads).
   */
  function triggerColumns(trigger: AutomationTrigger): Partial<AutomationDefinitionsTable> {
    const pattern = trigger.type === 'Schedule' ? patternOf(trigger.schedule) : null;
    return {
      trigger_type: trigger.type,
      schedule: trigger.schedule ? JSON.stringify(trigger.schedule) : null,
      schedule_pattern: pattern,
      next_run_at: nextRunOf(pattern, clock()),
      trigger_integration_id: trigger.integrationId,
      trigger_new_rows_only: trigger.onlyWithNewRows ? 1 : 0,
    };
  }

  /** The trigger an update asks for: `trigger` as given, else the spec's schedule fields over the current one. */
  function requestedTrigger(row: AutomationDefinitionRow, input: UpdateAutomationRequest): AutomationTrigger | null {
    if (input.trigger) return input.trigger;
    if (input.scheduleFrequencyType === undefined && input.scheduleFrequencyDetails === undefined) return null;
    const current = triggerOf(row);
    const type = input.scheduleFrequencyType ?? (current.type === 'Schedule' ? 'Scheduled' : 'Manual');
    if (type === 'Manual') return { ...current, type: 'Manual' };
    const schedule = input.scheduleFrequencyDetails ?? current.schedule;
    return { ...current, type: 'Schedule', schedule: schedule ? { ...schedule, type: 'Scheduled' } : null };
  }

  /** An integration id the caller gave: one of the account's, or 404 (another account's reads as missing). */
  async function mustBeAccountIntegration(ctx: AccountContext, id: string): Promise<void> {
    const found = await db
      .selectFrom('integrations')
      .select('id')
      .where('id', '=', id)
      .where('account_id', '=', ctx.accountId)
      .executeTakeFirst();
    if (!found) throw notFound('Integration not found.');
  }

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

  /** A step with what the editor needs around it: the definition, its steps in order, the step's index. */
  async function stepInContext(ctx: AccountContext, id: string, stepId: string) {
    const row = await mustFind(ctx, id);
    const steps = await stepsOf(id);
    const index = steps.findIndex((s) => s.id === stepId);
    if (index < 0) throw notFound(AUTOMATION_MESSAGES.stepNotFound);
    return { row, steps, index, step: steps[index] as AutomationStepRow };
  }

  const env = (ctx: AccountContext): StepEnv => ({ deps, services: core, ctx });

  return {
    /** The list page: every definition with its latest run, sorted by name. */
    async list(ctx: AccountContext): Promise<AutomationListItem[]> {
      const rows = await listDefinitionRows(db, ctx.accountId);
      const [steps, runs, context] = await Promise.all([
        stepRowsOf(
          db,
          rows.map((r) => r.id),
        ),
        lastRuns(db, ctx.accountId, clock()),
        viewContext(ctx.accountId),
      ]);
      return rows.map((row) => listItemView(row, steps.get(row.id) ?? [], runs.get(row.id), context)).sort(byName);
    },

    async get(ctx: AccountContext, id: string): Promise<AutomationDefinition> {
      return fresh(ctx, id);
    },

    async create(ctx: AccountContext, input: CreateAutomationRequest): Promise<AutomationDefinition> {
      requireWriter(ctx);
      const now = clock().toISOString();
      const id = newId();
      await db
        .insertInto('automation_definitions')
        .values({
          id,
          account_id: ctx.accountId,
          name: input.name,
          description: input.description,
          trigger_type: 'Manual',
          schedule: null,
          schedule_pattern: null,
          next_run_at: null,
          trigger_integration_id: null,
          trigger_new_rows_only: 0,
          run_timeout_seconds: 3_600,
          run_counter: 0,
          created_by: ctx.user.id,
          created_at: now,
          modified_at: now,
        })
        .execute();
      return fresh(ctx, id);
    },

    async update(ctx: AccountContext, id: string, input: UpdateAutomationRequest): Promise<AutomationDefinition> {
      const row = await mustFind(ctx, id);
      requireWriter(ctx);
      if (input.id !== undefined && input.id !== id) throw badInput('The id in the body is not the id of the path.');
      const set: Partial<AutomationDefinitionsTable> = { modified_at: clock().toISOString() };
      if (input.name !== undefined) set.name = input.name;
      if (input.description !== undefined) set.description = input.description;
      if (input.runTimeoutSeconds !== undefined) set.run_timeout_seconds = input.runTimeoutSeconds;
      const trigger = requestedTrigger(row, input);
      if (trigger) {
        if (trigger.integrationId && trigger.integrationId !== row.trigger_integration_id)
          await mustBeAccountIntegration(ctx, trigger.integrationId);
        Object.assign(set, triggerColumns(trigger));
      }
      await db.updateTable('automation_definitions').set(set).where('id', '=', id).execute();
      return fresh(ctx, id);
    },

    async remove(ctx: AccountContext, id: string): Promise<void> {
      await mustFind(ctx, id);
      requireWriter(ctx);
      // Steps, runs and their logs go with it (foreign keys cascade).
      await db.deleteFrom('automation_definitions').where('id', '=', id).execute();
    },

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

    /** The integrations the step may use, its inputs' allowed values and the placeholders its text inputs may hold. */
    async inputOptions(ctx: AccountContext, id: string, stepId: string): Promise<StepInputOptions> {
      const { row, steps, index, step } = await stepInContext(ctx, id, stepId);
      const kind = kindOf(configuredStep(step).kind);
      const integrations = await integrationRefs(db, ctx.accountId);
      const connectors = kind?.integrationConnectors ?? null;
      const integrationOptions: InputOption[] =
        connectors === null
          ? []
          : [...integrations.values()]
              .filter((i) => connectors.includes(i.connectorKey))
              .sort(byName)
              .map((i) => ({ value: i.id, label: i.name }));
      const inputs = kind ? await kind.inputOptions(env(ctx), configuredStep(step)) : {};
      const trigger = triggerOf(row);
      const placeholders: InputOption[] = [
        ...TRIGGER_FIELDS[trigger.type].map((f) => ({
          value: `{{trigger.${f.name}}}`,
          label: `Trigger: ${f.label}`,
          group: 'Trigger',
        })),
        ...steps.slice(0, index).flatMap((earlier) =>
          (kindOf(configuredStep(earlier).kind)?.outputs ?? []).map((o) => ({
            value: `{{steps.${earlier.id}.${o.name}}}`,
            label: `${earlier.name}: ${o.label}`,
            group: 'Steps',
          })),
        ),
        ...RUN_FIELDS.map((f) => ({ value: `{{run.${f.name}}}`, label: f.label, group: 'Run' })),
        ...AUTOMATION_FIELDS.map((f) => ({ value: `{{automation.${f.name}}}`, label: f.label, group: 'Automation' })),
      ];
      return { integrations: integrationOptions, inputs, placeholders };
    },

    /** The trigger's data as a run would get it now (GET .../preview-initial-data). */
    async previewInitialData(ctx: AccountContext, id: string): Promise<Record<string, InputValue>> {
      const definition = await fresh(ctx, id);
      return asInputValues(await sampleTriggerData(deps, ctx, definition));
    },

    /**
     * What the step would read or send, without side effects, as the caller: placeholders resolved
     * against the sample trigger data; earlier steps' outputs are not known before a run and are
     * reported unresolved.
     */
    async stepPreview(ctx: AccountContext, id: string, stepId: string): Promise<StepPreview> {
      const { row, steps, index, step } = await stepInContext(ctx, id, stepId);
      const configured = configuredStep(step);
      const kind = kindOf(configured.kind);
      if (!kind) throw badInput(VALIDATION_MESSAGES.kindUnavailable);
      const context = await viewContext(ctx.accountId);
      const problem = stepError(configured, index, {
        trigger: triggerOf(row),
        steps: steps.map(configuredStep),
        integrations: context.integrations,
        kindOf,
      });
      if (problem) throw badInput(problem);
      const definition = definitionView(row, steps, null, context);
      const trigger = asInputValues(await sampleTriggerData(deps, ctx, definition));
      const scope = {
        trigger,
        steps: {},
        run: { id: 'preview', number: row.run_counter + 1, startedAt: clock().toISOString() },
        automation: { id: row.id, name: row.name },
      };
      const resolved = resolveInputs(configured.inputs, scope);
      const preview = await kind.preview(env(ctx), { ...configured, inputs: resolved.inputs });
      const unresolved = [...new Set([...(preview.unresolved ?? []), ...resolved.unresolved])];
      return unresolved.length > 0 ? { ...preview, unresolved } : preview;
    },

    /** The definition without a caller's check, for the runner (which builds its own context). */
    async definitionOf(accountId: string, id: string): Promise<AutomationDefinition | null> {
      const row = await findDefinition(db, accountId, id);
      return row ? view(accountId, row) : null;
    },

    /** The error only (list badges, the runner's refusal). */
    async errorOf(accountId: string, id: string): Promise<string | null> {
      const row = await findDefinition(db, accountId, id);
      if (!row) return AUTOMATION_MESSAGES.notFound;
      return validationOf(row, await stepsOf(id), await viewContext(accountId)).error;
    },
  };
}

export type AutomationsService = ReturnType<typeof createAutomationsService>;
