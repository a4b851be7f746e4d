// Sizes libuv's thread pool as main.ts does; must stay the first import (see threadpool.ts).
import '../src/server/warehouse/threadpool-init';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { WarehouseExecutor } from '../src/server/warehouse/types';
import { startPostgres, type PostgresPeer } from '../test/server/integrations/peers/postgres';
import { MemorySampler, mb, median, timed } from './lib/measure';
import { startPagedApi } from './lib/paged-api';
import { requestJson, startServer, type BenchServer } from './lib/server';

/**
 * Syncs through the real connectors (issue "Integrations", Benchmark): 1M rows from a local
 * PostgreSQL table and 200k records from a local paginated REST server, each against DuckDB loading
 * the same rows directly (COPY ... TO CSV then read_csv; the same pages saved to disk then
 * read_json). Rows per second and the ratio; server memory during the syncs.
 * Each figure is the median of BENCH_RUNS (3) runs. BENCH_PG_ROWS and BENCH_API_RECORDS lower the sizes.
 */
const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const PG_ROWS = envInt('BENCH_PG_ROWS', 1_000_000);
const API_RECORDS = envInt('BENCH_API_RECORDS', 200_000);
const API_PAGE = 1_000;
/** Each sync and each direct load runs this many times; the median counts. */
const RUNS = envInt('BENCH_RUNS', 3);
const POLL_MS = 20;
const TARGETS = { throughputShareMin: 0.5, memoryMbMax: 1024 };
const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

async function fillPostgres(peer: PostgresPeer): Promise<void> {
  const client = new pg.Client({
    host: peer.host,
    port: peer.port,
    user: peer.user,
    password: peer.password,
    database: peer.database,
  });
  // The query's own error is what matters; the socket closing after it is not.
  client.on('error', () => {});
  await client.connect();
  // Parallel workers need dynamic shared memory, which a small /dev/shm cannot give.
  await client.query('SET max_parallel_workers_per_gather = 0');
  await client.query(`CREATE TABLE orders AS SELECT g AS id, 'Customer ' || (g % 100000) AS customer,
    (g * 7919 % 100000) / 100.0 AS amount, DATE '2024-01-01' + (g % 700)::int AS day,
    TIMESTAMP '2024-01-01' + make_interval(secs => g::double precision) AS updated_at, g % 3 = 0 AS paid
    FROM generate_series(1::bigint, ${PG_ROWS}) g`);
  await client.query('ALTER TABLE orders ADD PRIMARY KEY (id)');
  await client.end();
}

async function syncThroughApi(
  server: BenchServer,
  definition: string,
  name: string,
  configuration: unknown,
  dataset: string,
) {
  const call = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    requestJson<T>(server.baseUrl, server.cookie, method, url, body);
  const definitions = await call<{ id: string; name: string }[]>('GET', '/api/integration_definitions');
  const def = definitions.find((d) => d.name === definition);
  if (!def) throw new Error(`No definition ${definition}`);
  const created = await call<{ id: string }>('POST', '/api/integrations', {
    integrationDefinitionId: def.id,
    name,
    schemaName: name,
    configuration,
  });
  await server.app.services.integrations.idle();
  await call('PUT', `/api/integrations/${created.id}/datasets`, {
    datasets: { [dataset]: { isSelected: true, syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } },
  });
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    times.push(
      await timed(async () => {
        await call('POST', `/api/integrations/${created.id}/trigger`);
        for (;;) {
          const status = await call<{ status: string }>('GET', `/api/integrations/${created.id}/job_status`);
          if (status.status !== 'Running' && status.status !== 'Pending') {
            if (status.status !== 'Completed') throw new Error(`${name} sync ended ${status.status}`);
            return;
          }
          // Short polls: the time a sync takes, not the polling interval, is measured.
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
      }),
    );
  }
  log(`  ${name}: ${times.map((t) => Math.round(t)).join(', ')} ms`);
  return median(times);
}

/** The median of RUNS timings of `work`. */
async function medianOf(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) times.push(await timed(work));
  log(`  direct: ${times.map((t) => Math.round(t)).join(', ')} ms`);
  return median(times);
}

async function directPostgres(peer: PostgresPeer, warehouse: WarehouseExecutor, dir: string): Promise<number> {
  const file = path.join(dir, 'orders.csv');
  return medianOf(async () => {
    execFileSync(
      'psql',
      [
        '-h',
        peer.host,
        '-p',
        String(peer.port),
        '-U',
        peer.user,
        '-d',
        peer.database,
        '-c',
        `\\copy orders TO '${file}' WITH CSV HEADER`,
      ],
      {
        env: { ...process.env, PGPASSWORD: peer.password },
      },
    );
    await warehouse.run('CREATE OR REPLACE TABLE main.direct_pg AS SELECT * FROM read_csv($1)', [file]);
  });
}

