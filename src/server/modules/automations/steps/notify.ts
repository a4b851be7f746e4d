/**
 * Notify: a notification (kind AutomationNotice, opening the automation) to chosen members, or to
 * the automation's owner when none is chosen. At most once per idempotency key: a step resumed after
 * a crash never notifies twice.
 */
import { STEP_KIND_LABELS, type InputValue } from '../../../../shared/automations';
import { notify } from '../../notifications/notify';
import { configError } from '../step-errors';
import type { StepEnv, StepKindDefinition, StepRunEnv } from '../step-kind';
import { definitionOwner, memberOptions } from './members';
import { firstProblem, problemOf } from './data-inputs';
import { listInput, textInput } from './step-inputs';

async function recipients(env: StepEnv, inputs: Record<string, InputValue>, definitionId: string | null) {
  const chosen = listInput(inputs, 'members');
  if (chosen.length > 0) {
    const members = new Set((await memberOptions(env)).map((m) => m.value));
    return chosen.filter((id) => members.has(id));
  }
  const owner = definitionId ? await definitionOwner(env, definitionId) : null;
  return owner ? [owner] : [];
}

export const notifyStep: StepKindDefinition = {
  kind: 'Notify',
  label: STEP_KIND_LABELS.Notify,
  description: 'Sends a notification to members of the account (the automation’s owner when none is chosen).',
  integrationConnectors: null,
  inputs: [
    {
      name: 'members',
      label: 'Members',
      description: 'Who is notified; nobody chosen: the automation’s owner.',
      type: 'multiselect',
      required: false,
      default: [],
    },
    { name: 'title', label: 'Title', type: 'template', required: true },
    { name: 'message', label: 'Message', type: 'template', required: true },
  ],
  outputs: [{ name: 'notified', label: 'Members notified' }],
  sideEffects: true,

  async inputOptions(env) {
    return { members: await memberOptions(env) };
  },

  validate(step) {
    const unreadable = problemOf(() => [
      textInput(step.inputs, 'title'),
      textInput(step.inputs, 'message'),
      listInput(step.inputs, 'members'),
    ]);
    if (unreadable) return unreadable;
    return firstProblem([
      [textInput(step.inputs, 'title') === '', 'Title is required.'],
      [textInput(step.inputs, 'message') === '', 'Message is required.'],
    ]);
  },

  async preview(env, step) {
    const definitionId = await definitionOfStep(env, step.id);
    const to = await recipients(env, step.inputs, definitionId);
    const names = new Map((await memberOptions(env)).map((m) => [m.value, m.label]));
    return {
      summary: `Would notify ${to.length} member(s).`,
      details: {
        to: to.map((id) => names.get(id) ?? id),
        title: textInput(step.inputs, 'title'),
        message: textInput(step.inputs, 'message'),
      },
    };
  },

  async run(env: StepRunEnv, step) {
    const to = await recipients(env, step.inputs, env.run.definitionId);
    if (to.length === 0) throw configError('None of the chosen members is in the account any more.');
    const sent = await env.once(`${env.idempotencyKey}:notify`, async () => {
      const created = await notify(env.deps, {
        accountId: env.ctx.accountId,
        userIds: to,
        kind: 'AutomationNotice',
        title: textInput(step.inputs, 'title'),
        body: textInput(step.inputs, 'message'),
        severity: 'Info',
        target: { type: 'Automation', id: env.run.definitionId },
      });
      return created.length;
    });
    if (!sent.done) {
      await env.log('WARN', 'The server stopped while the notification was being sent; it is not sent again.');
      return { notified: 0 };
    }
    await env.log('INFO', sent.repeated ? 'Already notified before a restart.' : `Notified ${sent.result} member(s).`);
    return { notified: sent.result };
  },
};

/** The definition a configured step belongs to (previews know the step, not the definition). */
async function definitionOfStep(env: StepEnv, stepId: string): Promise<string | null> {
  const row = await env.deps.db
    .selectFrom('automation_steps as s')
    .innerJoin('automation_definitions as d', 'd.id', 's.definition_id')
    .select('d.id')
    .where('s.id', '=', stepId)
    .where('d.account_id', '=', env.ctx.accountId)
    .executeTakeFirst();
  return row?.id ?? null;
}
