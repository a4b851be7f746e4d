import { beforeEach, describe, expect, it } from 'vitest';
import type { AutomationDefinition, AutomationLogLine, AutomationRun } from '../../../src/shared/automations';
import { AUTOMATION_MESSAGES } from '../../../src/shared/automations';
import { MESSAGES } from '../../../src/shared/messages';
import type { HubConnection } from '../../../src/server/hubs/hub-sender';
import { call, expectError } from '../helpers';
import { appWithTeam, appWithTwoTeams, mutation, ok, query, trpcOk } from '../static-tables/helpers';
import { endedRun, fake, insertDefinition, installTestKind, runDetail, triggerRun } from './runs-helpers';

beforeEach(() => installTestKind());

describe('automation runs', () => {
  it('Run now runs the steps in order as the caller; outputs feed later placeholders; each step keeps its inputs, output and attempt', async () => {
    const { t, team } = await appWithTeam();
    const sent: { target: string; args: unknown[] }[] = [];
    t.deps.hubs.add({
      id: 'watcher',
      hub: 'automations',
      userId: team.owner.userId,
      accountId: team.accountId,
      sessionHash: 'x',
      send: (record: string) => {
        const message = JSON.parse(record.replace(String.fromCharCode(0x1e), '')) as {
          target: string;
          arguments: unknown[];
        };
        sent.push({ target: message.target, args: message.arguments });
      },
      close: () => undefined,
    } satisfies HubConnection);
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      name: 'Nightly',
      steps: [
        { inputs: { value: 41, secret: 'hunter2' } },
        { inputs: { value: 'got {{steps.s1.value}} for {{trigger.userName}} in {{automation.name}} #{{run.number}}' } },
      ],
    });
    const run = await triggerRun(t, team.admin.cookie, def.id);
    expect(run).toMatchObject({ automationDefinitionId: def.id, name: 'Nightly', runNumber: 1, origin: 'Manual' });
    expect(['Pending', 'Running']).toContain(run.status);
    const done = await endedRun(t, team.admin.cookie, run.id);
    expect(done.status).toBe('Completed');
    expect(done.error).toBeNull();
    expect(done.triggerData).toMatchObject({ type: 'Manual', userId: team.admin.userId });
    expect(done.steps.map((s) => [s.status, s.attempt])).toEqual([
      ['Completed', 1],
      ['Completed', 1],
    ]);
    // Secrets are masked in the stored inputs; the step itself got the real value.
    expect(done.steps[0]?.inputs).toEqual({ value: 41, secret: '********' });
    expect(fake.calls[0]?.inputs.secret).toBe('hunter2');
    expect(done.steps[0]?.output).toEqual({ value: 41, attempt: 1 });
    expect(done.steps[1]?.output?.value).toBe('got 41 for Admin in Nightly #1');
    expect(done.steps[1]?.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 'Completed', errorType: null }),
    ]);
    expect(fake.calls.map((c) => c.key)).toEqual([`${run.id}:${def.stepIds[0]}:1`, `${run.id}:${def.stepIds[1]}:1`]);
    // Logs, over REST and tRPC.
    const logs = ok(
      await call<AutomationLogLine[]>(t.server, 'GET', `/api/automations/${run.id}/logs`, {
        cookie: team.readOnly.cookie,
      }),
    );
    expect(logs.map((l) => l.message)).toContain('Run completed.');
    expect(logs.some((l) => l.message === `test step ${def.stepIds[0]} ran` && l.stepId === def.stepIds[0])).toBe(true);
    expect(
      trpcOk(await query<AutomationLogLine[]>(t, 'automationRuns.logs', { runId: run.id }, team.owner.cookie)),
    ).toHaveLength(logs.length);
    // Hub: started, step progress, completed, each naming the run and its definition.
    const events = sent.map((s) => s.target);
    expect(events[0]).toBe('started');
    expect(events.at(-1)).toBe('completed');
    expect(events).toContain('stepProgress');
    expect(sent.at(-1)?.args[0]).toMatchObject({
      automationId: run.id,
      automationDefinitionId: def.id,
      status: 'Completed',
    });

    // A second run gets the next number; list, latest and get over REST and tRPC.
    const second = await triggerRun(t, team.owner.cookie, def.id);
    expect(second.runNumber).toBe(2);
    await endedRun(t, team.owner.cookie, second.id);
    const listed = ok(
      await call<AutomationRun[]>(t.server, 'GET', `/api/automations?automationDefinitionId=${def.id}`, {
        cookie: team.readOnly.cookie,
      }),
    );
    expect(listed.map((r) => r.runNumber)).toEqual([2, 1]);
    const latest = ok(
      await call<AutomationRun[]>(t.server, 'GET', '/api/automations/latest', { cookie: team.readOnly.cookie }),
    );
    expect(latest.map((r) => r.id)).toEqual([second.id]);
    expect(trpcOk(await query<AutomationRun[]>(t, 'automationRuns.list', {}, team.readOnly.cookie))).toHaveLength(2);
    expect(
      trpcOk(
        await query<AutomationRun[]>(
          t,
          'automationRuns.latest',
          { automationDefinitionId: def.id },
          team.readOnly.cookie,
        ),
      )[0]?.id,
    ).toBe(second.id);
    const viaTrpc = trpcOk(
      await mutation<AutomationRun>(t, 'automationRuns.trigger', { id: def.id }, team.owner.cookie),
    );
    expect(viaTrpc.runNumber).toBe(3);
    expect((await endedRun(t, team.owner.cookie, viaTrpc.id)).status).toBe('Completed');
  });

  it('runs a definition made through the definitions API: steps in their order, policy as set', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const created = ok(
      await call<AutomationDefinition>(t.server, 'POST', '/api/automations/definitions', {
        cookie,
        body: { name: 'Made by API' },
      }),
      201,
    );
    // The spec's answer to adding a step is the step (with its id).
    const first = ok(
      await call<{ id: string }>(t.server, 'POST', `/api/automations/definitions/${created.id}/steps`, {
        cookie,
        body: { kind: 'HttpRequest', name: 'First', inputs: { mode: 'fail', failTimes: 1, value: 'one' } },
      }),
      201,
    );
    const firstId = first.id;
    ok(
      await call(t.server, 'PUT', `/api/automations/definitions/${created.id}/steps/${firstId}/policy`, {
        cookie,
        body: { attempts: 2, backoffSeconds: 0 },
      }),
    );
    ok(
      await call(t.server, 'POST', `/api/automations/definitions/${created.id}/steps`, {
        cookie,
        body: { kind: 'HttpRequest', name: 'Second', inputs: { value: `{{steps.${firstId}.value}} two` } },
      }),
      201,
    );
    const definition = ok(
      await call<AutomationDefinition>(t.server, 'GET', `/api/automations/definitions/${created.id}`, { cookie }),
    );
    expect(definition.error).toBeNull();
    const run = await triggerRun(t, team.admin.cookie, created.id);
    const done = await endedRun(t, cookie, run.id);
    expect(done.status).toBe('Completed');
    expect(done.name).toBe('Made by API');
    expect(done.steps.map((s) => [s.name, s.attempt])).toEqual([
      ['First', 2],
      ['Second', 1],
    ]);
    expect(done.steps[1]?.output?.value).toBe('one two');
  });

  it('refuses Run now for a definition with an error, and while a run of it has not ended', async () => {
    const { t, team } = await appWithTeam();
    const empty = await insertDefinition(t, { accountId: team.accountId, createdBy: team.owner.userId, steps: [] });
    const res = await call(t.server, 'POST', `/api/automations/definitions/${empty.id}/trigger`, {
      cookie: team.owner.cookie,
    });
    expect(expectError(res, 400)).toBe(AUTOMATION_MESSAGES.noSteps);
    const bad = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ inputs: { value: '{{steps.s2.value}}' } }, {}],
    });
    const refused = await call(t.server, 'POST', `/api/automations/definitions/${bad.id}/trigger`, {
      cookie: team.owner.cookie,
    });
    expect(expectError(refused, 400)).toContain(AUTOMATION_MESSAGES.hasError);
    // The definitions service's error (here the trigger's) refuses the run too.
    const noIntegration = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      triggerType: 'AfterSync',
      steps: [{ inputs: { value: 1 } }],
    });
    const noTrigger = await call(t.server, 'POST', `/api/automations/definitions/${noIntegration.id}/trigger`, {
      cookie: team.owner.cookie,
    });
    expect(expectError(noTrigger, 400)).toBe(
      `${AUTOMATION_MESSAGES.hasError} Choose the integration whose sync starts this automation.`,
    );
    const hang = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ inputs: { mode: 'hang' } }],
    });
    const run = await triggerRun(t, team.owner.cookie, hang.id);
    const again = await call(t.server, 'POST', `/api/automations/definitions/${hang.id}/trigger`, {
      cookie: team.owner.cookie,
    });
    expect(expectError(again, 409)).toBe(AUTOMATION_MESSAGES.alreadyRunning);
    ok(await call(t.server, 'POST', `/api/automations/${run.id}/cancel`, { cookie: team.owner.cookie }));
    expect((await endedRun(t, team.owner.cookie, run.id)).status).toBe('Cancelled');
  });

  it('retries transient failures with a new attempt (and key) each time; ConfigError is never retried and fails the run, notifying the owner', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ inputs: { mode: 'fail', failTimes: 2, value: 'x' }, policy: { attempts: 3, backoffSeconds: 0.05 } }],
    });
    const run = await triggerRun(t, team.owner.cookie, def.id);
    const done = await endedRun(t, team.owner.cookie, run.id);
    expect(done.status).toBe('Completed');
    expect(done.steps[0]?.attempts.map((a) => [a.attempt, a.status, a.errorType])).toEqual([
      [1, 'Failed', 'TransientError'],
      [2, 'Failed', 'TransientError'],
      [3, 'Completed', null],
    ]);
    expect(new Set(fake.calls.map((c) => c.key)).size).toBe(3);

    const exhausted = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ name: 'Flaky', inputs: { mode: 'fail' }, policy: { attempts: 2 } }, { name: 'Never' }],
    });
    const failed = await endedRun(t, team.admin.cookie, (await triggerRun(t, team.admin.cookie, exhausted.id)).id);
    expect(failed.status).toBe('Failed');
    expect(failed.error).toBe('Flaky: Temporary failure 2.');
    expect(failed.steps.map((s) => s.status)).toEqual(['Failed', 'Pending']);

    fake.calls = [];
    const config = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      name: 'Broken',
      steps: [
        {
          name: 'Bad',
          inputs: { mode: 'config' },
          policy: { attempts: 5, retryOn: ['TransientError', 'ConfigError'] },
        },
      ],
    });
    const configRun = await endedRun(t, team.admin.cookie, (await triggerRun(t, team.admin.cookie, config.id)).id);
    expect(configRun.status).toBe('Failed');
    expect(configRun.error).toBe('Bad: The test step is misconfigured.');
    expect(fake.calls).toHaveLength(1);
    // The definition's owner (not the admin who pressed Run now) is told.
    const notes = await t.deps.db
      .selectFrom('notifications')
      .selectAll()
      .where('kind', '=', 'AutomationFailed')
      .execute();
    expect(notes.map((n) => n.user_id)).toEqual([team.owner.userId, team.owner.userId]);
    expect(notes.some((n) => n.body.includes('"Broken" run #1 failed: Bad: The test step is misconfigured.'))).toBe(
      true,
    );
  });

  it('a step that only warns is Warned and the run goes on; an unresolved placeholder is a ConfigError', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ inputs: { mode: 'config' }, policy: { onFailure: 'Warn' } }, { inputs: { value: 'after' } }],
    });
    const done = await endedRun(t, team.owner.cookie, (await triggerRun(t, team.owner.cookie, def.id)).id);
    expect(done.status).toBe('Completed');
    expect(done.steps.map((s) => s.status)).toEqual(['Warned', 'Completed']);
    expect(done.steps[0]?.error).toBe('The test step is misconfigured.');

    // A placeholder the definition allows but the run cannot fill (the warned step saved no value).
    const missing = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [
        { inputs: { mode: 'config' }, policy: { onFailure: 'Warn' } },
        { name: 'Uses', inputs: { value: 'from {{steps.s1.value}}' } },
      ],
    });
    const failed = await endedRun(t, team.owner.cookie, (await triggerRun(t, team.owner.cookie, missing.id)).id);
    expect(failed.status).toBe('Failed');
    expect(failed.error).toBe(`Uses: Cannot resolve {{steps.${missing.stepIds[0]}.value}}.`);
    expect(failed.steps[1]?.attempts[0]?.errorType).toBe('ConfigError');
  });

  it('a step with nothing to do (its output says skipped) is Skipped with its reason logged, and the run goes on', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ name: 'Mail', inputs: { mode: 'skip' } }, { inputs: { value: 'after' } }],
    });
    const done = await endedRun(t, team.owner.cookie, (await triggerRun(t, team.owner.cookie, def.id)).id);
    expect(done.status).toBe('Completed');
    expect(done.steps.map((s) => s.status)).toEqual(['Skipped', 'Completed']);
    expect(done.steps[0]?.output).toEqual({ skipped: true, reason: 'nothing to send' });
    const logs = ok(
      await call<AutomationLogLine[]>(t.server, 'GET', `/api/automations/${done.id}/logs`, {
        cookie: team.owner.cookie,
      }),
    );
    expect(logs.some((l) => l.message === 'Mail: skipped (nothing to send).')).toBe(true);
  });

  it('a step over its time limit is aborted and TimedOut; a run over its limit ends TimedOut', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ name: 'Slow', inputs: { mode: 'hang' }, policy: { timeoutSeconds: 1, attempts: 1 } }],
    });
    const done = await endedRun(t, team.owner.cookie, (await triggerRun(t, team.owner.cookie, def.id)).id);
    expect(done.status).toBe('TimedOut');
    expect(done.error).toBe(`Slow: ${AUTOMATION_MESSAGES.stepTimedOut(1)}`);
    expect(done.steps[0]?.status).toBe('TimedOut');
    expect(fake.aborted).toEqual([def.stepIds[0]]);

    const long = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      runTimeoutSeconds: 60,
      steps: [{ inputs: { value: 1 } }, { inputs: { mode: 'hang' } }],
    });
    const run = await triggerRun(t, team.owner.cookie, long.id);
    await expect.poll(async () => (await runDetail(t, team.owner.cookie, run.id)).steps[1]?.status).toBe('Running');
    t.clock.advance(61_000);
    await t.services.automationRuns.runner.beat();
    const timedOut = await endedRun(t, team.owner.cookie, run.id);
    expect(timedOut.status).toBe('TimedOut');
    expect(timedOut.error).toBe(AUTOMATION_MESSAGES.runTimedOut(60));
    expect(timedOut.steps.map((s) => s.status)).toEqual(['Completed', 'TimedOut']);
  });

  it('cancelling aborts the step in progress (its signal) and ends the run Cancelled; a queued run is cancelled before it starts', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ inputs: { mode: 'hang' } }, {}],
    });
    const run = await triggerRun(t, team.owner.cookie, def.id);
    await expect.poll(async () => (await runDetail(t, team.owner.cookie, run.id)).steps[0]?.status).toBe('Running');
    ok(await call(t.server, 'POST', `/api/automations/${run.id}/cancel`, { cookie: team.admin.cookie }));
    const done = await endedRun(t, team.owner.cookie, run.id);
    expect(done.status).toBe('Cancelled');
    expect(done.error).toBe(AUTOMATION_MESSAGES.cancelledByUser);
    expect(done.steps.map((s) => s.status)).toEqual(['Cancelled', 'Pending']);
    expect(fake.aborted).toEqual([def.stepIds[0]]);
    // Cancelled through the flag alone (as another worker's heartbeat would see it).
    const second = await triggerRun(t, team.owner.cookie, def.id);
    await expect.poll(async () => (await runDetail(t, team.owner.cookie, second.id)).steps[0]?.status).toBe('Running');
    await t.deps.db.updateTable('automation_runs').set({ cancel_requested: 1 }).where('id', '=', second.id).execute();
    await t.services.automationRuns.runner.beat();
    expect((await endedRun(t, team.owner.cookie, second.id)).status).toBe('Cancelled');
    // Cancelling an ended run changes nothing.
    const again = ok(
      await call<AutomationRun>(t.server, 'POST', `/api/automations/${run.id}/cancel`, { cookie: team.owner.cookie }),
    );
    expect(again.status).toBe('Cancelled');
  });

  it('rerun from the failed step reuses the earlier outputs and starts at the failed one; from the start runs all; the new run links to the old', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [
        { inputs: { value: 'first' } },
        { name: 'Second', inputs: { mode: 'config' } },
        { inputs: { value: '{{steps.s1.value}}!' } },
      ],
    });
    const failed = await endedRun(t, team.owner.cookie, (await triggerRun(t, team.owner.cookie, def.id)).id);
    expect(failed.status).toBe('Failed');
    // The user fixes the step, then reruns from it.
    await t.deps.db
      .updateTable('automation_steps')
      .set({ inputs: JSON.stringify({ value: 'fixed' }) })
      .where('id', '=', def.stepIds[1] as string)
      .execute();
    fake.calls = [];
    const rerun = ok(
      await call<AutomationRun>(t.server, 'POST', `/api/automations/${failed.id}/rerun`, {
        cookie: team.admin.cookie,
        body: { from: 'FailedStep' },
      }),
    );
    expect(rerun).toMatchObject({
      origin: 'Rerun',
      rerunOf: failed.id,
      resumedFromStepId: def.stepIds[1],
      runNumber: 2,
    });
    const done = await endedRun(t, team.owner.cookie, rerun.id);
    expect(done.status).toBe('Completed');
    expect(fake.calls.map((c) => c.stepId)).toEqual([def.stepIds[1], def.stepIds[2]]);
    expect(done.steps[0]?.output).toEqual(failed.steps[0]?.output);
    expect(done.steps[2]?.output?.value).toBe('first!');
    // A completed run has no failed step to resume from.
    const refused = await call(t.server, 'POST', `/api/automations/${done.id}/rerun`, {
      cookie: team.owner.cookie,
      body: { from: 'FailedStep' },
    });
    expect(expectError(refused, 400)).toBe(AUTOMATION_MESSAGES.nothingToResume);
    fake.calls = [];
    const fromStart = trpcOk(
      await mutation<AutomationRun>(t, 'automationRuns.rerun', { runId: done.id, from: 'Start' }, team.owner.cookie),
    );
    expect(fromStart).toMatchObject({ rerunOf: done.id, resumedFromStepId: null });
    expect((await endedRun(t, team.owner.cookie, fromStart.id)).status).toBe('Completed');
    expect(fake.calls).toHaveLength(3);
  });

  it('takes over a run whose lease expired and resumes at its first step without an output; the interrupted attempt continues with its key', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [
        { inputs: { value: 'a' } },
        { inputs: { value: 'b' } },
        { inputs: { value: '{{steps.s1.value}}{{steps.s2.value}}' } },
      ],
    });
    const run = await triggerRun(t, team.owner.cookie, def.id);
    await endedRun(t, team.owner.cookie, run.id);
    // Make it look as a crash left it: step 1 finished, step 2 mid-attempt 1, held by a dead worker.
    const [s1, s2, s3] = def.stepIds as [string, string, string];
    const past = new Date(t.clock.now().getTime() - 1_000).toISOString();
    await t.deps.db
      .updateTable('automation_runs')
      .set({ status: 'Running', ended_at: null, lease_owner: 'w-dead', lease_expires_at: past })
      .where('id', '=', run.id)
      .execute();
    await t.deps.db
      .updateTable('automation_step_runs')
      .set({ status: 'Running', output: null, ended_at: null })
      .where('run_id', '=', run.id)
      .where('step_id', '=', s2)
      .execute();
    await t.deps.db
      .updateTable('automation_step_runs')
      .set({ status: 'Pending', output: null, attempt: 0, ended_at: null })
      .where('run_id', '=', run.id)
      .where('step_id', '=', s3)
      .execute();
    await t.deps.db
      .deleteFrom('automation_step_attempts')
      .where('run_id', '=', run.id)
      .where('step_id', '=', s3)
      .execute();
    fake.calls = [];
    await t.services.automationRuns.runner.beat();
    const done = await endedRun(t, team.owner.cookie, run.id);
    expect(done.status).toBe('Completed');
    expect(fake.calls.map((c) => c.key)).toEqual([`${run.id}:${s2}:1`, `${run.id}:${s3}:1`]);
    expect(fake.calls.some((c) => c.stepId === s1)).toBe(false);
    expect(done.steps[2]?.output?.value).toBe('ab');
    expect(done.steps[1]?.attempts).toHaveLength(1);
    const logs = ok(
      await call<AutomationLogLine[]>(t.server, 'GET', `/api/automations/${run.id}/logs`, {
        cookie: team.owner.cookie,
      }),
    );
    expect(logs.map((l) => l.message)).toContain(AUTOMATION_MESSAGES.interrupted);
    // A lease that has not expired is left alone.
    await t.deps.db
      .updateTable('automation_runs')
      .set({
        status: 'Running',
        ended_at: null,
        lease_owner: 'w-alive',
        lease_expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      })
      .where('id', '=', run.id)
      .execute();
    await t.services.automationRuns.runner.beat();
    expect((await runDetail(t, team.owner.cookie, run.id)).status).toBe('Running');
  });

  it('runs at most AUTOMATION_CONCURRENCY runs at once', async () => {
    const { t, team } = await appWithTeam();
    t.deps.config.automations.concurrency = 1;
    const a = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ inputs: { mode: 'hang' } }],
    });
    const b = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      steps: [{ inputs: { value: 1 } }],
    });
    const first = await triggerRun(t, team.owner.cookie, a.id);
    await expect.poll(async () => (await runDetail(t, team.owner.cookie, first.id)).status).toBe('Running');
    const second = await triggerRun(t, team.owner.cookie, b.id);
    await t.services.automationRuns.runner.beat();
    expect((await runDetail(t, team.owner.cookie, second.id)).status).toBe('Pending');
    ok(await call(t.server, 'POST', `/api/automations/${first.id}/cancel`, { cookie: team.owner.cookie }));
    expect((await endedRun(t, team.owner.cookie, second.id)).status).toBe('Completed');
  });

  it("other accounts' runs and definitions are 404; read_only members read runs but cannot start, rerun or cancel them", async () => {
    const { t, a, b } = await appWithTwoTeams();
    const def = await insertDefinition(t, {
      accountId: a.accountId,
      createdBy: a.owner.userId,
      steps: [{ inputs: { value: 1 } }],
    });
    const run = await triggerRun(t, a.owner.cookie, def.id);
    await endedRun(t, a.owner.cookie, run.id);
    for (const [method, url] of [
      ['POST', `/api/automations/definitions/${def.id}/trigger`],
      ['GET', `/api/automations/${run.id}`],
      ['GET', `/api/automations/${run.id}/logs`],
      ['POST', `/api/automations/${run.id}/rerun`],
      ['POST', `/api/automations/${run.id}/cancel`],
    ] as const)
      expectError(await call(t.server, method, url, { cookie: b.owner.cookie }), 404);
    expect(ok(await call<AutomationRun[]>(t.server, 'GET', '/api/automations', { cookie: b.owner.cookie }))).toEqual(
      [],
    );
    expect(
      ok(
        await call<AutomationRun[]>(t.server, 'GET', `/api/automations/latest?automationDefinitionId=${def.id}`, {
          cookie: b.owner.cookie,
        }),
      ),
    ).toEqual([]);
    for (const [method, url] of [
      ['POST', `/api/automations/definitions/${def.id}/trigger`],
      ['POST', `/api/automations/${run.id}/rerun`],
      ['POST', `/api/automations/${run.id}/cancel`],
    ] as const)
      expect(expectError(await call(t.server, method, url, { cookie: a.readOnly.cookie }), 403)).toBe(
        MESSAGES.readOnly,
      );
    ok(await call(t.server, 'GET', `/api/automations/${run.id}`, { cookie: a.readOnly.cookie }));
  });
});
