// Sizes libuv's thread pool as main.ts does; must stay the first import (see threadpool.ts).
import '../src/server/warehouse/threadpool-init';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replaceColumns, touchTable } from '../src/server/modules/static-tables/repo';
import { qualified, warehouseTableName } from '../src/server/modules/static-tables/physical';
import { compileTableQuery, staticRelation, type TableRequest } from '../src/server/modules/tables/relations';
import type { WarehouseExecutor } from '../src/server/warehouse/types';
import { compileKeyBoundPage, type TableQuery } from '../src/engine';
import type { Column, FilterGroup, Paged } from '../src/shared/tables';
import { CopyWatch, describeCopies, type CopyReport } from './lib/copies';
import { writeMixedCsv } from './lib/csv';
import {
  MemorySampler,
  kernelPeakRss,
  mb,
  median,
  otherCpuWatch,
  timePair,
  timed,
  type PairTimes,
} from './lib/measure';
import { startFloorServer } from './lib/floor-server';
import { HttpError, requestJson, searchIndexSettled, startServer, type BenchServer } from './lib/server';
import { startUploadClient, type UploadClient } from './lib/upload-client';

/**
 * Static tables at scale: pages, counts and CSV import through the real HTTP API, each against the
 * identical SQL run straight on the account's DuckDB warehouse (see the issue's "Benchmark").
 * Sizes can be lowered for a quick try: BENCH_ROWS, BENCH_IMPORT_ROWS, BENCH_RUNS, BENCH_IMPORT_RUNS;
 * WAREHOUSE_MEMORY_LIMIT, WAREHOUSE_THREADS and ORDERED_COPY_* pass through to the server's config.
 * Pages and counts report their first (cold) request apart: it may start an ordered copy, whose
 * build the bench awaits before the timed runs, and each report says how many runs a copy answered.
 * Pages are asked for as the grid asks (withCount: false: it counts with its own call). The rows
 * measured with the recent answers forgotten before every call are a first visit: they are targets
 * too (RECENT_ANSWERS_MAX=0 turns the store off for every row). BENCH_ONLY=<case ids> runs only
 * those cases (e.g. BENCH_ONLY=csvImport skips filling the 10M-row table).
 */

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

const ROWS = envInt('BENCH_ROWS', 10_000_000);
const IMPORT_ROWS = envInt('BENCH_IMPORT_ROWS', 1_000_000);
const PAGE_SIZE = 100;
const PAGE_COUNTS = { warmups: 1, runs: envInt('BENCH_RUNS', 7) };
const IMPORT_COUNTS = { warmups: 1, runs: envInt('BENCH_IMPORT_RUNS', 7) };
const SERVER_ENV: Record<string, string> = {
  WAREHOUSE_MEMORY_LIMIT: process.env.WAREHOUSE_MEMORY_LIMIT ?? '1GB',
  ...(process.env.WAREHOUSE_THREADS ? { WAREHOUSE_THREADS: process.env.WAREHOUSE_THREADS } : {}),
  // ORDERED_COPY_MIN_ROWS, ORDERED_COPY_MAX, ORDERED_COPY_MAX_ROWS (e.g. ORDERED_COPY_MAX=0 to bench without copies),
  // RECENT_ANSWERS_MAX and RECENT_ANSWERS_MAX_ROWS (RECENT_ANSWERS_MAX=0: no answer is kept).
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[0].startsWith('ORDERED_COPY_') || entry[0].startsWith('RECENT_ANSWERS_'),
    ),
  ),
};

/** BENCH_ONLY=csvImport (comma-separated case ids) runs just those; without pages the 10M table is not filled. */
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean),
);
const selected = (id: string) => ONLY.size === 0 || ONLY.has(id);

const TARGETS = { pageRatioMax: 1.3, pageMsMax: 150, importRatioMax: 1.2, memoryMbMax: 1536 };

/** A first visit (nothing kept from an earlier request): the API against the same SQL, ratio only. */
const firstVisitTargets = (_apiMs: number, ratio: number): TargetResult[] => [
  {
    name: `first visit API/DuckDB <= ${TARGETS.pageRatioMax}`,
    limit: TARGETS.pageRatioMax,
    value: round(ratio, 2),
    pass: ratio <= TARGETS.pageRatioMax,
  },
];

