/**
 * What the parts of the automations service share: finding a definition or a step in the caller's
 * account (other accounts' ids are not found), reading a definition as the page shows it, and
 * marking it modified.
 */
import { AUTOMATION_MESSAGES, type AutomationDefinition } from '../../../shared/automations';
import type { AccountContext, Deps } from '../../context';
import type { AutomationDefinitionRow, AutomationStepRow } from '../../db/schema';
import { notFound } from '../../errors';
import { findDefinition, integrationRefs, stepRowsOf, userNames } from './repo';
import { stepKind } from './step-kinds';
import { definitionView, type ViewContext } from './view';

export const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.name.localeCompare(b.name);

export function createDefinitionAccess(deps: Deps) {
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

  /** A step with what the editor needs around it: the definition, its steps in order, the step's index. */
  async function stepInContext(ctx: AccountContext, id: string, stepId: string) {
    const row = await mustFind(ctx, id);
    const steps = await stepsOf(id);
    const index = steps.findIndex((s) => s.id === stepId);
    if (index < 0) throw notFound(AUTOMATION_MESSAGES.stepNotFound);
    return { row, steps, index, step: steps[index] as AutomationStepRow };
  }

  return {
    kindOf,
    viewContext,
    mustFind,
    stepsOf,
    mustFindStep,
    view,
    fresh,
    touch,
    mustBeAccountIntegration,
    stepInContext,
  };
}

export type DefinitionAccess = ReturnType<typeof createDefinitionAccess>;
