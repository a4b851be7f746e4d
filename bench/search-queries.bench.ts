/**
 * Issue 16's figures, written to bench/results/search-queries.json:
 * - chat: the time from SendMessage to ReceiveMessage (official client, real hub) for typical
 *   questions on a 1-million-row table (target p50 < 300 ms), each against the time of the very SQL
 *   the reply says ran, executed straight on the same warehouse, alternately in the same run, so
 *   machine load touches both (the difference is understanding, storing and the hub);
 * - search: `searchBenchmark()` (bench/lib/search-bench.ts) when it exists;
 * - accuracy: `accuracyBenchmark()` (bench/lib/question-accuracy.ts) when it exists.
 * BENCH_CHAT_ROWS changes the table's size; BENCH_PARTS=chat,search,accuracy picks parts.
 */
// Sizes libuv's thread pool as main.ts does; must stay the first import (see threadpool.ts).
import '../src/server/warehouse/threadpool-init';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { qualified, warehouseTableName } from '../src/server/modules/static-tables/physical';
import { replaceColumns, touchTable } from '../src/server/modules/static-tables/repo';
import type { WarehouseExecutor } from '../src/server/warehouse/types';
import { chatMessageSchema, type ChatMessage } from '../src/shared/chat';
import type { Column } from '../src/shared/tables';
import { median, otherCpuWatch, timed } from './lib/measure';
import { requestJson, startServer, type BenchServer } from './lib/server';

const ROWS = Number(process.env.BENCH_CHAT_ROWS ?? 1_000_000);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'chat,search,accuracy').split(','));
const WARMUP_ROUNDS = 1;
const ROUNDS = Number(process.env.BENCH_CHAT_ROUNDS ?? 5);
const TARGETS = { chatP50Ms: 300 };

/** Typical questions, as a user would type them. */
const QUESTIONS = [
  'how many orders',
  'total amount',
  'how many orders by country',
  'total amount by month of ordered_at',
  'top 5 customers by amount',
  'how many orders from France',
  'average amount by status',
  'how many orders over 900',
  'total amount last year',
  'how many orders not cancelled',
];

const column = (key: string, type: Column['type'], order: number): Column => ({
  columnKey: key,
  displayName: key,
  description: null,
  order,
  type,
});

const COUNTRIES = `['France', 'Spain', 'Germany', 'Italy', 'Portugal', 'Norway', 'Austria', 'Ireland']`;
const STATUSES = `['paid', 'shipped', 'cancelled', 'refunded']`;

/** The orders table: its columns and the DuckDB expression generating each from `range`. */
const GENERATED: { column: Column; sql: string }[] = [
  { column: column('order_id', 'Number', 0), sql: 'range + 1' },
  { column: column('customer', 'Text', 1), sql: `'Customer ' || ((range * 7919) % 5000)` },
  { column: column('country', 'Text', 2), sql: `${COUNTRIES}[range % 8 + 1]` },
  { column: column('status', 'Text', 3), sql: `${STATUSES}[(range // 7) % 4 + 1]` },
  { column: column('amount', 'Number', 4), sql: '((range * 2654435761) % 100000)::DOUBLE / 100' },
  {
    column: column('ordered_at', 'DateTime', 5),
    // The last three years up to the run's day.
    sql: `date_trunc('day', now())::TIMESTAMP - to_seconds((range * 7907) % (3 * 365 * 86400))`,
  },
];

async function fillOrders(server: BenchServer): Promise<{ tableId: string; ms: number }> {
  const created = await requestJson<{ id: string }>(server.baseUrl, server.cookie, 'POST', '/api/static-tables', {
    name: 'orders',
    columns: [{ displayName: 'order_id' }],
  });
  const warehouse = server.app.deps.warehouse.forAccount(server.accountId);
  const columns = GENERATED.map((g) => `${g.sql} AS "${g.column.columnKey}"`).join(',\n  ');
  const sql =
    `CREATE OR REPLACE TABLE ${qualified(created.id)} AS\n` +
    `SELECT range + 1 AS "_row_id",\n  ${columns}\nFROM range(${ROWS})`;
  const ms = await timed(() =>
    warehouse.exclusive(`table:static.${warehouseTableName(created.id)}`, async () => {
      await warehouse.run(sql);
      await warehouse.run('CHECKPOINT');
    }),
  );
  await replaceColumns(
    server.app.deps.db,
    created.id,
    GENERATED.map((g) => g.column),
  );
  await touchTable(server.app.deps.db, created.id, new Date(), ROWS);
  return { tableId: created.id, ms };
}

