/**
 * At-most-once effects outside a run (an e-mail, an HTTP call, a destination write), keyed by the
 * step's idempotency key: a row is recorded Started before the effect and Done with its result
 * after. A resumed step finds Done and reuses the result; a Started without Done means the server
 * died during the effect, and the step decides (never resend an e-mail; an HTTP call carrying an
 * Idempotency-Key may be repeated because the receiver deduplicates).
 */
import type { InputValue } from '../../../shared/automations';
import type { Db } from '../../db/database';
import type { OnceResult } from './step-kind';

export async function once<T extends InputValue>(
  db: Db,
  at: () => Date,
  owner: { runId: string; stepId: string },
  key: string,
  effect: () => Promise<T>,
): Promise<OnceResult<T>> {
  const now = at().toISOString();
  // Started is recorded before the effect by one statement that also says whether the key is new: a
  // row already there (Started or Done, from an earlier try of this attempt) is left as it is.
  const started = await db
    .insertInto('automation_side_effects')
    .values({
      key,
      run_id: owner.runId,
      step_id: owner.stepId,
      state: 'Started',
      result: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  if (Number(started.numInsertedOrUpdatedRows ?? 0) === 0) {
    const existing = await db
      .selectFrom('automation_side_effects')
      .select(['state', 'result'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (existing?.state === 'Done')
      return { done: true, result: JSON.parse(existing.result ?? 'null') as T, repeated: true };
    // Started without Done: the server died during the effect (it may have happened).
    return { done: false, uncertain: true };
  }
  let result: T;
  try {
    result = await effect();
  } catch (error) {
    // The effect did not happen (it threw before or while sending): a retry may try it again.
    await db.deleteFrom('automation_side_effects').where('key', '=', key).execute();
    throw error;
  }
  await db
    .updateTable('automation_side_effects')
    .set({ state: 'Done', result: JSON.stringify(result), updated_at: at().toISOString() })
    .where('key', '=', key)
    .execute();
  return { done: true, result, repeated: false };
}

/** Forgets a Started effect the step has settled another way (e.g. an HTTP call it may repeat with the same key). */
export async function forgetStarted(db: Db, key: string): Promise<void> {
  await db.deleteFrom('automation_side_effects').where('key', '=', key).where('state', '=', 'Started').execute();
}