const column = (columnKey: string, displayName: string, type: Column['type'], order: number): Column => ({
  columnKey,
  displayName,
  description: null,
  order,
  type,
});

/** The 10M-row table's columns, and the DuckDB expression generating each from `range` (0-based). */
const GENERATED: { column: Column; sql: string }[] = [
  {
    column: column('name', 'Name', 'Text', 0),
    sql:
      `CASE WHEN range % 10 = 0 THEN city || ', customer ' || ((range * 7919) % 1000003) ` +
      `ELSE 'Customer ' || ((range * 7919) % 1000003) || ' ' || city END`,
  },
  {
    column: column('amnt', 'Amount', 'Number', 1),
    sql: 'CASE WHEN range % 97 = 0 THEN NULL ELSE ((range * 2654435761) % 1000000007)::DOUBLE / 1000 END',
  },
  { column: column('qnty', 'Quantity', 'Number', 2), sql: '((range * 48271) % 2147483647)::BIGINT - 1073741823' },
  { column: column('dday', 'Day', 'Date', 3), sql: `DATE '2000-01-01' + ((range * 31) % 9131)::INTEGER` },
  {
    column: column('tstp', 'At', 'DateTime', 4),
    sql: `TIMESTAMP '2020-01-01 00:00:00' + to_seconds((range * 7907) % 157680000)`,
  },
  { column: column('flag', 'Active', 'Boolean', 5), sql: 'CASE WHEN range % 101 = 0 THEN NULL ELSE range % 3 = 0 END' },
];

const CITIES_SQL = `['Berlin', 'Paris', 'Lisbon', 'Oslo', 'Rome', 'Vienna', 'Dublin', 'Prague']`;

/** (c)'s filter: Contains on the text column and a range on the DOUBLE, both required. */
const FILTER: FilterGroup[] = [
  {
    filters: [
      { columnKey: 'name', operator: 'Contains', value: 'lisbon', conditionOperator: 'Or' },
      { columnKey: 'amnt', operator: 'Between', value: 100_000, value2: 400_000, conditionOperator: 'And' },
    ],
  },
];

interface PageCase {
  id: string;
  label: string;
  kind: 'page' | 'count';
  request: TableRequest;
  /** Forget the server's recent answers before every API call: a first visit, as no answer is kept. */
  forgetAnswers?: boolean;
}

const DEEP_ROW = Math.floor(ROWS / 2);
const CASES: PageCase[] = [
  {
    id: 'firstPage',
    label: 'First page (100 rows, no sort)',
    kind: 'page',
    request: { page: 1, pageSize: PAGE_SIZE, filterGroups: [], sorting: [] },
  },
  {
    id: 'deepSortedPage',
    label: `Page at row ${DEEP_ROW.toLocaleString('en')}, sorted by Amount`,
    kind: 'page',
    request: {
      page: Math.floor(DEEP_ROW / PAGE_SIZE) + 1,
      pageSize: PAGE_SIZE,
      filterGroups: [],
      sorting: [{ columnKey: 'amnt', direction: 'Ascending' }],
    },
  },
  {
    id: 'filteredSortedPage',
    label: 'Filtered (Contains + Between) page, sorted by Quantity desc',
    kind: 'page',
    request: {
      page: 1,
      pageSize: PAGE_SIZE,
      filterGroups: FILTER,
      sorting: [{ columnKey: 'qnty', direction: 'Descending' }],
    },
  },
  {
    id: 'firstPageUncached',
    label: 'First page, first visit (recent answers forgotten)',
    kind: 'page',
    request: { page: 1, pageSize: PAGE_SIZE, filterGroups: [], sorting: [] },
    forgetAnswers: true,
  },
  {
    id: 'count',
    label: 'Count, no filter',
    kind: 'count',
    request: { page: 1, pageSize: 1, filterGroups: [], sorting: [] },
  },
  {
    id: 'countUncached',
    label: 'Count, no filter, first visit (recent answers forgotten)',
    kind: 'count',
    request: { page: 1, pageSize: 1, filterGroups: [], sorting: [] },
    forgetAnswers: true,
  },
  {
    id: 'filteredCount',
    label: 'Count, filter of (c)',
    kind: 'count',
    request: { page: 1, pageSize: 1, filterGroups: FILTER, sorting: [] },
  },
];

