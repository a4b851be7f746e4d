/**
 * Ordered copies: fast deep, filtered and sorted pages of large relations. A page at row 5M of a 10M
 * table sorted by a non-key column costs DuckDB ~1.5 s whatever the SQL (every row before the page
 * must be sorted), and a filtered page or count must read the filtered columns of every row. So the
 * first such request of a (relation, filters, sort) starts building, in the background, a copy of
 * the matching rows in that order, numbered by position (`compileOrderedCopy`), in the account's
 * ORDERED_COPIES_DATABASE. Later pages are position ranges of the copy, a few milliseconds at any
 * depth (its zonemaps skip all other row groups), and the filtered count is the copy's row count.
 *
 * - No request waits for a copy: a miss is answered with the plain SQL, as without copies, and the
 *   build starts after that answer. One build per account at a time, a second one waiting (the
 *   newest request replaces it); a request for a copy being made starts nothing.
 * - Never stale: the relation's version is read before a build and the copy kept under it; every
 *   writer goes through `exclusive('table:<schema>.<name>')`, which moves the version on and drops
 *   the relation's copies when the write settles (relation-versions.ts, warehouse.ts).
 * - Bounded: at most `maxCopies` copies and `maxRows` rows per account, least recently used dropped
 *   first; the file is emptied whenever the instance opens, so nothing outlives it.
 * - Only stored tables (`source.kind === 'table'`) whose known row count is at least `minRows`;
 *   relations without a version of their own (a draft model's SELECT) are always paged plainly.
 */
import { createHash } from 'node:crypto';
import {
  COUNT_COLUMN,
  compileCopyPage,
  compileCountQuery,
  compileOrderedCopy,
  pagePositions,
  type CompiledQuery,
  type ResultRow,
  type TableQuery,
} from '../../engine';
import { ORDERED_COPIES_DATABASE, type CopyEntry, type CopyRequest, type QueueMode } from './ordered-copy-store';
import { quoteQualified } from './quote';
import type { WarehouseExecutor } from './types';

/**
 * Where an answer came from: a copy, plain SQL while a copy is wanted but not ready, plain SQL
 * alone, the same query's recent answer (recent-answers.ts), or a shallow unfiltered page read by
 * its row-key bound (plainPage).
 */
export type CopyUse = 'hit' | 'miss' | 'plain' | 'answer' | 'keyBound';

/**
 * Unfiltered pages in the relation's default order are cheap with plain SQL until this deep (the
 * row key is usually stored in order); deeper ones are worth a copy. Shallower ones still use a
 * copy that exists, as the first page of a large table is otherwise a top-N over all of it.
 */
export const DEFAULT_ORDER_COPY_ROWS = 10_000;

/** A relation's rows as a paging request sees them. */
export interface CopyableQuery {
  /** The request as the engine compiles it (page included). */
  query: TableQuery;
  /** The rows the relation is known to hold; null when unknown, which never makes a copy. */
  rowEstimate: number | null;
  /** The page read within its row key's bound (the engine's keyBound), when the request allows one. */
  keyBoundPage?: CompiledQuery | null;
}

function hashOf(query: CompiledQuery): string {
  const text = JSON.stringify([query.sql, query.parameters], (_key, value: unknown) =>
    typeof value === 'bigint' ? { bigint: value.toString() } : value,
  );
  return createHash('sha256').update(text).digest('hex');
}

const isFiltered = (query: TableQuery) => query.filterGroups.some((group) => group.filters.length > 0);

/** The `schema.name` of a stored relation the cache may copy, or null. */
function copyableRelation(executor: WarehouseExecutor, { query, rowEstimate }: CopyableQuery): string | null {
  const { settings } = executor.orderedCopies;
  if (query.source.kind !== 'table' || settings.maxCopies < 1) return null;
  if (rowEstimate === null || rowEstimate < settings.minRows) return null;
  // A copy of every row would not fit.
  if (rowEstimate > settings.maxRows && !isFiltered(query)) return null;
  return `${query.source.schema}.${query.source.name}`;
}

function copyRequest(query: TableQuery, relation: string): CopyRequest {
  const copy = compileOrderedCopy(query);
  return { key: hashOf(copy.select), filterKey: hashOf(compileCountQuery(query)), relation, copy };
}

const tableOf = (entry: CopyEntry) => quoteQualified(ORDERED_COPIES_DATABASE, entry.name);

