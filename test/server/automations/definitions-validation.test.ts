/**
 * A definition's error and each step's, computed from its trigger and steps with the real step
 * kinds (HTTP request against a real local API, Check data on a synced Sample data integration):
 * a missing or wrong integration, the kind's own check, placeholders naming a later step or an
 * output the kind lacks, an AfterSync trigger without its integration. Input options, step
 * previews (placeholders resolved against the trigger's sample data, earlier outputs unresolved),
 * preview-initial-data from the last completed sync, and the list's last run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type {
  AutomationDefinition,
  AutomationListItem,
  AutomationStep,
  StepInputOptions,
  StepKindInfo,
  StepPreview,
} from '../../../src/shared/automations';
import {
  automationDefinitionAnswerSchema,
  automationListItemAnswerSchema,
  automationStepAnswerSchema,
  stepInputOptionsAnswerSchema,
  stepPreviewAnswerSchema,
  triggerDataAnswerSchema,
} from '../../../src/shared/automations-api';
import { call, makeApp, me, signIn, trpcQuery, type TestApp, type TrpcData } from '../helpers';
import {
  createIntegration,
  definitionNamed,
  sampleIntegration,
  selectDatasets,
  syncNow,
} from '../integrations/helpers';
import { startApi, type ApiPeer } from '../integrations/peers/http-api';
import { ok, trpcOk } from '../static-tables/helpers';
import { endedRun, triggerRun } from './runs-helpers';

const BASE = '/api/automations/definitions';
const OWNER = 'owner@example.com';
let peer: ApiPeer | undefined;

afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const api = <T>(t: TestApp, cookie: string, method: Method, url: string, body?: unknown) =>
  call<T>(t.server, method, url, { cookie, ...(body === undefined ? {} : { body }) });

/** An app with a REST API integration on a real local API and a Sample data one. */
async function setUp() {
  peer = await startApi({ '/v1/ping': () => ({ body: [{ id: 1 }] }) });
  const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true', SIGNUP: 'open' });
  const cookie = await signIn(t, OWNER);
  const restDefinition = await definitionNamed(t, cookie, 'REST API');
  const rest = ok(
    await createIntegration(t, cookie, {
      integrationDefinitionId: restDefinition.id,
      name: 'Hooks',
      schemaName: 'hooks',
      configuration: {
        base_url: `${peer.baseUrl}/v1`,
        streams: [{ name: 'ping', path: '/ping' }],
        authentication: { type: 'none' },
        max_tries: 1,
      },
    }),
    201,
  );
  const sample = await sampleIntegration(t, cookie, 'Shop');
  await t.services.integrations.idle();
  return { t, cookie, restId: rest.id, sampleId: sample.id };
}

async function create(t: TestApp, cookie: string, name: string): Promise<AutomationDefinition> {
  return automationDefinitionAnswerSchema.parse(
    ok(await api<AutomationDefinition>(t, cookie, 'POST', BASE, { name }), 201),
  ) as AutomationDefinition;
}

async function addStep(t: TestApp, cookie: string, id: string, body: Record<string, unknown>): Promise<AutomationStep> {
  const step = ok(await api<AutomationStep>(t, cookie, 'POST', `${BASE}/${id}/steps`, body), 201);
  automationStepAnswerSchema.parse(step);
  return step;
}

async function put(t: TestApp, cookie: string, url: string, body: unknown): Promise<AutomationDefinition> {
  const definition = ok(await api<AutomationDefinition>(t, cookie, 'PUT', url, body));
  automationDefinitionAnswerSchema.parse(definition);
  return definition;
}

const stepError = (d: AutomationDefinition, stepId: string) => d.steps.find((s) => s.id === stepId)?.error;

