/** Automation definitions: the list, one definition, create, update (name, timeout, trigger), remove. */
import {
  AUTOMATION_MESSAGES,
  type AutomationDefinition,
  type AutomationListItem,
  type AutomationTrigger,
  type CreateAutomationRequest,
  type UpdateAutomationRequest,
} from '../../../shared/automations';
import type { AccountContext, Deps } from '../../context';
import { newId } from '../../db/ids';
import type { AutomationDefinitionRow, AutomationDefinitionsTable } from '../../db/schema';
import { badInput } from '../../errors';
import { requireWriter } from '../accounts/access';
import { byName, type DefinitionAccess } from './definition-access';
import { findDefinition, lastRuns, listDefinitionRows, stepRowsOf } from './repo';
import { nextRunOf, patternOf } from './schedule-pattern';
import { listItemView, triggerOf, validationOf } from './view';

export function createDefinitionsService(deps: Deps, access: DefinitionAccess) {
  const { db, clock } = deps;
  const { viewContext, mustFind, stepsOf, view, fresh, mustBeAccountIntegration } = access;

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