/** Drops copies the cache has already forgotten; a failure only leaves a table until the instance closes. */
export async function dropCopies(executor: WarehouseExecutor, entries: readonly CopyEntry[]): Promise<void> {
  for (const entry of entries) await executor.run(`DROP TABLE IF EXISTS ${tableOf(entry)}`).catch(() => undefined);
}

/**
 * The rows of `query.page`: from a copy when one is ready, else with `plain` (the compiled page
 * query), starting a copy's build afterwards when the request is an expensive kind.
 */
export async function pageVia(
  executor: WarehouseExecutor,
  request: CopyableQuery,
  plain: CompiledQuery,
): Promise<{ rows: readonly ResultRow[]; copy: CopyUse }> {
  return withRecentAnswer(executor, request, plain, () => pageFromCopyOrPlain(executor, request, plain));
}

/**
 * `work`'s answer, or the one it gave for the same query while the relation was at the version it
 * is now. Only stored relations with a version of their own (a known row count) are kept.
 */
async function withRecentAnswer(
  executor: WarehouseExecutor,
  { query, rowEstimate }: CopyableQuery,
  plain: CompiledQuery,
  work: () => Promise<{ rows: ResultRow[]; copy: CopyUse }>,
): Promise<{ rows: readonly ResultRow[]; copy: CopyUse }> {
  if (query.source.kind !== 'table' || rowEstimate === null) return work();
  const relation = `${query.source.schema}.${query.source.name}`;
  const answers = executor.recentAnswers;
  // Read before the query runs: a write landing meanwhile moves the version past this answer.
  const version = executor.relationVersion(relation);
  const key = hashOf(plain);
  const kept = answers.get(executor.accountId, relation, version, key);
  if (kept) return { rows: kept, copy: 'answer' };
  const result = await work();
  answers.put(executor.accountId, relation, version, key, result.rows);
  return result;
}

async function pageFromCopyOrPlain(
  executor: WarehouseExecutor,
  request: CopyableQuery,
  plain: CompiledQuery,
): Promise<{ rows: ResultRow[]; copy: CopyUse }> {
  const relation = copyableRelation(executor, request);
  if (relation === null) return plainPage(executor, request, plain);
  const { query } = request;
  const copies = executor.orderedCopies;
  const version = executor.relationVersion(relation);
  const worthBuilding =
    isFiltered(query) || query.sorting.length > 0 || pagePositions(query.page).last > DEFAULT_ORDER_COPY_ROWS;
  // The common first page of a table with no copies: nothing to look up.
  if (!worthBuilding && !copies.hasRelation(relation, version)) return plainPage(executor, request, plain);
  const wanted = copyRequest(query, relation);
  const entry = copies.find(wanted.key, version);
  if (entry) {
    const rows = await readCopy(executor, entry, compileCopyPage(location(entry), entry.shape, query.page));
    if (rows) {
      copies.stats.hits += 1;
      return { rows, copy: 'hit' };
    }
  }
  if (!worthBuilding) return plainPage(executor, request, plain);
  copies.stats.misses += 1;
  const rows = await executor.all(plain);
  requestBuild(executor, wanted, 'replace');
  return { rows, copy: 'miss' };
}

/**
 * The page without a copy: a shallow page first by its key bound when the request has one (which
 * is the page exactly when it comes back full); else, and for every other page, `plain`.
 */
async function plainPage(
  executor: WarehouseExecutor,
  { query, keyBoundPage }: CopyableQuery,
  plain: CompiledQuery,
): Promise<{ rows: ResultRow[]; copy: CopyUse }> {
  if (keyBoundPage && pagePositions(query.page).last <= DEFAULT_ORDER_COPY_ROWS) {
    const rows = await executor.all(keyBoundPage);
    if (rows.length === query.page.pageSize) {
      executor.orderedCopies.stats.keyBound += 1;
      return { rows, copy: 'keyBound' };
    }
  }
  return { rows: await executor.all(plain), copy: 'plain' };
}

/**
 * The number of rows matching `query`'s filters: a copy's row count when a copy of those filters is
 * ready, else `plain` (the compiled count query). A filtered count with no copy of its filters made
 * or coming asks for one in the default order, unless another build is already waiting.
 */
