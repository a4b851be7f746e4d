/**
 * Automation definitions and their steps over REST and tRPC: create, read, list, update, delete;
 * steps added at a position, moved, removed (positions stay dense), renamed, inputs, integration and
 * policy set; other accounts' ids answer 404, read_only members 403.
 */
import { describe, expect, it } from 'vitest';
import type { AutomationDefinition, AutomationListItem, AutomationStep } from '../../../src/shared/automations';
import { AUTOMATION_MESSAGES } from '../../../src/shared/automations';
import { call, trpcMutation, trpcQuery, type TestApp, type TrpcData, type TrpcError } from '../helpers';
import { appWithTwoTeams, ok, trpcOk } from '../static-tables/helpers';

const BASE = '/api/automations/definitions';

const api = <T>(t: TestApp, cookie: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  call<T>(t.server, method, url, { cookie, ...(body === undefined ? {} : { body }) });

async function createAutomation(t: TestApp, cookie: string, name: string, description = '') {
  return ok(await api<AutomationDefinition>(t, cookie, 'POST', BASE, { name, description }), 201);
}

async function addStep(t: TestApp, cookie: string, id: string, body: Record<string, unknown>) {
  return ok(await api<AutomationStep>(t, cookie, 'POST', `${BASE}/${id}/steps`, body), 201);
}

const names = (d: AutomationDefinition) => d.steps.map((s) => s.name);

describe('automation definitions', () => {
  it('are created, read, listed by name, updated and deleted over REST', async () => {
    const { t, a } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const created = await createAutomation(t, cookie, '  Nightly export ', 'Sends the orders');
    expect(created).toMatchObject({
      name: 'Nightly export',
      description: 'Sends the orders',
      error: AUTOMATION_MESSAGES.noSteps,
      syncScheduleFrequencyType: 'Manual',
      scheduleFrequency: null,
      trigger: { type: 'Manual', schedule: null, integrationId: null, onlyWithNewRows: false },
      nextRunAt: null,
      steps: [],
      createdBy: { id: a.owner.userId, name: expect.any(String) },
    });
    await createAutomation(t, cookie, 'alpha checks');
    await createAutomation(t, cookie, 'Beta');

    const list = ok(await api<AutomationListItem[]>(t, cookie, 'GET', BASE));
    expect(list.map((i) => i.name)).toEqual(['alpha checks', 'Beta', 'Nightly export']);
    expect(list[2]).toEqual({
      id: created.id,
      name: 'Nightly export',
      description: 'Sends the orders',
      error: AUTOMATION_MESSAGES.noSteps,
      lastRun: null,
    });

    expect(ok(await api<AutomationDefinition>(t, cookie, 'GET', `${BASE}/${created.id}`))).toEqual(created);

    t.clock.advance(60_000);
    const updated = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${created.id}`, {
        id: created.id,
        name: 'Nightly orders export',
        description: '',
      }),
    );
    expect(updated).toMatchObject({ name: 'Nightly orders export', description: '' });
    expect(updated.modifiedAt > created.modifiedAt).toBe(true);

    ok(await api(t, cookie, 'DELETE', `${BASE}/${created.id}`), 204);
    expect((await api(t, cookie, 'GET', `${BASE}/${created.id}`)).status).toBe(404);
    expect(ok(await api<AutomationListItem[]>(t, cookie, 'GET', BASE)).map((i) => i.name)).toEqual([
      'alpha checks',
      'Beta',
    ]);
  });

  it('need a name, on create and on update', async () => {
    const { t, a } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const none = await api<{ message: string }>(t, cookie, 'POST', BASE, { name: '   ', description: '' });
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('Name is required.');
    const created = await createAutomation(t, cookie, 'Named');
    const blank = await api<{ message: string }>(t, cookie, 'PUT', `${BASE}/${created.id}`, { name: '' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toContain('Name is required.');
    const step = await addStep(t, cookie, created.id, { kind: 'Notify' });
    const rename = await api<{ message: string }>(t, cookie, 'PUT', `${BASE}/${created.id}/steps/${step.id}/name`, {
      value: ' ',
    });
    expect(rename.status).toBe(400);
    expect(rename.body.message).toContain('Name is required.');
  });

  it('keep their steps in order: added at a position, moved, removed, renamed', async () => {
    const { t, a } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const { id } = await createAutomation(t, cookie, 'Ordered');
    const first = await addStep(t, cookie, id, { kind: 'Notify', name: 'First' });
    const third = await addStep(t, cookie, id, { kind: 'Notify', name: 'Third' });
    const second = await addStep(t, cookie, id, { kind: 'Notify', name: 'Second', position: 1 });
    expect(second).toMatchObject({ name: 'Second', kind: 'Notify', integration: null });
    const zeroth = await addStep(t, cookie, id, { kind: 'Notify', name: 'Zeroth', position: 0 });
    let definition = ok(await api<AutomationDefinition>(t, cookie, 'GET', `${BASE}/${id}`));
    expect(names(definition)).toEqual(['Zeroth', 'First', 'Second', 'Third']);

    // A name left out is the kind's, numbered when taken.
    const unnamed = await addStep(t, cookie, id, { kind: 'Notify' });
    const unnamed2 = await addStep(t, cookie, id, { kind: 'Notify' });
    expect([unnamed.name, unnamed2.name]).toEqual(['Notify', 'Notify 2']);
    ok(await api(t, cookie, 'DELETE', `${BASE}/${id}/steps/${unnamed.id}`));
    ok(await api(t, cookie, 'DELETE', `${BASE}/${id}/steps/${unnamed2.id}`));

    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}/steps/${zeroth.id}/position`, { position: 3 }),
    );
    expect(names(definition)).toEqual(['First', 'Second', 'Third', 'Zeroth']);
    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}/steps/${third.id}/position`, { position: 0 }),
    );
    expect(names(definition)).toEqual(['Third', 'First', 'Second', 'Zeroth']);

    definition = ok(await api<AutomationDefinition>(t, cookie, 'DELETE', `${BASE}/${id}/steps/${first.id}`));
    expect(names(definition)).toEqual(['Third', 'Second', 'Zeroth']);
    const positions = await t.deps.db
      .selectFrom('automation_steps')
      .select(['name', 'position'])
      .where('definition_id', '=', id)
      .orderBy('position')
      .execute();
    expect(positions).toEqual([
      { name: 'Third', position: 0 },
      { name: 'Second', position: 1 },
      { name: 'Zeroth', position: 2 },
    ]);
    // A step added after a removal goes last, with no gap or clash.
    await addStep(t, cookie, id, { kind: 'Notify', name: 'Last' });
    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}/steps/${second.id}/name`, { value: ' 2nd ' }),
    );
    expect(names(definition)).toEqual(['Third', '2nd', 'Zeroth', 'Last']);
    expect((await api(t, cookie, 'DELETE', `${BASE}/${id}/steps/${first.id}`)).status).toBe(404);
  });

  it("set a step's policy field by field", async () => {
    const { t, a } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const { id } = await createAutomation(t, cookie, 'Policies');
    const step = await addStep(t, cookie, id, { kind: 'Notify' });
    expect(step.policy).toEqual({
      attempts: 3,
      backoffSeconds: 5,
      retryOn: ['TransientError'],
      timeoutSeconds: 600,
      onFailure: 'Fail',
    });
    let definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}/steps/${step.id}/policy`, { attempts: 5 }),
    );
    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}/steps/${step.id}/policy`, {
        onFailure: 'Warn',
        timeoutSeconds: 30,
      }),
    );
    expect(definition.steps[0]?.policy).toEqual({
      attempts: 5,
      backoffSeconds: 5,
      retryOn: ['TransientError'],
      timeoutSeconds: 30,
      onFailure: 'Warn',
    });
    expect((await api(t, cookie, 'PUT', `${BASE}/${id}/steps/${step.id}/policy`, { attempts: 0 })).status).toBe(400);
  });

  it('keep a schedule as a UTC cron with its next time, and flag a bad cron', async () => {
    const { t, a } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const { id } = await createAutomation(t, cookie, 'Scheduled');
    // The test clock starts at 2026-03-04T10:00Z (a Wednesday).
    let definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}`, {
        scheduleFrequencyType: 'Scheduled',
        scheduleFrequencyDetails: { type: 'Scheduled', frequency: 'Day', time: '06:30' },
      }),
    );
    expect(definition).toMatchObject({
      syncScheduleFrequencyType: 'Scheduled',
      scheduleFrequency: '30 6 * * *',
      nextRunAt: '2026-03-05T06:30:00.000Z',
      trigger: { type: 'Schedule' },
    });
    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}`, {
        scheduleFrequencyType: 'Scheduled',
        scheduleFrequencyDetails: { type: 'Scheduled', cron: '*/15 * * * *' },
      }),
    );
    expect(definition).toMatchObject({ scheduleFrequency: '*/15 * * * *', nextRunAt: '2026-03-04T10:15:00.000Z' });
    const row = await t.deps.db
      .selectFrom('automation_definitions')
      .select(['schedule_pattern', 'next_run_at', 'trigger_type'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      schedule_pattern: '*/15 * * * *',
      next_run_at: '2026-03-04T10:15:00.000Z',
      trigger_type: 'Schedule',
    });

    await addStep(t, cookie, id, { kind: 'Notify' });
    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}`, {
        scheduleFrequencyType: 'Scheduled',
        scheduleFrequencyDetails: { type: 'Scheduled', cron: '* * *' },
      }),
    );
    expect(definition).toMatchObject({
      error: 'Invalid cron expression',
      syncScheduleFrequencyType: 'Manual',
      nextRunAt: null,
    });

    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}`, { scheduleFrequencyType: 'Manual' }),
    );
    expect(definition).toMatchObject({
      syncScheduleFrequencyType: 'Manual',
      scheduleFrequency: null,
      nextRunAt: null,
      trigger: { type: 'Manual' },
    });
    expect(
      await t.deps.db
        .selectFrom('automation_definitions')
        .select(['schedule_pattern', 'next_run_at', 'trigger_type'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ schedule_pattern: null, next_run_at: null, trigger_type: 'Manual' });

    // The schedule chosen before is kept: back to Scheduled, it runs on it again.
    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}`, {
        scheduleFrequencyType: 'Scheduled',
        scheduleFrequencyDetails: { type: 'Scheduled', frequency: 'Week', weekDay: 'Monday', time: '09:00' },
      }),
    );
    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}`, {
        trigger: { ...definition.trigger, type: 'Manual' },
      }),
    );
    expect(definition.nextRunAt).toBeNull();
    definition = ok(
      await api<AutomationDefinition>(t, cookie, 'PUT', `${BASE}/${id}`, {
        trigger: { ...definition.trigger, type: 'Schedule' },
      }),
    );
    // The trigger is fine again: only the (unconfigured) step's own error remains.
    expect(definition.error ?? '').toMatch(/^Step "Notify": /);
    expect(definition).toMatchObject({
      syncScheduleFrequencyType: 'Scheduled',
      scheduleFrequency: '0 9 * * 1',
      nextRunAt: '2026-03-09T09:00:00.000Z',
    });
  });

  it('show a step of a kind that is not available as an error, without failing', async () => {
    const { t, a } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const { id } = await createAutomation(t, cookie, 'Old kinds');
    const step = await addStep(t, cookie, id, { kind: 'Notify', name: 'Retired' });
    // A kind no longer (or not yet) in the registry, as an older row could hold.
    await t.deps.db.updateTable('automation_steps').set({ kind: 'FaxPage' }).where('id', '=', step.id).execute();
    const definition = ok(await api<AutomationDefinition>(t, cookie, 'GET', `${BASE}/${id}`));
    expect(definition.steps[0]?.error).toBe('This step kind is not available.');
    expect(definition.error).toBe('Step "Retired": This step kind is not available.');
    expect(ok(await api<AutomationListItem[]>(t, cookie, 'GET', BASE))[0]?.error).toBe(definition.error);
    expect(ok(await api(t, cookie, 'GET', `${BASE}/${id}/steps/${step.id}/input-options`))).toMatchObject({
      integrations: [],
      inputs: {},
    });
    const preview = await api<{ message: string }>(t, cookie, 'GET', `${BASE}/${id}/steps/${step.id}/preview`);
    expect(preview.status).toBe(400);
    expect(preview.body.message).toBe('This step kind is not available.');
    // It can still be renamed and removed.
    ok(await api(t, cookie, 'PUT', `${BASE}/${id}/steps/${step.id}/name`, { value: 'Gone soon' }));
    expect(names(ok(await api<AutomationDefinition>(t, cookie, 'DELETE', `${BASE}/${id}/steps/${step.id}`)))).toEqual(
      [],
    );
  });

  it("answer 404 for another account's ids and refuse read_only members", async () => {
    const { t, a, b } = await appWithTwoTeams();
    const own = await createAutomation(t, a.owner.cookie, 'Private to A');
    const step = await addStep(t, a.owner.cookie, own.id, { kind: 'Notify', name: 'A step' });
    const paths: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', `${BASE}/${own.id}`],
      ['PUT', `${BASE}/${own.id}`, { name: 'Taken' }],
      ['GET', `${BASE}/${own.id}/preview-initial-data`],
      ['POST', `${BASE}/${own.id}/steps`, { kind: 'Notify' }],
      ['PUT', `${BASE}/${own.id}/steps/${step.id}/name`, { value: 'Taken' }],
      ['PUT', `${BASE}/${own.id}/steps/${step.id}/integration`, { value: null }],
      ['PUT', `${BASE}/${own.id}/steps/${step.id}/input/title`, { value: 'x' }],
      ['PUT', `${BASE}/${own.id}/steps/${step.id}/position`, { position: 0 }],
      ['PUT', `${BASE}/${own.id}/steps/${step.id}/policy`, { attempts: 1 }],
      ['GET', `${BASE}/${own.id}/steps/${step.id}/preview`],
      ['GET', `${BASE}/${own.id}/steps/${step.id}/input-options`],
      ['DELETE', `${BASE}/${own.id}/steps/${step.id}`],
      ['DELETE', `${BASE}/${own.id}`],
    ];
    for (const [method, url, body] of paths) {
      const res = await api<{ message: string }>(t, b.owner.cookie, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect(ok(await api<AutomationListItem[]>(t, b.owner.cookie, 'GET', BASE))).toEqual([]);
    const other = await trpcQuery<TrpcError>(t, 'automations.get', { id: own.id }, b.owner.cookie);
    expect(other.body.error.data.code).toBe('NOT_FOUND');

    // A read_only member of A reads but changes nothing.
    const reader = a.readOnly.cookie;
    expect(ok(await api<AutomationDefinition>(t, reader, 'GET', `${BASE}/${own.id}`)).name).toBe('Private to A');
    expect((await api(t, reader, 'POST', BASE, { name: 'Mine' })).status).toBe(403);
    for (const [method, url, body] of paths.filter(([m]) => m !== 'GET')) {
      const res = await api(t, reader, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    const refused = await trpcMutation<TrpcError>(t, 'automations.create', { name: 'Mine' }, reader);
    expect(refused.body.error.data.code).toBe('FORBIDDEN');

    const after = ok(await api<AutomationDefinition>(t, a.owner.cookie, 'GET', `${BASE}/${own.id}`));
    expect(after.name).toBe('Private to A');
    expect(names(after)).toEqual(['A step']);
  });

  it('are the same over tRPC, every mutation answering the whole definition', async () => {
    const { t, a } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const created = trpcOk(
      await trpcMutation<TrpcData<AutomationDefinition>>(t, 'automations.create', { name: 'Over tRPC' }, cookie),
    );
    expect(created).toMatchObject({ name: 'Over tRPC', description: '', steps: [] });
    const { id } = created;
    const added = trpcOk(
      await trpcMutation<TrpcData<AutomationDefinition & { stepId: string }>>(
        t,
        'automations.addStep',
        { id, kind: 'Notify', name: 'One' },
        cookie,
      ),
    );
    expect(added.steps.map((s) => s.id)).toEqual([added.stepId]);
    const two = trpcOk(
      await trpcMutation<TrpcData<AutomationDefinition & { stepId: string }>>(
        t,
        'automations.addStep',
        { id, kind: 'Notify', name: 'Two', position: 0 },
        cookie,
      ),
    );
    expect(names(two)).toEqual(['Two', 'One']);
    const mutations: [string, Record<string, unknown>, (d: AutomationDefinition) => void][] = [
      ['automations.update', { id, description: 'Changed' }, (d) => expect(d.description).toBe('Changed')],
      [
        'automations.renameStep',
        { id, stepId: added.stepId, value: 'Uno' },
        (d) => expect(names(d)).toEqual(['Two', 'Uno']),
      ],
      [
        'automations.moveStep',
        { id, stepId: added.stepId, position: 0 },
        (d) => expect(names(d)).toEqual(['Uno', 'Two']),
      ],
      [
        'automations.setStepPolicy',
        { id, stepId: added.stepId, attempts: 1 },
        (d) => expect(d.steps[0]?.policy.attempts).toBe(1),
      ],
      [
        'automations.setStepIntegration',
        { id, stepId: added.stepId, value: null },
        (d) => expect(d.steps[0]?.integration).toBeNull(),
      ],
      ['automations.removeStep', { id, stepId: two.stepId }, (d) => expect(names(d)).toEqual(['Uno'])],
    ];
    for (const [procedure, input, check] of mutations) {
      const answer = trpcOk(await trpcMutation<TrpcData<AutomationDefinition>>(t, procedure, input, cookie));
      expect(answer.id, procedure).toBe(id);
      check(answer);
    }
    const got = trpcOk(await trpcQuery<TrpcData<AutomationDefinition>>(t, 'automations.get', { id }, cookie));
    expect(got).toMatchObject({ description: 'Changed', steps: [{ name: 'Uno' }] });
    const list = trpcOk(await trpcQuery<TrpcData<AutomationListItem[]>>(t, 'automations.list', undefined, cookie));
    expect(list.map((i) => i.id)).toEqual([id]);
    const data = trpcOk(
      await trpcQuery<TrpcData<Record<string, unknown>>>(t, 'automations.previewInitialData', { id }, cookie),
    );
    expect(data).toMatchObject({ type: 'Manual', userId: a.owner.userId });
    trpcOk(await trpcMutation<TrpcData<unknown>>(t, 'automations.remove', { id }, cookie));
    expect(trpcOk(await trpcQuery<TrpcData<AutomationListItem[]>>(t, 'automations.list', undefined, cookie))).toEqual(
      [],
    );
  });
});
