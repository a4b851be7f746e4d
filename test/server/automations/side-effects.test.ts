import { describe, expect, it } from 'vitest';
import { once } from '../../../src/server/modules/automations/side-effects';
import { appWithTeam } from '../static-tables/helpers';
import { definitionAndRun } from './steps-data-env';
import { leaveStarted } from './steps-out-helpers';

describe('at-most-once side effects', () => {
  it('a new effect costs two statements (Started, then Done); a Done key answers its result and a Started one is uncertain, neither running the effect', async () => {
    const { t, team } = await appWithTeam();
    const { runId } = await definitionAndRun(t, team.accountId, team.owner.userId);
    let statements = 0;
    const db = t.deps.db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    const owner = { runId, stepId: 'step1' };
    let effects = 0;
    const effect = () => Promise.resolve(++effects);

    expect(await once(db, t.deps.clock, owner, `${runId}:step1:1`, effect)).toEqual({
      done: true,
      result: 1,
      repeated: false,
    });
    expect(statements).toBe(2);
    expect(await once(db, t.deps.clock, owner, `${runId}:step1:1`, effect)).toEqual({
      done: true,
      result: 1,
      repeated: true,
    });
    await leaveStarted(t, runId, `${runId}:step1:2`);
    expect(await once(db, t.deps.clock, owner, `${runId}:step1:2`, effect)).toEqual({ done: false, uncertain: true });
    expect(effects).toBe(1);
  });
});