interface TargetResult {
  name: string;
  limit: number;
  value: number;
  pass: boolean;
}

interface Measurement {
  id: string;
  label: string;
  apiMs: number;
  duckdbMs: number;
  ratio: number;
  apiRunsMs: number[];
  duckdbRunsMs: number[];
  /** The API's answer equalled DuckDB's (rows, or the count). */
  identical: boolean;
  detail: string;
  sql?: string;
  /** Cores other processes kept busy meanwhile (0 on a quiet machine): such work inflates the figures. */
  otherCpuCores: number | null;
  targets: TargetResult[];
  /** Pages and counts: the first request (which may start an ordered copy) and where the timed runs' answers came from. */
  copies?: CopyReport;
}

const round = (n: number, digits = 1): number => Number(n.toFixed(digits));

function measurement(
  otherCpu: () => number | null,
  id: string,
  label: string,
  times: PairTimes,
  identical: boolean,
  detail: string,
  targets: (apiMs: number, ratio: number) => TargetResult[],
  sql?: string,
): Measurement {
  const apiMs = median(times.api);
  const duckdbMs = median(times.duckdb);
  const ratio = apiMs / duckdbMs;
  return {
    id,
    label,
    apiMs: round(apiMs),
    duckdbMs: round(duckdbMs),
    ratio: round(ratio, 2),
    apiRunsMs: times.api.map((t) => round(t)),
    duckdbRunsMs: times.duckdb.map((t) => round(t)),
    identical,
    detail,
    ...(sql === undefined ? {} : { sql }),
    otherCpuCores: otherCpu(),
    targets: targets(apiMs, ratio),
  };
}

const pageTargets = (apiMs: number, ratio: number): TargetResult[] => [
  {
    name: `API/DuckDB <= ${TARGETS.pageRatioMax}`,
    limit: TARGETS.pageRatioMax,
    value: round(ratio, 2),
    pass: ratio <= TARGETS.pageRatioMax,
  },
  {
    name: `API < ${TARGETS.pageMsMax} ms`,
    limit: TARGETS.pageMsMax,
    value: round(apiMs),
    pass: apiMs < TARGETS.pageMsMax,
  },
];

const log = (message: string): void => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

async function fillTable(server: BenchServer, warehouse: WarehouseExecutor, tableId: string): Promise<number> {
  const columns = GENERATED.map((g) => `${g.sql} AS "${g.column.columnKey}"`).join(',\n  ');
  const sql =
    `CREATE OR REPLACE TABLE ${qualified(tableId)} AS\n` +
    `SELECT range + 1 AS "_row_id",\n  ${columns}\n` +
    `FROM (SELECT range, ${CITIES_SQL}[range % 8 + 1] AS city FROM range(${ROWS}))`;
  const ms = await timed(() =>
    warehouse.exclusive(`table:static.${warehouseTableName(tableId)}`, async () => {
      await warehouse.run(sql);
      await warehouse.run('CHECKPOINT');
    }),
  );
  const db = server.app.deps.db;
  await replaceColumns(
    db,
    tableId,
    GENERATED.map((g) => g.column),
  );
  await touchTable(db, tableId, new Date(), ROWS);
  return ms;
}

