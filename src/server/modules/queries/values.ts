/**
 * Distinct values of the account's small text columns, so 'orders from France' finds the column
 * holding France. Read through the engine (a pivot with one row field and no values is the
 * distinct keys), at most MAX_VALUES + 1 per column: a column with more is not a value list.
 * Kept per account until a sync finishes or the table's relation is written (derived-cache.ts).
 */
import { compilePivotQuery, shapePivotRows } from '../../../engine';
import type { TableSummary } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { keepDerived, keptDerived } from '../../warehouse/derived-cache';
import { engineColumns, type TableRelation } from '../tables/relations';

export const MAX_VALUES = 200;
const MAX_TEXT = 80;

export async function distinctValues(
  deps: Deps,
  ctx: AccountContext,
  table: TableSummary,
  relation: TableRelation,
  generation: number,
): Promise<Map<string, string[]>> {
  const executor = deps.warehouse.forAccount(ctx.accountId);
  const source = relation.source;
  const relations = source.kind === 'table' ? [`${source.schema}.${source.name}`] : [];
  const key = `queries-values:${generation}:${table.type}:${table.id}`;
  const kept = keptDerived<[string, string[]][]>(executor, key);
  if (kept) return new Map(kept);
  const writesBefore = executor.writesSettled();
  const out: [string, string[]][] = [];
  const columns = engineColumns(relation);
  for (const column of relation.columns.filter((c) => c.type === 'Text')) {
    const { compiled, layout } = compilePivotQuery({
      relation: source,
      columns,
      pivot: {
        rows: [{ column: column.columnKey }],
        columns: [],
        values: [],
        showRowTotals: false,
        showColumnTotals: false,
      },
      columnKeys: [],
      page: { offset: 0, limit: MAX_VALUES + 1 },
    });
    const rows = shapePivotRows(layout, await executor.all(compiled));
    if (rows.length > MAX_VALUES) continue;
    const cellKey = layout.columns[0]?.key ?? '';
    const values = rows
      .map((r) => r.cells[cellKey])
      .filter((v): v is string => typeof v === 'string' && v.trim().length > 0 && v.length <= MAX_TEXT);
    out.push([column.columnKey, values]);
  }
  // Models are views over other tables: kept by the account's generation only.
  keepDerived(executor, key, writesBefore, relations, out);
  return new Map(out);
}
