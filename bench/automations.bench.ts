// Sizes libuv's thread pool as main.ts does; must stay the first import (see threadpool.ts).
import '../src/server/warehouse/threadpool-init';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AutomationHubMessage, AutomationRun, AutomationRunDetail } from '../src/shared/automations';
import type { Integration, IntegrationDefinition } from '../src/shared/integrations';
import type { AccountContext } from '../src/server/context';
import { resolveAccountContext } from '../src/server/modules/accounts/access';
import { stepKind } from '../src/server/modules/automations/step-kinds';
import type { StepRunEnv } from '../src/server/modules/automations/step-kind';
import { Client, signIn } from '../test/crash/client';
import { startServer as startProcess } from '../test/crash/server-process';
import {
  insertHttpAutomation,
  receiverConfiguration,
  startReceiver,
  type HttpAutomation,
  type Receiver,
} from '../test/crash/automation-peers';
import { median } from './lib/measure';
import { requestJson, startServer, type BenchServer } from './lib/server';

/**
 * Automations (issue "Automations", Benchmark). A 10-step automation of HTTP request steps against
 * a local server, run BENCH_AUTOMATION_RUNS (100) times, one at a time, alternating with the same
 * 10 requests made directly in the same process (plain HTTP with the same headers and body; and
 * the HTTP request step's own run() called without the runner): the runner's overhead per step is
 * the difference, divided by 10 (target < 5 ms). Then as many runs queued at once on separate
 * definitions: runs per minute at the configured concurrency. Then the real server process is
 * killed (SIGKILL) BENCH_AUTOMATION_KILLS (20) times while runs go on and restarted each time:
 * every run must end Completed, or Failed with a reason, and no step's effect may happen twice
 * (the receiver deduplicates and counts Idempotency-Keys). Writes bench/results/automations.json.
 */
const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const STEPS = 10;
const RUNS = envInt('BENCH_AUTOMATION_RUNS', 100);
/** 0 skips the kill part (profiling the runner alone). */
const KILLS = process.env.BENCH_AUTOMATION_KILLS === '0' ? 0 : envInt('BENCH_AUTOMATION_KILLS', 20);
const TARGET_MS_PER_STEP = 5;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function restIntegration(server: BenchServer, receiver: Receiver): Promise<string> {
  const definitions = await requestJson<IntegrationDefinition[]>(
    server.baseUrl,
    server.cookie,
    'GET',
    '/api/integration_definitions',
  );
  const rest = definitions.find((d) => d.name === 'REST API');
  if (!rest) throw new Error('No REST API definition');
  const integration = await requestJson<Integration>(server.baseUrl, server.cookie, 'POST', '/api/integrations', {
    integrationDefinitionId: rest.id,
    name: 'Receiver',
    schemaName: 'receiver',
    configuration: receiverConfiguration(receiver.baseUrl),
  });
  return integration.id;
}

/** Resolves each run's end from the automations hub, as the client hears it. */
function runEnds(server: BenchServer) {
  const waiting = new Map<string, (message: AutomationHubMessage) => void>();
  const ended = new Map<string, AutomationHubMessage>();
  server.app.deps.hubs.add({
    id: 'bench-watcher',
    hub: 'automations',
    userId: 'bench',
    accountId: server.accountId,
    sessionHash: 'bench',
    send(record) {
      // Step progress is most of the traffic; only a run's end matters here.
      if (record.includes('"stepProgress"')) return;
      const message = JSON.parse(record.slice(0, -1)) as { target: string; arguments: [AutomationHubMessage] };
      if (!['completed', 'failed', 'cancelled'].includes(message.target)) return;
      const run = message.arguments[0];
      ended.set(run.runId, run);
      waiting.get(run.runId)?.(run);
    },
    close: () => undefined,
  });
  return (runId: string) =>
    new Promise<AutomationHubMessage>((resolve) => {
      const done = ended.get(runId);
      if (done) return resolve(done);
      waiting.set(runId, resolve);
    });
}

const agent = new http.Agent({ keepAlive: true });

