/**
 * Arithmetic that overflows its type (a formula column multiplying large integers, a filter or a
 * pivot over one) fails in DuckDB with an "Out of Range Error" that names the operation but not the
 * column. It is the user's data and formulas, so it becomes a 400 naming the column: each column of
 * the relation is read alone until the one that overflows is found.
 */
import { compilePageQuery } from '../../../engine';
import type { AppError } from '../../errors';
import { badInput } from '../../errors';
import { isOutOfRange, outOfRangeDetail } from '../../client-errors';
import type { WarehouseExecutor } from '../../warehouse/types';
import type { TableRelation } from './relations';

/** Columns read one by one at most: an error path, but a wide relation should not scan without end. */
const MAX_PROBES = 100;

async function overflows(executor: WarehouseExecutor, relation: TableRelation, columnKey: string): Promise<boolean> {
  try {
    // The column alone, sorted by itself: its value is computed for every row, and no other column's
    // (a filter such as IS NOT NULL may be simplified by DuckDB to the column's inputs, and would not).
    const probe = compilePageQuery({
      source: relation.source,
      columns: relation.columns.map((c) => ({ columnKey: c.columnKey, type: c.type, displayName: c.displayName })),
      rowKey: null,
      select: [columnKey],
      filterGroups: [],
      sorting: [{ columnKey, direction: 'Ascending' }],
      page: { page: 1, pageSize: 1 },
    });
    await executor.all(probe);
    return false;
  } catch (error) {
    // A column that cannot be sorted (a JSON document) cannot overflow either.
    return isOutOfRange(error);
  }
}

/** The 400 for an overflow while reading `relation`, naming its column when one alone overflows. */
export async function overflowError(
  executor: WarehouseExecutor,
  relation: TableRelation,
  error: unknown,
): Promise<AppError> {
  const detail = outOfRangeDetail(error);
  for (const column of relation.columns.slice(0, MAX_PROBES)) {
    if (await overflows(executor, relation, column.columnKey)) {
      return badInput(
        `The column "${column.displayName}" has a value out of range for its type (${detail}). ` +
          'Change its formula so its numbers stay smaller, or filter out the rows that overflow.',
      );
    }
  }
  return badInput(`A number is out of range for its type (${detail}). Change the formula or filter that computes it.`);
}

/** Runs a read of `relation`; an arithmetic overflow becomes a 400 naming the column. */
export async function namingOverflow<T>(
  executor: WarehouseExecutor,
  relation: TableRelation,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isOutOfRange(error)) throw error;
    throw await overflowError(executor, relation, error);
  }
}
