/**
 * Runs a plain-data query on the account's warehouse: resolve the table, compile through the
 * engine, read the rows and their full count. The engine's user-fixable problems come back as
 * `problem`, said plainly in the chat.
 */
import { isModelError, type CompiledQuery } from '../../../engine';
import type { AccountContext, Deps } from '../../context';
import { namingOverflow } from '../tables/overflow';
import { compileQuestion, showSql } from './compile';
import type { PlainQuery } from './plain-query';
import { resolveTarget } from './targets';

export interface QueryRun {
  headers: string[];
  rows: unknown[][];
  rowCount: number;
  sql: string;
}

/** Most groups a summary reads to count them (the chat shows the first rows). */
const MAX_SUMMARY_ROWS = 10_000;

export async function runQuery(
  deps: Deps,
  ctx: AccountContext,
  query: PlainQuery,
  options: { firstRows: number },
): Promise<QueryRun> {
  const executor = deps.warehouse.forAccount(ctx.accountId);
  const { target, relation } = await resolveTarget(deps, ctx, query.table.type, query.table.id, query.filters);
  const isSummary = query.measures.length > 0;
  const compiled = compileQuestion(query, target, isSummary ? MAX_SUMMARY_ROWS : options.firstRows);
  return namingOverflow(executor, relation, async () => {
    const rows = compiled.read(await executor.all(compiled.statement));
    let rowCount = rows.length;
    if (compiled.kind === 'rows') {
      const counted = await executor.all(compiled.count);
      const total = Number(Object.values(counted[0] ?? {})[0] ?? rows.length);
      rowCount = query.limit !== null ? Math.min(total, query.limit) : total;
    }
    return {
      headers: compiled.headers,
      rows: rows.slice(0, options.firstRows),
      rowCount,
      sql: showSql(compiled.statement),
    };
  });
}

/** All rows of a stored query, page by page (the export). */
export async function* runAllPages(
  deps: Deps,
  ctx: AccountContext,
  query: PlainQuery,
  options: { pageRows: number; maxRows: number; signal?: AbortSignal },
): AsyncIterable<{ headers: string[]; rows: unknown[][] }> {
  const executor = deps.warehouse.forAccount(ctx.accountId);
  const { target } = await resolveTarget(deps, ctx, query.table.type, query.table.id, query.filters);
  let read = 0;
  for (let page = 1; read < options.maxRows; page++) {
    options.signal?.throwIfAborted();
    const compiled = compileQuestion(query, target, options.pageRows, page);
    let rows = compiled.read(await executor.all(compiled.statement as CompiledQuery));
    if (query.limit !== null) rows = rows.slice(0, Math.max(0, query.limit - read));
    rows = rows.slice(0, options.maxRows - read);
    if (rows.length === 0 && page > 1) return;
    yield { headers: compiled.headers, rows };
    read += rows.length;
    if (rows.length < options.pageRows) return;
  }
}

export { isModelError };
