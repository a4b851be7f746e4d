/**
 * The first of a pivot's two queries: the distinct combinations of its column fields' values (after
 * the pivot's filters), as text, in the pivot's order. The second query makes one cell per
 * combination and value, so their number is capped (`PIVOT_MAX_COLUMN_KEYS`): the key query asks for
 * one more than the limit, and `readPivotColumnKeys` refuses the result when that one came back.
 */
import { PIVOT_MAX_COLUMN_KEYS, type PivotColumnKey } from '../../shared/pivots';
import { columnLabel } from '../columns';
import { duckdbDialect } from '../dialects/duckdb';
import { ModelError } from '../errors';
import type { RelationColumn } from '../ir';
import { renderSelect } from '../render';
import type { SelectItem } from '../sql-ast';
import type { CompiledQuery, ResultRow } from '../sql';
import {
  aggregateValue,
  alias,
  columnKeyText,
  grainStart,
  groupingExpr,
  hasGrain,
  partialAggregates,
  partialKeys,
} from './expressions';
import { buildGroupedQuery, sortDepths, withItems, type GroupField } from './grouped-query';
import type { PivotKeysInput, PivotSpec } from './ir';
import { resolvePivot } from './resolve';

export function compilePivotColumnKeys(input: PivotKeysInput): CompiledQuery {
  const { limit } = input;
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > PIVOT_MAX_COLUMN_KEYS) {
    throw new Error(`The column key limit must be a whole number from 0 to ${PIVOT_MAX_COLUMN_KEYS}, got ${limit}`);
  }
  const pivot = resolvePivot(input);
  const baseItems: SelectItem[] = [];
  const fields: GroupField[] = pivot.columns.map((field, index) => {
    const text = alias.columnText(index);
    // Text fields are their own text; other types sort by value (numbers in numeric order), and
    // a grained date field by its group's first day, its key being the group's label.
    const native = field.column.type === 'Text' ? null : alias.columnValue(index);
    if (native)
      baseItems.push({ expr: hasGrain(field) ? grainStart(field) : groupingExpr(field.column), alias: native });
    baseItems.push({ expr: columnKeyText(field), alias: text });
    const valueIndex = field.valueIndex;
    if (valueIndex !== null && !baseItems.some((item) => item.alias === alias.value(valueIndex))) {
      baseItems.push({ expr: groupingExpr(pivot.values[valueIndex]!.column), alias: alias.value(valueIndex) });
    }
    return {
      keys: native ? [native, text] : [text],
      order: field.order,
      sortValue: valueIndex === null ? null : aggregateValue(pivot.values[valueIndex]!, valueIndex, null),
    };
  });
  const depth = fields.length;
  const sortValues = [
    ...new Set(pivot.columns.flatMap((field) => (field.valueIndex === null ? [] : [field.valueIndex]))),
  ];
  const statement = buildGroupedQuery({
    base: {
      kind: 'select',
      // Without column fields there are no keys: a valid statement that returns no rows.
      items: withItems(baseItems),
      from: pivot.from,
      where: pivot.where,
      orderBy: [],
      limit: null,
      offset: null,
    },
    partial: {
      keys: sortValues.flatMap((index) => partialKeys(pivot.values[index]!, index)),
      items: sortValues.flatMap((index) => partialAggregates(pivot.values[index]!, index)),
    },
    fields,
    shownDepths: [depth],
    windowDepths: sortDepths(fields),
    cells: () => [],
    output: pivot.columns.map((_, index) => alias.columnText(index)),
    limit: depth === 0 ? 0 : limit + 1,
    offset: 0,
  });
  return renderSelect(statement, input.dialect ?? duckdbDialect);
}

export interface ReadColumnKeysInput {
  columns: readonly RelationColumn[];
  pivot: Pick<PivotSpec, 'columns'>;
  /** The key query's rows. */
  rows: readonly ResultRow[];
  /** The limit the key query was compiled with. */
  limit: number;
}

/** The key query's rows as column keys, or a ModelError naming the column fields when there are too many. */
export function readPivotColumnKeys(input: ReadColumnKeysInput): PivotColumnKey[] {
  const { pivot, rows, limit } = input;
  if (rows.length > limit) {
    const labels = pivot.columns.map((field) => {
      const column = input.columns.find((candidate) => candidate.columnKey === field.column);
      return `"${column ? columnLabel(column) : field.column}"`;
    });
    const subject =
      labels.length === 1
        ? `The column field ${labels[0]} has more than ${limit} values`
        : `The column fields ${labels.join(', ')} have more than ${limit} combinations of values`;
    throw new ModelError(
      `${subject}; a pivot shows at most ${limit} columns per value. Filter the pivot, or choose a column field with fewer values.`,
      'too_many_column_keys',
      ['columns'],
    );
  }
  return rows.map((row) => pivot.columns.map((_, index) => keyText(row[alias.columnText(index)])));
}

function keyText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}
