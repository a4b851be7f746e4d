import { afterEach, describe, expect, it } from 'vitest';
import type { Paged } from '../../../src/shared/tables';
import type { Job } from '../integrations/helpers';
import {
  api,
  createIntegration,
  definitionNamed,
  ok,
  sampleIntegration,
  selectDatasets,
} from '../integrations/helpers';
import { startApi, type ApiPeer } from '../integrations/peers/http-api';
import { appWithTeam } from '../static-tables/helpers';
import { makeApp, makeTeam, signIn } from '../helpers';
import type { Run } from '../../../src/shared/integrations';
import { configured, definitionAndRun, failureOf, kindOf, runEnv } from './steps-data-env';

const sync = kindOf('SyncIntegration');

const peers: ApiPeer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close().catch(() => undefined)));
});

async function jobsOf(t: Parameters<typeof api>[0], cookie: string, id: string): Promise<Job[]> {
  return ok(await api<Paged<Job>>(t, cookie, 'GET', `/api/integrations/${id}/jobs?Page=1&PageSize=50`)).data;
}

describe('Sync integration step', () => {
  it('syncs the chosen datasets (or the selected ones), waits for the end, waits for a sync already running, and cancels its sync when stopped', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    await selectDatasets(t, cookie, integration.id, {
      customers: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
      orders: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await definitionAndRun(t, team.accountId, team.owner.userId);
    const { env, logs } = await runEnv(t, team.accountId, team.owner.userId, run);

    expect(sync.validate(configured('SyncIntegration', {}))).toBe('Choose the integration to sync.');
    const options = await sync.inputOptions(env, configured('SyncIntegration', {}, integration.id));
    expect(options.datasets?.sort((a, b) => a.value.localeCompare(b.value))).toEqual([
      { value: 'customers', label: 'customers' },
      { value: 'orders', label: 'orders' },
      { value: 'products', label: 'products (not selected)' },
    ]);
    const preview = await sync.preview(env, configured('SyncIntegration', { datasets: ['orders'] }, integration.id));
    expect(preview.summary).toBe('Would sync orders of Shop.');
    expect(await jobsOf(t, cookie, integration.id)).toEqual([]); // the preview started nothing

    // Only orders, waited for to its end.
    const onlyOrders = await sync.run(env, configured('SyncIntegration', { datasets: ['orders'] }, integration.id));
    expect(onlyOrders.status).toBe('Completed');
    expect(onlyOrders.recordsProcessed).toBeGreaterThan(1900);
    const [job] = await jobsOf(t, cookie, integration.id);
    expect(job?.id).toBe(onlyOrders.syncRunId);
    expect(job?.attempts[0]?.progress.datasets.map((d) => d.name)).toEqual(['orders']);
    expect(job?.kind).toBe('Sync');

    // None chosen, full refresh: the selected datasets start over.
    const all = await sync.run(env, configured('SyncIntegration', { fullRefresh: true }, integration.id));
    const [refresh] = await jobsOf(t, cookie, integration.id);
    expect(refresh?.id).toBe(all.syncRunId);
    expect(refresh?.kind).toBe('FullRefresh');
    expect(refresh?.attempts[0]?.progress.datasets.map((d) => d.name)).toEqual(['customers', 'orders']);
    expect(all.recordsProcessed).toBe(refresh?.recordsProcessed);

    // A sync already running (409 for a new one): the step waits for it and answers its run.
    const running = ok(await api<Run>(t, cookie, 'POST', `/api/integrations/${integration.id}/trigger`));
    const waited = await sync.run(env, configured('SyncIntegration', {}, integration.id));
    expect(waited).toMatchObject({ syncRunId: running.id, status: 'Completed' });
    expect(logs.some((l) => l.message.startsWith('A sync of Shop is already running'))).toBe(true);

    // Stopped as soon as its sync started: the sync is cancelled, the step rejects with the reason.
    const stopped = await runEnv(t, team.accountId, team.owner.userId, run, 'step-2');
    const realLog = stopped.env.log;
    stopped.env.log = async (level, message) => {
      await realLog(level, message);
      if (message.startsWith('Started a sync')) stopped.controller.abort(new Error('Cancelled by a user.'));
    };
    await expect(sync.run(stopped.env, configured('SyncIntegration', {}, integration.id))).rejects.toThrow(
      'Cancelled by a user.',
    );
    await t.services.integrations.idle();
    const [cancelled] = await jobsOf(t, cookie, integration.id);
    expect(cancelled?.status).toBe('Cancelled');
    expect(stopped.logs.at(-1)?.message).toBe('The step was stopped: its sync was cancelled.');

    // A read_only member cannot start a sync.
    const reader = await runEnv(t, team.accountId, team.readOnly.userId, run, 'step-3');
    expect((await failureOf(sync.run(reader.env, configured('SyncIntegration', {}, integration.id)))).type).toBe(
      'ConfigError',
    );
  });

  it('a failed sync fails the step: TransientError when the source is unreachable, ConfigError when it refuses', async () => {
    // The source is a local peer: this server may reach private networks.
    const t = await makeApp({ SIGNUP: 'open', CONNECTOR_PRIVATE_NETWORKS: 'true' });
    await signIn(t, 'root@example.com');
    const team = await makeTeam(t);
    const cookie = team.owner.cookie;
    let answer: 'ok' | 'missing' = 'ok';
    const source = await startApi({
      '/items': () => (answer === 'ok' ? { body: [{ id: 1, name: 'a' }] } : { status: 404, body: { error: 'gone' } }),
    });
    peers.push(source);
    const definition = await definitionNamed(t, cookie, 'REST API');
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Items',
        schemaName: 'items',
        configuration: {
          base_url: source.baseUrl,
          streams: [{ name: 'items', path: '/items' }],
          max_tries: 1,
          backoff_base_ms: 10,
        },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, { items: {} });
    const run = await definitionAndRun(t, team.accountId, team.owner.userId);
    const { env } = await runEnv(t, team.accountId, team.owner.userId, run);
    const step = configured('SyncIntegration', {}, integration.id);
    expect(await sync.run(env, step)).toMatchObject({ status: 'Completed', recordsProcessed: 1 });

    answer = 'missing';
    const refused = await failureOf(sync.run(env, step));
    expect(refused.type).toBe('ConfigError');
    expect(refused.message).toMatch(/^The sync failed: items: .*404/);

    await source.close();
    const unreachable = await failureOf(sync.run(env, step));
    expect(unreachable.type).toBe('TransientError');
    expect(unreachable.message).toMatch(/^The sync failed: items: /);
  });
});