export async function countVia(
  executor: WarehouseExecutor,
  request: CopyableQuery,
  plain: CompiledQuery,
): Promise<{ count: number; copy: CopyUse }> {
  const { rows, copy } = await withRecentAnswer(executor, request, plain, async () => {
    const counted = await countFromCopyOrPlain(executor, request, plain);
    return { rows: [{ [COUNT_COLUMN]: counted.count }], copy: counted.copy };
  });
  return { count: Number(rows[0]?.[COUNT_COLUMN] ?? 0), copy };
}

async function countFromCopyOrPlain(
  executor: WarehouseExecutor,
  request: CopyableQuery,
  plain: CompiledQuery,
): Promise<{ count: number; copy: CopyUse }> {
  const relation = copyableRelation(executor, request);
  const countPlain = async () => Number((await executor.all(plain))[0]?.[COUNT_COLUMN] ?? 0);
  // An unfiltered count is DuckDB's own metadata work: nothing to gain.
  if (relation === null || !isFiltered(request.query)) return { count: await countPlain(), copy: 'plain' };
  const copies = executor.orderedCopies;
  const query: TableQuery = { ...request.query, sorting: [] };
  const wanted = copyRequest(query, relation);
  const entry = copies.findByFilter(wanted.filterKey, relation, executor.relationVersion(relation));
  if (entry) {
    copies.stats.hits += 1;
    return { count: entry.rowCount, copy: 'hit' };
  }
  copies.stats.misses += 1;
  const count = await countPlain();
  if (!copies.coversFilter(wanted.filterKey)) requestBuild(executor, wanted, 'if-free');
  return { count, copy: 'miss' };
}

const location = (entry: CopyEntry) => ({ schema: ORDERED_COPIES_DATABASE, name: entry.name });

/** A copy's page, or null when the copy cannot be read (dropped by a write meanwhile): then plain SQL answers. */
async function readCopy(
  executor: WarehouseExecutor,
  entry: CopyEntry,
  page: CompiledQuery,
): Promise<ResultRow[] | null> {
  try {
    return await executor.all(page);
  } catch {
    if (executor.orderedCopies.remove(entry)) await dropCopies(executor, [entry]);
    return null;
  }
}

function requestBuild(executor: WarehouseExecutor, request: CopyRequest, mode: QueueMode): void {
  const version = executor.relationVersion(request.relation);
  if (executor.orderedCopies.enqueue(request, version, mode) === 'start') void runBuilds(executor, request);
}

/** Builds `first`, then whatever waits behind it, one at a time. */
async function runBuilds(executor: WarehouseExecutor, first: CopyRequest): Promise<void> {
  for (let request: CopyRequest | null = first; request; request = executor.orderedCopies.finishBuild()) {
    await buildCopy(executor, request);
  }
}

/** Makes one copy and keeps it, unless a write moved the relation on meanwhile. Never throws. */
async function buildCopy(executor: WarehouseExecutor, request: CopyRequest): Promise<void> {
  const copies = executor.orderedCopies;
  // Read before the copy's rows are: a write landing later moves the version past this copy.
  const version = executor.relationVersion(request.relation);
  const name = copies.newName(request.key);
  const table = quoteQualified(ORDERED_COPIES_DATABASE, name);
  const { select, columns, position } = request.copy;
  try {
    // One lease for the whole build: the instance (and its copies file) stays open until the copy is kept.
    await executor.session(async (session) => {
      await session.run(`CREATE TABLE ${table} AS ${select.sql}`, select.parameters);
      const [counted] = await session.all({ sql: `SELECT count(*) AS n FROM ${table}`, parameters: [] });
      copies.stats.builds += 1;
      if (executor.relationVersion(request.relation) !== version) {
        copies.stats.discarded += 1;
        await session.run(`DROP TABLE ${table}`);
        return;
      }
      const rowCount = Number(counted?.n ?? 0);
      const { key, filterKey, relation } = request;
      const evicted = copies.add({ key, filterKey, relation, version, name, shape: { columns, position }, rowCount });
      for (const entry of evicted) await session.run(`DROP TABLE IF EXISTS ${tableOf(entry)}`).catch(() => undefined);
      // Over maxRows on its own: asking again would only build it again.
      if (evicted.some((entry) => entry.name === name)) copies.markFailed(request, version, false);
    });
  } catch {
    copies.markFailed(request, version);
    await executor.run(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  }
}
