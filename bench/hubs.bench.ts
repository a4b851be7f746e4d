/**
 * Hub fan-out (issue 14): 1,000 official-client connections, each signed in as its own user, in a
 * separate process; each round the server sends one notification to every user (toUser, once per
 * user, as notify() does) and the time from the first send to the last client receiving it is
 * measured. The same fan-out written with bare `ws` (a plain WebSocketServer in this process and
 * 1,000 plain clients in the same child) runs in the same run, rounds alternating, so machine load
 * touches both. Also: server memory per idle hub connection (heap + external, after GC).
 * Writes bench/results/hubs-files.json under `fanout` (the `download` key belongs to the files bench).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { WebSocketServer, type WebSocket } from 'ws';
import { buildApp } from '../src/server/app';
import { createSession } from '../src/server/auth/sessions';
import { loadConfig } from '../src/server/config';
import { insertUser } from '../src/server/modules/users/repo';
import { HUB_LIMITS } from '../src/shared/limits';
import type { FromClients, ToClients } from './lib/hub-clients';
import { median, otherCpuWatch } from './lib/measure';

const CONNECTIONS = Number(process.env.HUBS_BENCH_CONNECTIONS ?? 1_000);
const WARMUP_ROUNDS = 3;
const ROUNDS = 50;
const TARGETS = { p99Ms: 250, ratioToBareWs: 1.5, bytesPerIdleConnection: 50 * 1024 };

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function settledMemory(): number {
  for (let i = 0; i < 3; i += 1) gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Nearest-rank percentile. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-bench-hubs-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp(config, { logger: false });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${address.port}`;

  // One user and session each, written straight to the store (signing 1,000 users in by mail is not the point).
  const users: string[] = [];
  const cookies: string[] = [];
  for (let i = 0; i < CONNECTIONS; i += 1) {
    const user = await insertUser(app.deps.db, {
      email: `u${i}@bench.example`,
      name: '',
      roles: ['user'],
      now: new Date(),
    });
    users.push(user.id);
    cookies.push(`ws_session=${await createSession(app.deps, user.id, null)}`);
  }

  const child = fork(path.join(import.meta.dirname, 'lib', 'hub-clients.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((m: FromClients) => boolean)[] = [];
  child.on('message', (message: FromClients) => {
    const index = waiting.findIndex((accept) => accept(message));
    if (index >= 0) waiting.splice(index, 1);
  });
  child.on('exit', (code) => {
    if (code !== 0) {
      console.error(`The client process exited with ${String(code)}`);
      process.exit(1);
    }
  });
  const expect = <K extends FromClients['kind']>(
    kind: K,
    match: (m: Extract<FromClients, { kind: K }>) => boolean = () => true,
  ) =>
    new Promise<Extract<FromClients, { kind: K }>>((resolve) => {
      waiting.push((m) => {
        if (m.kind !== kind || !match(m as Extract<FromClients, { kind: K }>)) return false;
        resolve(m as Extract<FromClients, { kind: K }>);
        return true;
      });
    });
  const tell = (message: ToClients) => child.send(message);

  // Warm the server's paths (negotiate, upgrade, handshake) so first-use costs are not counted as memory.
  tell({ kind: 'hubs', base, cookies: cookies.slice(0, 20) });
  await expect('ready');
  tell({ kind: 'close-hubs' });
  await expect('closed');
  await pause(500);

  const before = settledMemory();
  tell({ kind: 'hubs', base, cookies });
  const hubsReady = await expect('ready');
  await pause(1_000);
  const withHubs = settledMemory();
  if (app.deps.hubs.count() !== CONNECTIONS) throw new Error(`only ${app.deps.hubs.count()} hub connections`);

  const wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    perMessageDeflate: false,
    maxPayload: HUB_LIMITS.maxMessageBytes,
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  const bareSockets: WebSocket[] = new Array<WebSocket>(CONNECTIONS);
  wss.on('connection', (ws) => ws.once('message', (data: Buffer) => (bareSockets[Number(data.toString())] = ws)));
  const wsAddress = wss.address();
  if (!wsAddress || typeof wsAddress === 'string') throw new Error('no ws port');
  tell({ kind: 'ws', url: `ws://127.0.0.1:${wsAddress.port}`, count: CONNECTIONS });
  const wsReady = await expect('ready');
  await pause(1_000);
  const withBare = settledMemory();

  const notification = (round: number, n: number, sentAt: string) => ({
    id: `n-${round}-${n}`,
    title: 'Sync failed',
    body: 'The sync of "Orders" failed: the source answered 503.',
    severity: 'Error',
    createdAt: new Date().toISOString(),
    readAt: null,
    target: { type: 'Integration', id: 'i-1' },
    round,
    sentAt,
  });
  // How long the server's own send loop takes (its share of the fan-out), per side.
  const loops = { hubs: [] as number[], ws: [] as number[] };
  const sendHubs = (round: number) => {
    const start = process.hrtime.bigint();
    const sentAt = start.toString();
    for (let i = 0; i < CONNECTIONS; i += 1) {
      app.deps.hubs.toUser('notifications', users[i] as string, 'ReceiveNotification', notification(round, i, sentAt));
    }
    if (round >= WARMUP_ROUNDS) loops.hubs.push(Number(process.hrtime.bigint() - start) / 1e6);
  };
  const sendBare = (round: number) => {
    const start = process.hrtime.bigint();
    const sentAt = start.toString();
    for (let i = 0; i < CONNECTIONS; i += 1) {
      bareSockets[i]?.send(JSON.stringify(notification(round, i, sentAt)));
    }
    if (round >= WARMUP_ROUNDS) loops.ws.push(Number(process.hrtime.bigint() - start) / 1e6);
  };

  const times = { hubs: [] as number[], ws: [] as number[] };
  // The first notification after the connections opened (cold: nothing sent on them yet), per side.
  const cold = { hubs: 0, ws: 0 };
  const otherCpu = otherCpuWatch();
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
    // Alternate which side goes first, so neither always follows the other's garbage.
    const order = round % 2 === 0 ? (['hubs', 'ws'] as const) : (['ws', 'hubs'] as const);
    for (const side of order) {
      const done = expect('round', (m) => m.side === side && m.round === round);
      if (side === 'hubs') sendHubs(round);
      else sendBare(round);
      const { lastMs } = await done;
      if (round >= WARMUP_ROUNDS) times[side].push(lastMs);
      if (round === 0) cold[side] = lastMs;
      await pause(50);
    }
  }
  const othersCores = otherCpu();

  tell({ kind: 'stop' });
  await new Promise((resolve) => child.once('exit', resolve));
  wss.close();
  await app.server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const stats = (values: number[]) => ({
    p50Ms: round2(median(values)),
    p99Ms: round2(percentile(values, 99)),
    maxMs: round2(Math.max(...values)),
  });
  const hubs = stats(times.hubs);
  const bare = stats(times.ws);
  const bytesPerHub = Math.round((withHubs - before) / CONNECTIONS);
  const bytesPerBare = Math.round((withBare - withHubs) / CONNECTIONS);
  const ratioP99 = round2(hubs.p99Ms / bare.p99Ms);
  const ratioP50 = round2(hubs.p50Ms / bare.p50Ms);
  // Rounds of a pair ran back to back: their ratio is the least touched by other processes' load.
  const pairRatios = times.hubs.map((h, i) => h / (times.ws[i] as number));
  const medianPairRatio = round2(median(pairRatios));
  const ratioOfFastest = round2(Math.min(...times.hubs) / Math.min(...times.ws));
  const missed: string[] = [];
  if (hubs.p99Ms >= TARGETS.p99Ms) missed.push(`p99 ${hubs.p99Ms} ms >= ${TARGETS.p99Ms} ms`);
  if (ratioP99 > TARGETS.ratioToBareWs) missed.push(`p99 ${ratioP99}x bare ws > ${TARGETS.ratioToBareWs}x`);
  if (bytesPerHub >= TARGETS.bytesPerIdleConnection) {
    missed.push(`${bytesPerHub} bytes per idle connection >= ${TARGETS.bytesPerIdleConnection}`);
  }

  const fanout = {
    measuredAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    settings: {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      warmupRounds: WARMUP_ROUNDS,
      send: 'toUser once per user (1,000 users, one connection each), as notify() pushes ReceiveNotification',
      clients: '@microsoft/signalr (WebSockets) and bare ws clients in one child process',
      timing: 'from the first send to the last client receiving, process.hrtime (machine-wide monotonic clock)',
      percentiles: `nearest rank over ${ROUNDS} rounds`,
      ratios: 'hubs over bare ws: of p99, of p50, the median of each round pair, and of the fastest rounds',
      memory: 'server heapUsed + external after GC, delta over idle connections',
    },
    targets: TARGETS,
    hubs,
    bareWs: bare,
    ratioP99,
    ratioP50,
    medianPairRatio,
    ratioOfFastest,
    serverSendLoopMedianMs: { hubs: round2(median(loops.hubs)), bareWs: round2(median(loops.ws)) },
    connectMs: { hubs: hubsReady.connectMs, bareWs: wsReady.connectMs },
    bytesPerIdleConnection: { hubs: bytesPerHub, bareWs: bytesPerBare },
    otherProcessesCores: othersCores,
    roundsMs: { hubs: times.hubs.map(round2), bareWs: times.ws.map(round2) },
    coldFirstRoundMs: { hubs: round2(cold.hubs), bareWs: round2(cold.ws) },
    allTargetsMet: missed.length === 0,
    missed,
  };

  // The files bench writes `download` into the same file: keep whatever else is there.
  const out = path.join(import.meta.dirname, 'results', 'hubs-files.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const existing: Record<string, unknown> = fs.existsSync(out)
    ? (JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>)
    : {};
  fs.writeFileSync(out, `${JSON.stringify({ ...existing, fanout }, null, 2)}\n`);

  console.log(`Fan-out to ${CONNECTIONS} connections, ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up:`);
  console.log(`  hubs (official client): p50 ${hubs.p50Ms} ms, p99 ${hubs.p99Ms} ms`);
  console.log(`  bare ws:                p50 ${bare.p50Ms} ms, p99 ${bare.p99Ms} ms`);
  console.log(
    `  cold (first notification after connecting): hubs ${round2(cold.hubs)} ms, bare ws ${round2(cold.ws)} ms`,
  );
  console.log(
    `  ratio p99 ${ratioP99}x, p50 ${ratioP50}x; median of back-to-back pairs ${medianPairRatio}x, ` +
      `fastest rounds ${ratioOfFastest}x`,
  );
  console.log(
    `  server send loop (median): hubs ${fanout.serverSendLoopMedianMs.hubs} ms, ` +
      `bare ws ${fanout.serverSendLoopMedianMs.bareWs} ms`,
  );
  console.log(`  memory per idle connection: hubs ${bytesPerHub} B, bare ws ${bytesPerBare} B`);
  if (othersCores !== null && othersCores > 0.2) {
    console.log(`  NOTE: other processes kept ${othersCores} cores busy during the rounds.`);
  }
  console.log(missed.length === 0 ? 'All targets met.' : `MISSED:\n  ${missed.join('\n  ')}`);
  console.log(`Results: ${path.relative(process.cwd(), out)}`);
}

main().catch((error: unknown) => {
  console.error('The hubs benchmark failed:', error);
  process.exit(1);
});