async function measureCase(
  server: BenchServer,
  warehouse: WarehouseExecutor,
  tableId: string,
  columns: Column[],
  c: PageCase,
): Promise<Measurement> {
  const otherCpu = otherCpuWatch();
  const compiled = compileTableQuery(staticRelation(tableId, columns), c.request);
  const base = `/api/tables/StaticTable/${tableId}/data`;
  // The first request is timed on its own (it may start an ordered copy, awaited before the timed runs).
  const watch = new CopyWatch(warehouse);
  const forget = () => {
    if (c.forgetAnswers) warehouse.recentAnswers.clear();
  };
  const targets = c.forgetAnswers ? firstVisitTargets : pageTargets;
  if (c.kind === 'page') {
    const call = () => {
      forget();
      return requestJson<Paged<Record<string, unknown>>>(
        server.baseUrl,
        server.cookie,
        'POST',
        `${base}/infinite-scroll`,
        { ...c.request, withCount: false },
      );
    };
    const api = watch.wrap(call);
    const duckdb = () => warehouse.all(compiled.page);
    const cold = await watch.cold(call);
    const [fromApi, fromDuckdb] = [await api(), await duckdb()];
    const same = (rows: unknown[]) => JSON.stringify(rows) === JSON.stringify(fromDuckdb);
    const identical = same(cold.result.data) && same(fromApi.data);
    const first = fromApi.data[0]?._row_id;
    watch.reset();
    const times = await timePair(PAGE_COUNTS, api, duckdb);
    const copies = watch.report(cold, PAGE_COUNTS.runs);
    return {
      ...measurement(
        otherCpu,
        c.id,
        c.label,
        times,
        identical,
        `${fromApi.data.length} rows, first _row_id ${String(first)}${await keyBoundNote(warehouse, compiled.query, copies)}`,
        targets,
        compiled.page.sql,
      ),
      copies,
    };
  }
  const body = { filterGroups: c.request.filterGroups };
  const call = async () => {
    forget();
    return (await requestJson<{ totalCount: number }>(server.baseUrl, server.cookie, 'POST', `${base}/count`, body))
      .totalCount;
  };
  const api = watch.wrap(call);
  const duckdb = async () => Number((await warehouse.all(compiled.count))[0]?.count ?? -1);
  const cold = await watch.cold(call);
  const [fromApi, fromDuckdb] = [await api(), await duckdb()];
  watch.reset();
  const times = await timePair(PAGE_COUNTS, api, duckdb);
  return {
    ...measurement(
      otherCpu,
      c.id,
      c.label,
      times,
      fromApi === fromDuckdb && cold.result === fromDuckdb,
      `count ${fromApi.toLocaleString('en')}`,
      targets,
      compiled.count.sql,
    ),
    copies: watch.report(cold, PAGE_COUNTS.runs),
  };
}

/**
 * When the API read its pages by their row-key bound (ordered-copies.ts, plainPage), the median of
 * that SQL straight on DuckDB: the ratio's baseline stays the plain page the engine compiles, and
 * this shows how much of the API's figure the cheaper SQL saved.
 */
async function keyBoundNote(warehouse: WarehouseExecutor, query: TableQuery, copies: CopyReport): Promise<string> {
  const bounded = compileKeyBoundPage(query);
  if (bounded === null || copies.runsByKeyBound === 0) return '';
  const times: number[] = [];
  for (let i = 0; i < PAGE_COUNTS.warmups + PAGE_COUNTS.runs; i += 1) {
    const ms = await timed(() => warehouse.all(bounded));
    if (i >= PAGE_COUNTS.warmups) times.push(ms);
  }
  return `; the API read it by its row-key bound, that SQL alone ${round(median(times))} ms on DuckDB`;
}

/**
 * The first-visit page's floor on this machine: the same request answered by a node:http server that
 * only runs the page's SQL through the same executor (no framework, session, validation or service),
 * timed with the same client against the same direct calls. Information: it shows how much of the
 * first-visit ratio the loopback round trip alone takes.
 */
async function measureFloor(
  server: BenchServer,
  warehouse: WarehouseExecutor,
  tableId: string,
  columns: Column[],
): Promise<Measurement> {
  const otherCpu = otherCpuWatch();
  const request = { page: 1, pageSize: PAGE_SIZE, filterGroups: [], sorting: [] };
  const compiled = compileTableQuery(staticRelation(tableId, columns), request);
  const floor = await startFloorServer(async () => {
    const data = await warehouse.all(compiled.page);
    return { page: 1, pageSize: PAGE_SIZE, count: -1, totalPages: -1, hasMore: data.length === PAGE_SIZE, data };
  });
  try {
    const api = () =>
      requestJson<Paged<Record<string, unknown>>>(floor.baseUrl, server.cookie, 'POST', '/floor', {
        ...request,
        withCount: false,
      });
    const duckdb = () => warehouse.all(compiled.page);
    const [fromFloor, fromDuckdb] = [await api(), await duckdb()];
    const times = await timePair(PAGE_COUNTS, api, duckdb);
    return measurement(
      otherCpu,
      'firstPageFloor',
      'First page, bare node:http server (floor)',
      times,
      JSON.stringify(fromFloor.data) === JSON.stringify(fromDuckdb),
      `${fromFloor.data.length} rows through a server with nothing but the query`,
      () => [],
    );
  } finally {
    await floor.close();
  }
}

