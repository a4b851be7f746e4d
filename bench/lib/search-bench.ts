/**
 * Global search over a large dataset (issue 16): a generated table of BENCH_SEARCH_ROWS rows
 * (10 million by default) with low-cardinality text (city with accents, status), a mid one (customer)
 * and a nearly-unique one (note), indexed by the product's own path (build.ts: the warehouse
 * aggregates and writes NDJSON, the writer thread loads it), against raw FTS5 inserts of the same
 * rows' text (one document per row, same tokenizer) in the same run. Then query latency of the
 * index read (queryIndex, what GET /api/search reads before its sample rows) for common and rare
 * terms, and the index's size on disk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/server/config';
import { createWarehouse, warehouseOptions } from '../../src/server/warehouse/warehouse';
import { indexTable, indexedState } from '../../src/server/search/build';
import type { SearchTable } from '../../src/server/search/catalog';
import { createIndexWriter } from '../../src/server/search/index-worker';
import { queryIndex } from '../../src/server/search/query';
import { searchWords } from '../../src/shared/search';
import type { Column } from '../../src/shared/tables';

const ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 10_000_000);
const QUERY_ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 200);
const TARGET_P99_MS = 100;

const text = (key: string, order: number): Column => ({
  columnKey: key,
  displayName: key,
  description: null,
  order,
  type: 'Text',
});

const CITIES = `['Zürich', 'São Paulo', 'Kraków', 'Malmö', 'Paris', 'Berlin', 'Lyon', 'Lisboa', 'Reykjavík', 'Düsseldorf']`;

const COMMON = ['zur', 'paris', 'shipped', 'customer', 'cus', 'order'];
const RARE = ['customer 123457', 'kraków customer 99', 'note 7654321', 'reykjavik', 'ref 4242424'];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(2));
}

function folderBytes(file: string): number {
  return [file, `${file}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}

export async function searchBenchmark() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-bench-'));
  const accountId = 'bench';
  const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dataDir });
  const warehouse = createWarehouse(warehouseOptions(config));
  const executor = warehouse.forAccount(accountId);
  const writer = createIndexWriter();
  try {
    await executor.run(`CREATE SCHEMA bench_feed`);
    await executor.run(
      `CREATE TABLE bench_feed.orders AS SELECT range + 1 AS _row_id,
         (${CITIES})[1 + range % 10] AS city,
         (['shipped', 'pending', 'returned', 'cancelled'])[1 + (range * 31) % 4] AS status,
         'Customer ' || ((range * 7919) % 200000) AS customer,
         'note ' || range || ' ref ' || ((range * 104729) % 9999991) AS note
       FROM range(${ROWS})`,
    );
    const table: SearchTable = {
      key: 'IntegrationDataset:bench',
      type: 'IntegrationDataset',
      id: 'bench',
      name: 'orders',
      groupId: 'bench',
      groupName: 'Bench feed',
      schema: 'bench_feed',
      table: 'orders',
      columns: [text('city', 0), text('status', 1), text('customer', 2), text('note', 3)],
      rowKey: '_row_id',
    };
    const file = path.join(dataDir, 'accounts', accountId, 'search.sqlite');
    fs.mkdirSync(path.dirname(file), { recursive: true });

    // The product's build.
    let started = performance.now();
    await indexTable({ executor, writer, file, table, excluded: new Set(), before: null, now: new Date() });
    await writer.run({ op: 'optimize', job: { file } });
    const buildSeconds = (performance.now() - started) / 1000;
    await writer.run({ op: 'close', job: { file } });

    // Raw FTS5: every row's text as one document, read from the same warehouse the same way.
    const rawFile = path.join(dataDir, 'raw.sqlite');
    const rawEntries = path.join(executor.scratchDir, 'raw.ndjson');
    fs.mkdirSync(executor.scratchDir, { recursive: true });
    started = performance.now();
    await executor.run(
      `COPY (SELECT city, status, customer, note FROM bench_feed.orders) TO '${rawEntries}' (FORMAT JSON)`,
    );
    const raw = new Database(rawFile);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.exec(
      `CREATE VIRTUAL TABLE fts USING fts5(city, status, customer, note, tokenize = 'unicode61 remove_diacritics 2')`,
    );
    const insert = raw.prepare('INSERT INTO fts(city, status, customer, note) VALUES (?, ?, ?, ?)');
    raw.exec('BEGIN');
    const lines = readline.createInterface({ input: fs.createReadStream(rawEntries), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line) continue;
      const row = JSON.parse(line) as Record<string, string>;
      insert.run(row.city, row.status, row.customer, row.note);
    }
    raw.exec('COMMIT');
    raw.exec("INSERT INTO fts(fts) VALUES ('optimize')");
    const rawSeconds = (performance.now() - started) / 1000;
    raw.close();
    fs.rmSync(rawEntries, { force: true });

    // Queries, as GET /api/search reads the index.
    const reader = new Database(file, { readonly: true });
    const state = indexedState(reader, table.key);
    const latency = (terms: string[]) => {
      const times: number[] = [];
      for (let round = 0; round < QUERY_ROUNDS; round++) {
        for (const term of terms) {
          const at = performance.now();
          queryIndex(reader, searchWords(term));
          times.push(performance.now() - at);
        }
      }
      return { terms, samples: times.length, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
    };
    latency(COMMON.slice(0, 2)); // warm the page cache
    const common = latency(COMMON);
    const rare = latency(RARE);
    const documents = (reader.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n;
    reader.close();

    const result = {
      rows: ROWS,
      columnKinds: Object.fromEntries(state?.kinds ?? []),
      documents,
      build: {
        seconds: Number(buildSeconds.toFixed(1)),
        rowsPerSecond: Math.round(ROWS / buildSeconds),
        rawFts5Seconds: Number(rawSeconds.toFixed(1)),
        rawFts5RowsPerSecond: Math.round(ROWS / rawSeconds),
        ratioToRaw: Number((rawSeconds / buildSeconds).toFixed(2)),
      },
      query: {
        common,
        rare,
        target: { p99Ms: TARGET_P99_MS, pass: Math.max(common.p99Ms, rare.p99Ms) < TARGET_P99_MS },
      },
      sizeOnDisk: { indexBytes: folderBytes(file), rawFts5Bytes: folderBytes(rawFile) },
    };
    console.log(
      `\nSearch on ${ROWS.toLocaleString('en')} rows: build ${result.build.rowsPerSecond.toLocaleString('en')} rows/s ` +
        `(raw FTS5 ${result.build.rawFts5RowsPerSecond.toLocaleString('en')} rows/s, x${result.build.ratioToRaw}); ` +
        `${documents.toLocaleString('en')} entries, ${(result.sizeOnDisk.indexBytes / 1e6).toFixed(0)} MB ` +
        `(raw ${(result.sizeOnDisk.rawFts5Bytes / 1e6).toFixed(0)} MB); common p50 ${common.p50Ms} / p99 ${common.p99Ms} ms, ` +
        `rare p50 ${rare.p50Ms} / p99 ${rare.p99Ms} ms`,
    );
    return result;
  } finally {
    await writer.close();
    await warehouse.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run alone: node --import tsx bench/lib/search-bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  searchBenchmark().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