async function chatbot(server: BenchServer): Promise<HubConnection> {
  const connection = new HubConnectionBuilder()
    .withUrl(`${server.baseUrl}/api/hubs/chatbot`, {
      headers: { cookie: server.cookie },
      transport: HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.None)
    .build();
  await connection.start();
  return connection;
}

/** Sends one question and resolves with the reply and the time until ReceiveMessage arrived. */
function ask(c: HubConnection, conversationId: string, question: string): Promise<{ ms: number; reply: ChatMessage }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const onMessage = (payload: unknown) => {
      const ms = performance.now() - start;
      c.off('ReceiveMessage', onMessage);
      resolve({ ms, reply: chatMessageSchema.parse(payload) });
    };
    c.on('ReceiveMessage', onMessage);
    c.invoke('SendMessage', conversationId, question).catch((error: unknown) => {
      c.off('ReceiveMessage', onMessage);
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** The time of the reply's SQL run on its own; null when it does not run as it is shown. */
async function directSql(warehouse: WarehouseExecutor, sql: string): Promise<number | null> {
  try {
    return await timed(() => warehouse.run(sql));
  } catch {
    return null;
  }
}

/** Nearest-rank percentile. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

const round = (n: number) => Math.round(n * 10) / 10;

interface QuestionFigures {
  question: string;
  reply: string;
  reading: string | null;
  rowCount: number | null;
  answered: boolean;
  chatMedianMs: number;
  sqlMedianMs: number | null;
}

async function chatBenchmark() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-bench-chat-'));
  const server = await startServer(path.join(tmp, 'data'), { CHAT_MESSAGES_PER_MINUTE: '100000' });
  const otherCpu = otherCpuWatch();
  try {
    console.log(`Filling ${ROWS.toLocaleString('en')} orders`);
    const { ms: fillMs } = await fillOrders(server);
    const warehouse = server.app.deps.warehouse.forAccount(server.accountId);
    const c = await chatbot(server);
    try {
      const conversationId = await c.invoke<string>('StartConversation', 'Bench');
      const chat = new Map<string, number[]>(QUESTIONS.map((q) => [q, []]));
      const direct = new Map<string, number[]>(QUESTIONS.map((q) => [q, []]));
      const last = new Map<string, ChatMessage>();
      for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
        console.log(round < WARMUP_ROUNDS ? 'Warm-up round' : `Round ${round - WARMUP_ROUNDS + 1} of ${ROUNDS}`);
        for (const question of QUESTIONS) {
          const { ms, reply } = await ask(c, conversationId, question);
          last.set(question, reply);
          // The same SQL the reply says ran, straight on the warehouse: the floor under the chat's time.
          const sqlMs = reply.sql ? await directSql(warehouse, reply.sql) : null;
          if (round < WARMUP_ROUNDS) continue;
          chat.get(question)?.push(ms);
          if (sqlMs !== null) direct.get(question)?.push(sqlMs);
        }
      }
      const all = [...chat.values()].flat();
      const perQuestion: QuestionFigures[] = QUESTIONS.map((question) => {
        const reply = last.get(question);
        const sqlTimes = direct.get(question) ?? [];
        return {
          question,
          reply: reply?.text ?? '',
          reading: reply?.reading ?? null,
          rowCount: reply?.data?.data.rowCount ?? null,
          answered: Boolean(reply?.data),
          chatMedianMs: round(median(chat.get(question) ?? [0])),
          sqlMedianMs: sqlTimes.length ? round(median(sqlTimes)) : null,
        };
      });
      const answered = perQuestion.filter((q) => q.answered);
      const p50 = round(percentile(all, 50));
      return {
        rows: ROWS,
        fillMs: round(fillMs),
        rounds: ROUNDS,
        warmupRounds: WARMUP_ROUNDS,
        samples: all.length,
        p50Ms: p50,
        p90Ms: round(percentile(all, 90)),
        p99Ms: round(percentile(all, 99)),
        maxMs: round(Math.max(...all)),
        answeredQuestions: `${answered.length} of ${QUESTIONS.length}`,
        answeredP50Ms: answered.length
          ? round(
              percentile(
                answered.flatMap((q) => chat.get(q.question) ?? []),
                50,
              ),
            )
          : null,
        sqlOnlyP50Ms: round(percentile([...direct.values()].flat(), 50) || 0),
        otherCpuLoad: otherCpu(),
        target: { name: `p50 < ${TARGETS.chatP50Ms} ms`, pass: p50 < TARGETS.chatP50Ms },
        perQuestion,
      };
    } finally {
      await c.stop();
    }
  } finally {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Another helper's part of this bench, when its file exists (it is optional until it lands). */
async function optionalPart(file: string, name: string): Promise<unknown> {
  const full = path.join(import.meta.dirname, 'lib', file);
  if (!fs.existsSync(full)) return { skipped: `bench/lib/${file} does not exist yet` };
  const part = (await import(pathToFileURL(full).href)) as Record<string, unknown>;
  const run = part[name];
  if (typeof run !== 'function') return { skipped: `bench/lib/${file} has no ${name}()` };
  return (await (run as () => Promise<unknown>)()) ?? null;
}

async function main(): Promise<void> {
  const result: Record<string, unknown> = {
    benchmark: 'search-queries',
    date: new Date().toISOString(),
    machine: {
      cpus: os.availableParallelism(),
      memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
    },
  };
  if (PARTS.has('chat')) result.chat = await chatBenchmark();
  if (PARTS.has('search')) result.search = await optionalPart('search-bench.ts', 'searchBenchmark');
  if (PARTS.has('accuracy')) result.accuracy = await optionalPart('question-accuracy.ts', 'accuracyBenchmark');
  const out = path.join(import.meta.dirname, 'results', 'search-queries.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  const chat = result.chat as Awaited<ReturnType<typeof chatBenchmark>> | undefined;
  if (chat) {
    console.log(
      `\nChat on ${chat.rows.toLocaleString('en')} rows, ${chat.samples} questions: SendMessage → ReceiveMessage ` +
        `p50 ${chat.p50Ms} ms, p90 ${chat.p90Ms} ms, p99 ${chat.p99Ms} ms (the SQL alone: p50 ${chat.sqlOnlyP50Ms} ms); ` +
        `answered ${chat.answeredQuestions}; target ${chat.target.name}: ${chat.target.pass ? 'met' : 'MISSED'}`,
    );
    for (const q of chat.perQuestion) {
      console.log(`  ${q.chatMedianMs} ms (SQL ${q.sqlMedianMs ?? '-'} ms)  ${q.question} → ${q.reading ?? q.reply}`);
    }
  }
  console.log(`Wrote ${path.relative(process.cwd(), out)}`);
}

main().catch((error: unknown) => {
  console.error('The search and queries benchmark failed:', error);
  process.exit(1);
});