/** The step's request made directly: POST with the same Idempotency-Key and JSON body shape. */
function directRequest(receiver: Receiver, step: number, key: string): Promise<void> {
  const body = JSON.stringify({ step, run: key });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${receiver.baseUrl}/effects/s${step}`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'idempotency-key': key,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The HTTP request step's run() for each step, without the runner (no claim, no rows, no logs). */
async function directKindRuns(server: BenchServer, ctx: AccountContext, automation: HttpAutomation, round: number) {
  const kind = stepKind('HttpRequest');
  if (!kind) throw new Error('The HTTP request step is not registered');
  const { deps } = server.app;
  const steps = await deps.db
    .selectFrom('automation_steps')
    .selectAll()
    .where('definition_id', '=', automation.definitionId)
    .orderBy('position')
    .execute();
  const runId = `direct-${round}`;
  for (const step of steps) {
    const key = `${runId}:${step.id}:1`;
    const env: StepRunEnv = {
      deps,
      services: server.app.services,
      ctx,
      run: { id: runId, number: round, definitionId: automation.definitionId, name: 'direct', startedAt: '' },
      stepId: step.id,
      attempt: 1,
      idempotencyKey: key,
      signal: new AbortController().signal,
      log: () => Promise.resolve(),
      progress: () => undefined,
      // The effect is made, not recorded: recording is the runner's part of the cost.
      once: async (_key, effect) => ({ done: true, result: await effect(), repeated: false }),
    };
    const inputs = JSON.parse(step.inputs) as Record<string, string>;
    await kind.run(env, {
      id: step.id,
      name: step.name,
      kind: 'HttpRequest',
      integrationId: step.integration_id,
      inputs: { ...inputs, body: JSON.stringify({ step: 1, run: runId }) },
    });
  }
}

async function overheadAndThroughput(receiver: Receiver) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-automations-'));
  const server = await startServer(dataDir, { CONNECTOR_PRIVATE_NETWORKS: 'true' });
  try {
    const integrationId = await restIntegration(server, receiver);
    const user = await server.app.deps.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    const ctx = await resolveAccountContext(server.app.deps, user);
    const owner = { accountId: server.accountId, userId: user.id };
    const ended = runEnds(server);
    const runs = server.app.services.automationRuns;
    const automation = insertHttpAutomation(dataDir, owner, integrationId, STEPS, 'Bench chain');

    const runOnce = async () => {
      const run = await runs.trigger(ctx, automation.definitionId);
      const end = await ended(run.id);
      if (end.status !== 'Completed') throw new Error(`Run ${run.id} ended ${end.status}: ${end.error}`);
    };
    let directCount = 0;
    const directOnce = async () => {
      directCount += 1;
      for (let s = 1; s <= STEPS; s++) await directRequest(receiver, s, `plain-${directCount}:${s}`);
    };
    let kindCount = 0;
    const kindOnce = () => directKindRuns(server, ctx, automation, (kindCount += 1));

    log(`Warming up; then ${RUNS} runs of ${STEPS} steps, each followed by the same requests made directly`);
    for (let i = 0; i < 3; i++) {
      await runOnce();
      await directOnce();
      await kindOnce();
    }
    const times = { runner: [] as number[], direct: [] as number[], kind: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      for (const [side, work] of [
        ['runner', runOnce],
        ['direct', directOnce],
        ['kind', kindOnce],
      ] as const) {
        const start = performance.now();
        await work();
        times[side].push(performance.now() - start);
      }
    }
    const perStep = (ms: number) => ms / STEPS;
    const runnerMs = median(times.runner);
    const directMs = median(times.direct);
    const kindMs = median(times.kind);

    // Throughput: RUNS definitions, one run each, queued at once.
    const concurrency = server.config.automations.concurrency;
    const many = Array.from({ length: RUNS }, (_, i) =>
      insertHttpAutomation(dataDir, owner, integrationId, STEPS, `Bench ${i}`),
    );
    log(`${RUNS} runs queued at once at concurrency ${concurrency}`);
    const start = performance.now();
    const queued: AutomationRun[] = [];
    for (const definition of many) queued.push(await runs.trigger(ctx, definition.definitionId));
    const ends = await Promise.all(queued.map((r) => ended(r.id)));
    const seconds = (performance.now() - start) / 1000;
    const completed = ends.filter((e) => e.status === 'Completed').length;
    return {
      runs: RUNS,
      steps: STEPS,
      runnerMsPerRun: round(runnerMs),
      directHttpMsPerRun: round(directMs),
      directStepKindMsPerRun: round(kindMs),
      overheadMsPerStep: round(perStep(runnerMs - directMs)),
      overheadMsPerStepVsStepKind: round(perStep(runnerMs - kindMs)),
      targetMsPerStep: TARGET_MS_PER_STEP,
      meetsTarget: perStep(runnerMs - directMs) < TARGET_MS_PER_STEP,
      throughput: {
        concurrency,
        runs: RUNS,
        completed,
        seconds: round(seconds),
        runsPerMinute: round((RUNS / seconds) * 60, 1),
      },
    };
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function killAndRestart(receiver: Receiver) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-automations-kill-'));
  const env = { AUTOMATION_LEASE_SECONDS: '1', CONNECTOR_PRIVATE_NETWORKS: 'true' };
  const client = new Client(await startProcess(dataDir, env));
  try {
    await signIn(client, 'bench@example.com');
    const me = await client.ok<{ id: string; currentAccountId: string }>('GET', '/api/me');
    const owner = { accountId: me.currentAccountId, userId: me.id };
    const definitions = await client.ok<IntegrationDefinition[]>('GET', '/api/integration_definitions');
    const rest = definitions.find((d) => d.name === 'REST API');
    if (!rest) throw new Error('No REST API definition');
    const integration = await client.ok<Integration>(
      'POST',
      '/api/integrations',
      {
        integrationDefinitionId: rest.id,
        name: 'Receiver',
        schemaName: 'receiver',
        configuration: receiverConfiguration(receiver.baseUrl),
      },
      201,
    );
    const automations = Array.from({ length: 4 }, (_, i) =>
      insertHttpAutomation(dataDir, owner, integration.id, STEPS, `Kill ${i}`),
    );
    const runIds: string[] = [];
    let startupMs = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      // Keep every definition busy: start a run of each one whose last run ended.
      for (const automation of automations) {
        const answer = await client.call<AutomationRun>(
          'POST',
          `/api/automations/definitions/${automation.definitionId}/trigger`,
        );
        if (answer.status === 200) runIds.push(answer.body.id);
      }
      await sleep(200 + Math.random() * 1_500);
      await client.server.kill();
      const started = performance.now();
      client.server = await startProcess(dataDir, env);
      startupMs += performance.now() - started;
      log(`kill ${kill}/${KILLS}: ${runIds.length} runs so far`);
    }
    const details: AutomationRunDetail[] = [];
    for (const runId of runIds) {
      for (;;) {
        const detail = await client.ok<AutomationRunDetail>('GET', `/api/automations/${runId}`);
        if (detail.endedAt) {
          details.push(detail);
          break;
        }
        await sleep(200);
      }
    }
    // Per run and step: the keys the receiver saw (a new key would be a second effect).
    const keysByStep = new Map<string, Set<string>>();
    let resent = 0;
    for (const [key, count] of receiver.received) {
      const [runId, stepId] = key.split(':');
      if (!runId || !runIds.includes(runId)) continue;
      const id = `${runId}:${stepId}`;
      keysByStep.set(id, (keysByStep.get(id) ?? new Set()).add(key));
      resent += count - 1;
    }
    const duplicateEffects = [...keysByStep.values()].filter((keys) => keys.size > 1).length;
    const failed = details.filter((d) => d.status === 'Failed');
    return {
      kills: KILLS,
      runs: details.length,
      completed: details.filter((d) => d.status === 'Completed').length,
      failed: failed.length,
      failedReasons: [...new Set(failed.map((d) => d.error))],
      endedOtherwise: details.filter((d) => d.status !== 'Completed' && d.status !== 'Failed').length,
      failedWithoutReason: failed.filter((d) => !d.error).length,
      stepsWithEffects: keysByStep.size,
      duplicateEffects,
      requestsResentWithSameKey: resent,
      meanRestartMs: round(startupMs / KILLS, 0),
    };
  } finally {
    await client.server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const receiver = await startReceiver(0);
const runner = await overheadAndThroughput(receiver);
log(
  `runner ${runner.runnerMsPerRun} ms/run, direct ${runner.directHttpMsPerRun} ms, step kind ${runner.directStepKindMsPerRun} ms: overhead ${runner.overheadMsPerStep} ms/step (vs the step kind alone ${runner.overheadMsPerStepVsStepKind}); ${runner.throughput.runsPerMinute} runs/min at concurrency ${runner.throughput.concurrency}`,
);
receiver.delayMs = 30;
const crash = KILLS > 0 ? await killAndRestart(receiver) : null;
log(`kills: ${JSON.stringify(crash)}`);
await receiver.close();
const ok =
  runner.meetsTarget &&
  crash !== null &&
  crash.endedOtherwise === 0 &&
  crash.failedWithoutReason === 0 &&
  crash.duplicateEffects === 0;
const out = path.join(import.meta.dirname, 'results', 'automations.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  `${JSON.stringify({ at: new Date().toISOString(), machine: { cpus: os.cpus().length }, runner, crash, ok }, null, 2)}\n`,
);
log(`Wrote ${out}`);
process.exit(ok ? 0 : 1);