async function measureImport(
  server: BenchServer,
  warehouse: WarehouseExecutor,
  client: UploadClient,
  csvPath: string,
): Promise<Measurement> {
  const otherCpu = otherCpuWatch();
  const created = await requestJson<{ id: string }>(server.baseUrl, server.cookie, 'POST', '/api/static-tables', {
    name: 'Bench import',
    columns: [{ displayName: 'A' }],
  });
  const api = async () => {
    const answer = await client.upload({
      url: `${server.baseUrl}/api/static-tables/${created.id}/upload`,
      cookie: server.cookie,
      filePath: csvPath,
      type: 'text/csv',
    });
    if (answer.status < 200 || answer.status >= 300) throw new HttpError(answer.status, answer.body);
    return JSON.parse(answer.body) as { rowCount: number; columns: Column[] };
  };
  const target = '"static"."bench_read_csv"';
  // The warehouse reads files only in the account's own folders (its lockdown): DuckDB reads a copy there.
  fs.mkdirSync(warehouse.scratchDir, { recursive: true });
  const duckdbCsv = path.join(warehouse.scratchDir, 'bench-import.csv');
  fs.copyFileSync(csvPath, duckdbCsv);
  const duckdb = () => warehouse.run(`CREATE OR REPLACE TABLE ${target} AS SELECT * FROM read_csv($1)`, [duckdbCsv]);
  const fromApi = await api();
  await duckdb();
  const [counted] = await warehouse.all({ sql: `SELECT count(*)::DOUBLE AS n FROM ${target}`, parameters: [] });
  const identical = fromApi.rowCount === IMPORT_ROWS && Number(counted?.n) === IMPORT_ROWS;
  const types = fromApi.columns.map((c) => `${c.displayName}:${c.type}`).join(', ');
  // Each import queues the table for global search, whose build reads every row: it runs between the
  // timed imports, not over the next one.
  const times = await timePair({ warmups: 0, runs: IMPORT_COUNTS.runs }, api, duckdb, () => searchIndexSettled(server));
  await warehouse.run(`DROP TABLE IF EXISTS ${target}`);
  fs.rmSync(duckdbCsv, { force: true });
  return measurement(
    otherCpu,
    'csvImport',
    `CSV import, ${IMPORT_ROWS.toLocaleString('en')} rows`,
    times,
    identical,
    `${fromApi.rowCount.toLocaleString('en')} rows; ${types}`,
    (_apiMs, ratio) => [
      {
        name: `API/DuckDB <= ${TARGETS.importRatioMax}`,
        limit: TARGETS.importRatioMax,
        value: round(ratio, 2),
        pass: ratio <= TARGETS.importRatioMax,
      },
    ],
  );
}

/**
 * A running server has its request path compiled by V8 long before anyone times it; this bench's
 * first cases would otherwise pay for that. Cheap calls of both kinds, on both sides, untimed.
 */
async function warmUp(server: BenchServer, warehouse: WarehouseExecutor, tableId: string, columns: Column[]) {
  const cheap = CASES.filter((c) => c.id === 'firstPage' || c.id === 'count');
  for (const c of cheap) {
    const compiled = compileTableQuery(staticRelation(tableId, columns), c.request);
    const urlPath = `/api/tables/StaticTable/${tableId}/data/${c.kind === 'page' ? 'infinite-scroll' : 'count'}`;
    for (let i = 0; i < 30; i += 1) {
      await requestJson(server.baseUrl, server.cookie, 'POST', urlPath, { ...c.request, withCount: false });
      await warehouse.all(c.kind === 'page' ? compiled.page : compiled.count);
    }
  }
}

/**
 * What any signed-in call costs with no DuckDB work: GET /api/me (session lookup) and the table's
 * summary (session, membership, table and columns from SQLite), for reading the small pages' ratios.
 */