describe('automation definition errors', () => {
  it('come from the step kinds, their integrations, placeholders and the trigger', async () => {
    const { t, cookie, restId, sampleId } = await setUp();
    const { id } = await create(t, cookie, 'Validated');
    const first = await addStep(t, cookie, id, { kind: 'HttpRequest' });
    expect(first).toMatchObject({ name: 'HTTP request', inputs: { method: 'POST' } });
    expect(first.error).toBe('Choose an integration for this step.');
    let definition = ok(await api<AutomationDefinition>(t, cookie, 'GET', `${BASE}/${id}`));
    expect(definition.error).toBe('Step "HTTP request": Choose an integration for this step.');

    // The Sample data integration is not a REST API one.
    definition = await put(t, cookie, `${BASE}/${id}/steps/${first.id}/integration`, { value: sampleId });
    expect(definition.steps[0]?.integration).toEqual({ id: sampleId, name: 'Shop' });
    expect(stepError(definition, first.id)).toBe('The integration "Shop" cannot be used by this step.');

    // The kind's own check.
    definition = await put(t, cookie, `${BASE}/${id}/steps/${first.id}/integration`, { value: restId });
    expect(stepError(definition, first.id)).toBe('Path is required.');
    definition = await put(t, cookie, `${BASE}/${id}/steps/${first.id}/input/path`, {
      value: '/ping?who={{trigger.userName}}&run={{run.number}}',
    });
    expect(definition.steps[0]?.inputs).toEqual({
      method: 'POST',
      path: '/ping?who={{trigger.userName}}&run={{run.number}}',
    });
    expect(definition.error).toBeNull();
    expect(stepError(definition, first.id)).toBeNull();

    // A placeholder of a step that comes later, then of an output the kind does not have.
    const second = await addStep(t, cookie, id, {
      kind: 'HttpRequest',
      name: 'Report status',
      integrationId: restId,
      inputs: { path: `/ping?status={{steps.${first.id}.status}}` },
      position: 0,
    });
    expect(second.error).toBe(`{{steps.${first.id}.status}} refers to a step that does not come before this one.`);
    definition = await put(t, cookie, `${BASE}/${id}/steps/${second.id}/position`, { position: 1 });
    expect(definition.steps.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(definition.error).toBeNull();
    definition = await put(t, cookie, `${BASE}/${id}/steps/${second.id}/input/path`, {
      value: `/ping?rows={{steps.${first.id}.rowCount}}`,
    });
    expect(stepError(definition, second.id)).toBe(
      `{{steps.${first.id}.rowCount}}: the step "HTTP request" has no such output.`,
    );
    expect(definition.error).toBe(
      `Step "Report status": {{steps.${first.id}.rowCount}}: the step "HTTP request" has no such output.`,
    );
    // A trigger field of another trigger type is not known either.
    definition = await put(t, cookie, `${BASE}/${id}/steps/${second.id}/input/path`, {
      value: '/ping?run={{trigger.syncRunId}}',
    });
    expect(stepError(definition, second.id)).toBe('{{trigger.syncRunId}} is not a known placeholder.');

    // With an AfterSync trigger the same placeholder is fine; the trigger needs its integration.
    definition = await put(t, cookie, `${BASE}/${id}`, {
      trigger: { type: 'AfterSync', integrationId: null, onlyWithNewRows: true },
    });
    expect(definition.error).toBe('Choose the integration whose sync starts this automation.');
    expect(stepError(definition, second.id)).toBeNull();
    // The first step's {{trigger.userName}} is a Manual field: now it is the error.
    expect(stepError(definition, first.id)).toBe('{{trigger.userName}} is not a known placeholder.');
    definition = await put(t, cookie, `${BASE}/${id}/steps/${first.id}/input/path`, { value: '/ping' });
    definition = await put(t, cookie, `${BASE}/${id}`, {
      trigger: { type: 'AfterSync', integrationId: sampleId, onlyWithNewRows: true },
    });
    expect(definition.trigger).toEqual({
      type: 'AfterSync',
      schedule: null,
      integrationId: sampleId,
      onlyWithNewRows: true,
    });
    expect(definition.error).toBeNull();
    expect(definition.syncScheduleFrequencyType).toBe('Manual');

    // An input the kind does not have is refused; a removed integration leaves the step in error.
    const unknown = await api<{ message: string }>(t, cookie, 'PUT', `${BASE}/${id}/steps/${first.id}/input/nope`, {
      value: 1,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('This step has no input "nope".');
    ok(await api(t, cookie, 'DELETE', `/api/integrations/${restId}`), 204);
    definition = ok(await api<AutomationDefinition>(t, cookie, 'GET', `${BASE}/${id}`));
    expect(definition.steps[0]?.integration).toBeNull();
    expect(definition.error).toBe('Step "HTTP request": Choose an integration for this step.');
    const list = ok(await api<AutomationListItem[]>(t, cookie, 'GET', BASE));
    expect(list[0]?.error).toBe(definition.error);
  });

  it("refuse another account's integration as a step's or trigger's", async () => {
    const { t, cookie, sampleId } = await setUp();
    const other = await signIn(t, 'other@example.com');
    const { id } = await create(t, other, 'Elsewhere');
    const step = await addStep(t, other, id, { kind: 'HttpRequest' });
    expect((await api(t, other, 'PUT', `${BASE}/${id}/steps/${step.id}/integration`, { value: sampleId })).status).toBe(
      404,
    );
    expect(
      (await api(t, other, 'POST', `${BASE}/${id}/steps`, { kind: 'HttpRequest', integrationId: sampleId })).status,
    ).toBe(404);
    expect(
      (
        await api(t, other, 'PUT', `${BASE}/${id}`, {
          trigger: { type: 'AfterSync', integrationId: sampleId, onlyWithNewRows: false },
        })
      ).status,
    ).toBe(404);
    // The owner's own automations are untouched and unseen.
    expect(ok(await api<AutomationListItem[]>(t, cookie, 'GET', BASE))).toEqual([]);
  });
});

describe('input options, previews and the list', () => {
  it('offer the integrations the kind accepts, its inputs and the placeholders before the step', async () => {
    const { t, cookie, restId } = await setUp();
    const { id } = await create(t, cookie, 'Options');
    const first = await addStep(t, cookie, id, {
      kind: 'HttpRequest',
      integrationId: restId,
      inputs: { path: '/ping' },
    });
    const second = await addStep(t, cookie, id, { kind: 'HttpRequest', integrationId: restId });
    const options = stepInputOptionsAnswerSchema.parse(
      ok(await api<StepInputOptions>(t, cookie, 'GET', `${BASE}/${id}/steps/${second.id}/input-options`)),
    );
    expect(options.integrations).toEqual([{ value: restId, label: 'Hooks' }]);
    expect(options.inputs.method?.map((o) => o.value)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    const placeholders = options.placeholders.map((p) => p.value);
    expect(placeholders).toEqual(
      expect.arrayContaining([
        '{{trigger.userName}}',
        `{{steps.${first.id}.status}}`,
        `{{steps.${first.id}.body}}`,
        '{{run.id}}',
        '{{run.number}}',
        '{{automation.name}}',
      ]),
    );
    expect(options.placeholders.find((p) => p.value === `{{steps.${first.id}.status}}`)).toEqual({
      value: `{{steps.${first.id}.status}}`,
      label: 'HTTP request: Status code',
      group: 'Steps',
    });
    expect(placeholders.some((p) => p.includes(second.id))).toBe(false);
    expect(placeholders).not.toContain('{{trigger.syncRunId}}');
    // The first step sees no step outputs at all; over tRPC too.
    const firstOptions = trpcOk(
      await trpcQuery<TrpcData<StepInputOptions>>(t, 'automations.inputOptions', { id, stepId: first.id }, cookie),
    );
    expect(firstOptions.placeholders.filter((p) => p.group === 'Steps')).toEqual([]);

    const kinds = trpcOk(await trpcQuery<TrpcData<StepKindInfo[]>>(t, 'automations.stepKinds', undefined, cookie));
    expect(kinds.find((k) => k.kind === 'HttpRequest')).toMatchObject({
      label: 'HTTP request',
      integrationConnectors: ['rest-api'],
      sideEffects: true,
    });
  });

  it('preview a step with the sample trigger data, listing earlier outputs as unresolved, without sending', async () => {
    const { t, cookie, restId } = await setUp();
    const { id } = await create(t, cookie, 'Previewed');
    const first = await addStep(t, cookie, id, {
      kind: 'HttpRequest',
      integrationId: restId,
      inputs: { path: '/ping' },
    });
    const second = await addStep(t, cookie, id, {
      kind: 'HttpRequest',
      integrationId: restId,
      inputs: { method: 'GET', path: `/ping?who={{trigger.userName}}&status={{steps.${first.id}.status}}` },
    });
    const sentBefore = peer?.requests.length;
    const preview = stepPreviewAnswerSchema.parse(
      ok(await api<StepPreview>(t, cookie, 'GET', `${BASE}/${id}/steps/${second.id}/preview`)),
    );
    expect(preview.summary).toContain('GET');
    const { name } = await me(t, cookie);
    expect(name).not.toBe('');
    expect(String(preview.details?.url)).toContain(`who=${encodeURIComponent(name)}&status=`);
    expect(preview.unresolved).toEqual([`steps.${first.id}.status`]);
    expect(peer?.requests.length).toBe(sentBefore);

    // A step in error has no preview: its error says why.
    const broken = await addStep(t, cookie, id, { kind: 'HttpRequest', integrationId: restId });
    const refused = await api<{ message: string }>(t, cookie, 'GET', `${BASE}/${id}/steps/${broken.id}/preview`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Path is required.');
  });

  it("give the trigger's data: the caller for Manual, the last completed sync for AfterSync", async () => {
    const { t, cookie, sampleId } = await setUp();
    const { id } = await create(t, cookie, 'Trigger data');
    const manual = triggerDataAnswerSchema.parse(ok(await api(t, cookie, 'GET', `${BASE}/${id}/preview-initial-data`)));
    expect(manual).toMatchObject({ type: 'Manual', userName: expect.any(String), at: t.clock.now().toISOString() });

    await put(t, cookie, `${BASE}/${id}`, {
      trigger: { type: 'AfterSync', integrationId: sampleId, onlyWithNewRows: false },
    });
    const before = ok(await api<Record<string, unknown>>(t, cookie, 'GET', `${BASE}/${id}/preview-initial-data`));
    expect(before).toMatchObject({
      type: 'AfterSync',
      integrationId: sampleId,
      integrationName: 'Shop',
      syncRunId: '',
    });

    await selectDatasets(t, cookie, sampleId, { orders: {} });
    const run = await syncNow(t, cookie, sampleId);
    const after = ok(await api<Record<string, unknown>>(t, cookie, 'GET', `${BASE}/${id}/preview-initial-data`));
    expect(after).toMatchObject({
      type: 'AfterSync',
      integrationId: sampleId,
      integrationName: 'Shop',
      syncRunId: run.id,
      status: 'Completed',
    });
    expect(after.recordsProcessed).toBeGreaterThan(0);
    expect(after.datasets).toEqual([{ name: 'orders', recordsProcessed: expect.any(Number) }]);

    await put(t, cookie, `${BASE}/${id}`, {
      scheduleFrequencyType: 'Scheduled',
      scheduleFrequencyDetails: { type: 'Scheduled', cron: '0 12 * * *' },
    });
    const scheduled = ok(await api<Record<string, unknown>>(t, cookie, 'GET', `${BASE}/${id}/preview-initial-data`));
    expect(scheduled).toMatchObject({ type: 'Schedule', scheduledFor: '2026-03-04T12:00:00.000Z' });
  });

  it('shows each automation with its last run', async () => {
    const { t, cookie, restId } = await setUp();
    const { id } = await create(t, cookie, 'Runs');
    await addStep(t, cookie, id, {
      kind: 'HttpRequest',
      integrationId: restId,
      inputs: { method: 'GET', path: '/ping' },
    });
    await create(t, cookie, 'Never run');
    const started = await triggerRun(t, cookie, id);
    const ended = await endedRun(t, cookie, started.id);
    expect(ended.status).toBe('Completed');
    const list = ok(await api<AutomationListItem[]>(t, cookie, 'GET', BASE)).map((i) =>
      automationListItemAnswerSchema.parse(i),
    );
    expect(list.map((i) => [i.name, i.lastRun?.id ?? null])).toEqual([
      ['Never run', null],
      ['Runs', started.id],
    ]);
    expect(list[1]?.lastRun).toEqual({
      id: started.id,
      status: 'Completed',
      startedAt: ended.startedAt,
      durationInSeconds: expect.any(Number),
    });
  });
});