async function directApi(apiUrl: string, warehouse: WarehouseExecutor, dir: string): Promise<number> {
  return medianOf(async () => {
    const files: string[] = [];
    for (let page = 1; (page - 1) * API_PAGE < API_RECORDS; page += 1) {
      const body = await (await fetch(`${apiUrl}/customers?page=${page}&per_page=${API_PAGE}`)).text();
      const file = path.join(dir, `page-${page}.json`);
      fs.writeFileSync(file, body);
      files.push(file);
    }
    await warehouse.run(
      `CREATE OR REPLACE TABLE main.direct_api AS SELECT unnest(data, recursive := true) FROM read_json($1)`,
      [path.join(dir, 'page-*.json')],
    );
  });
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-bench-integrations-'));
  const sampler = new MemorySampler();
  sampler.start();
  sampler.phase('setup');
  let server: BenchServer | null = null;
  let peer: PostgresPeer | null = null;
  let api: { url: string; close: () => Promise<void> } | null = null;
  try {
    log(
      `Starting PostgreSQL with ${PG_ROWS.toLocaleString('en')} rows and an API with ${API_RECORDS.toLocaleString('en')} records`,
    );
    peer = await startPostgres();
    await fillPostgres(peer);
    api = await startPagedApi(API_RECORDS, API_PAGE);
    server = await startServer(path.join(tmp, 'data'), {});
    const warehouse = server.app.deps.warehouse.forAccount(server.accountId);

    sampler.phase('sync');
    log('PostgreSQL sync through the connector');
    const pgMs = await syncThroughApi(
      server,
      'PostgreSQL',
      'pgbench',
      {
        host: peer.host,
        port: peer.port,
        database: peer.database,
        username: peer.user,
        password: peer.password,
      },
      'orders',
    );
    log('REST API sync through the connector');
    const apiMs = await syncThroughApi(
      server,
      'REST API',
      'apibench',
      {
        base_url: api.url,
        streams: [
          {
            name: 'customers',
            path: '/customers',
            primary_key: 'id',
            record_selector: 'data',
            pagination: { type: 'page_number', page_param: 'page', size_param: 'per_page', page_size: API_PAGE },
          },
        ],
      },
      'customers',
    );
    sampler.phase('direct');
    log('Direct loads into DuckDB');
    // The account's warehouse reads files only from its own work folders.
    fs.mkdirSync(warehouse.scratchDir, { recursive: true });
    const pgDirect = await directPostgres(peer, warehouse, warehouse.scratchDir);
    const apiDirect = await directApi(api.url, warehouse, warehouse.scratchDir);

    // The synced tables must hold every row, or the speed means nothing.
    const synced: Record<string, number> = {};
    for (const schema of ['pgbench', 'apibench']) {
      const tables = await warehouse.all({
        sql: `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name NOT LIKE '\\_%' ESCAPE '\\'`,
        parameters: [schema],
      });
      const name = String(tables[0]?.table_name);
      const [counted] = await warehouse.all({
        sql: `SELECT count(*)::DOUBLE AS n FROM "${schema}"."${name}"`,
        parameters: [],
      });
      synced[schema] = Number(counted?.n);
    }
    if (synced.pgbench !== PG_ROWS || synced.apibench !== API_RECORDS) {
      throw new Error(`Synced ${JSON.stringify(synced)}, expected ${PG_ROWS} and ${API_RECORDS} rows`);
    }
    const rows = (n: number, ms: number) => round(n / (ms / 1000), 0);
    const cases = [
      { id: 'postgres', rows: PG_ROWS, syncMs: round(pgMs), directMs: round(pgDirect) },
      { id: 'restApi', rows: API_RECORDS, syncMs: round(apiMs), directMs: round(apiDirect) },
    ].map((c) => ({
      ...c,
      syncRowsPerSecond: rows(c.rows, c.syncMs),
      directRowsPerSecond: rows(c.rows, c.directMs),
      share: round(c.directMs / c.syncMs, 2),
    }));
    const syncPeak = mb(sampler.peakOf('sync'));
    const targets = [
      ...cases.map((c) => ({
        name: `${c.id}: at least half the direct throughput`,
        value: c.share,
        pass: c.share >= TARGETS.throughputShareMin,
      })),
      {
        name: `server memory during syncs < ${TARGETS.memoryMbMax} MB`,
        value: syncPeak,
        pass: syncPeak < TARGETS.memoryMbMax,
      },
    ];
    const result = {
      benchmark: 'integrations',
      runs: RUNS,
      date: new Date().toISOString(),
      cases,
      targets,
      peakRssMbByPhase: Object.fromEntries([...sampler.peaks].map(([p, b]) => [p, mb(b)])),
    };
    fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
    fs.writeFileSync(
      path.join(import.meta.dirname, 'results', 'integrations.json'),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    console.table(cases);
    console.table(targets);
  } finally {
    sampler.stop();
    await server?.close();
    await api?.close();
    await peer?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