async function measureHttpFloor(server: BenchServer, tableId: string): Promise<Record<string, number>> {
  const floor: Record<string, number> = {};
  const calls: [string, string][] = [
    ['me', '/api/me'],
    ['tableSummary', `/api/tables/StaticTable/${tableId}`],
  ];
  for (const [name, urlPath] of calls) {
    const times: number[] = [];
    for (let i = 0; i < PAGE_COUNTS.warmups + PAGE_COUNTS.runs; i += 1) {
      const ms = await timed(() => requestJson(server.baseUrl, server.cookie, 'GET', urlPath));
      if (i >= PAGE_COUNTS.warmups) times.push(ms);
    }
    floor[name] = round(median(times));
  }
  return floor;
}

function printTable(measurements: Measurement[], memory: TargetResult): void {
  const rows = measurements.map((m) => [
    m.label,
    m.apiMs.toFixed(1),
    m.duckdbMs.toFixed(1),
    m.ratio.toFixed(2),
    m.targets.length === 0
      ? 'info'
      : m.targets.every((t) => t.pass)
        ? 'ok'
        : `MISSED (${m.targets
            .filter((t) => !t.pass)
            .map((t) => t.name)
            .join('; ')})`,
  ]);
  rows.push([
    `Server peak RSS (MB) under load`,
    String(memory.value),
    '',
    '',
    memory.pass ? 'ok' : `MISSED (${memory.name})`,
  ]);
  const header = ['Measurement', 'API ms', 'DuckDB ms', 'API/DuckDB', 'Targets'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i >= 1 && i <= 3 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join(' | ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-+-')}`);
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-bench-tables-'));
  const sampler = new MemorySampler();
  sampler.start();
  const measurements: Measurement[] = [];
  const setup: Record<string, number> = {};
  let httpFloorMs: Record<string, number> = {};
  let csvBytes = 0;
  let server: BenchServer | null = null;
  try {
    sampler.phase('csv');
    const csvPath = path.join(tmp, 'import.csv');
    log(`Writing a ${IMPORT_ROWS.toLocaleString('en')} row CSV`);
    setup.csvWriteMs = round(await timed(async () => (csvBytes = await writeMixedCsv(csvPath, IMPORT_ROWS))));

    sampler.phase('setup');
    server = await startServer(path.join(tmp, 'data'), SERVER_ENV);
    const warehouse = server.app.deps.warehouse.forAccount(server.accountId);
    const pageCases = CASES.filter((c) => selected(c.id));
    if (pageCases.length > 0) {
      const created = await requestJson<{ id: string }>(server.baseUrl, server.cookie, 'POST', '/api/static-tables', {
        name: 'Bench 10M',
        columns: [{ displayName: 'A' }],
      });
      log(`Filling ${ROWS.toLocaleString('en')} rows in DuckDB`);
      setup.generateMs = round(await fillTable(server, warehouse, created.id));
      log('Waiting for the search index to take in the table');
      setup.searchIndexMs = round(await searchIndexSettled(server));
      const summary = await requestJson<{ columns: Column[] }>(
        server.baseUrl,
        server.cookie,
        'GET',
        `/api/tables/StaticTable/${created.id}`,
      );
      const seen = summary.columns.map((c) => `${c.columnKey}:${c.type}`).join(',');
      const expected = GENERATED.map((g) => `${g.column.columnKey}:${g.column.type}`).join(',');
      if (seen !== expected) throw new Error(`The API sees columns ${seen}, expected ${expected}`);

      sampler.phase('pages');
      log('Warming up the request path');
      await warmUp(server, warehouse, created.id, summary.columns);
      for (const c of pageCases) {
        log(c.label);
        measurements.push(await measureCase(server, warehouse, created.id, summary.columns, c));
      }
      if (selected('firstPageUncached')) {
        log('First page, bare node:http server (floor)');
        measurements.push(await measureFloor(server, warehouse, created.id, summary.columns));
      }
      httpFloorMs = await measureHttpFloor(server, created.id);
    }

    if (selected('csvImport')) {
      sampler.phase('import');
      log(`CSV import of ${IMPORT_ROWS.toLocaleString('en')} rows (${mb(csvBytes)} MB)`);
      const client = startUploadClient();
      try {
        measurements.push(await measureImport(server, warehouse, client, csvPath));
      } finally {
        await client.close();
      }
    }
    sampler.phase('done');
  } finally {
    sampler.stop();
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const underLoad = mb(sampler.peakOf('pages', 'import'));
  const memory: TargetResult = {
    name: `peak RSS < ${TARGETS.memoryMbMax} MB`,
    limit: TARGETS.memoryMbMax,
    value: underLoad,
    pass: underLoad < TARGETS.memoryMbMax,
  };
  const missed = [
    ...measurements.flatMap((m) => m.targets.filter((t) => !t.pass).map((t) => `${m.id}: ${t.name} (was ${t.value})`)),
    ...(memory.pass ? [] : [`memory: ${memory.name} (was ${memory.value})`]),
  ];
  const kernelPeak = kernelPeakRss();
  const result = {
    benchmark: 'tables',
    date: new Date().toISOString(),
    machine: {
      cpus: os.availableParallelism(),
      memoryGb: round(os.totalmem() / 1024 ** 3),
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
    },
    settings: {
      rows: ROWS,
      importRows: IMPORT_ROWS,
      csvMb: round(csvBytes / 1024 / 1024),
      pageSize: PAGE_SIZE,
      pageRuns: PAGE_COUNTS,
      importRuns: { warmups: 1, runs: IMPORT_COUNTS.runs },
      warehouseMemoryLimit: server?.config.warehouse.memoryLimit,
      warehouseThreads: server?.config.warehouse.threads,
      uvThreadpoolSize: process.env.UV_THREADPOOL_SIZE,
      duckdbSide: 'the compiled SQL through the same warehouse executor (pooled connection, JSON-safe rows)',
    },
    setupMs: setup,
    httpFloorMs,
    targets: TARGETS,
    measurements,
    memory: {
      ...memory,
      peakRssMbByPhase: Object.fromEntries([...sampler.peaks].map(([phase, bytes]) => [phase, mb(bytes)])),
      kernelPeakRssMb: kernelPeak === null ? null : mb(kernelPeak),
    },
    allTargetsMet: missed.length === 0,
    missed,
  };
  const out = path.join(import.meta.dirname, 'results', 'tables.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

  console.log(
    `\n${ROWS.toLocaleString('en')} rows, medians of ${PAGE_COUNTS.runs} runs after ${PAGE_COUNTS.warmups} warm-up ` +
      `(import: ${IMPORT_COUNTS.runs} after 1); warehouse memory_limit ${result.settings.warehouseMemoryLimit}, ` +
      `threads ${result.settings.warehouseThreads}; ${result.machine.cpus} cores`,
  );
  printTable(measurements, memory);
  for (const m of measurements) {
    const warning = m.identical ? '' : '  WARNING: API and DuckDB answers differ';
    console.log(`  ${m.id}: ${m.detail}; other processes' CPU ${String(m.otherCpuCores)} cores${warning}`);
    if (m.copies) console.log(`    ${describeCopies(m.copies)}`);
  }
  console.log(
    `  HTTP floor (no DuckDB work): ${Object.entries(httpFloorMs)
      .map(([name, ms]) => `${name} ${ms} ms`)
      .join(', ')}`,
  );
  const busiest = Math.max(0, ...measurements.map((m) => m.otherCpuCores ?? 0));
  if (busiest > 0.2) {
    console.log(
      `  NOTE: other processes kept up to ${busiest} of ${result.machine.cpus} cores busy during a measurement; ` +
        'that inflates and scatters these figures.',
    );
  }
  console.log(
    `  memory peaks (MB): ${Object.entries(result.memory.peakRssMbByPhase)
      .map(([p, v]) => `${p} ${v}`)
      .join(', ')}; kernel high-water mark ${String(result.memory.kernelPeakRssMb)}`,
  );
  console.log(
    missed.length === 0 ? '\nAll targets met.' : `\nMISSED ${missed.length} target(s):\n  ${missed.join('\n  ')}`,
  );
  console.log(`Results: ${path.relative(process.cwd(), out)}`);
}

main().catch((error: unknown) => {
  console.error('The tables benchmark failed:', error);
  process.exit(1);
});
