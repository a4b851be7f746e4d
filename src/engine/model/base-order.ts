/**
 * Unsorted pages of a model in the base table's row order, read from only the first
 * `offset + limit` base rows. When every join keeps all rows of the tables before it (LEFT or FULL
 * with the tree on the left) and the model's filters read only base columns, each base row yields
 * at least one model row, so the rows of any page ordered by the base row key (then the joined
 * tables' keys, then every column) all come from those first base rows. The base is then a small
 * top-N subquery instead of the whole table, and the join touches a page's worth of rows.
 */
import { duckdbDialect } from '../dialects/duckdb';
import type { Expr, OrderItem, SelectStatement } from '../sql-ast';
import { renderSelect } from '../render';
import type { CompiledQuery } from '../sql';
import { keyBound, type CompileOptions } from '../table-query';
import { compileModelSelect } from './compile';
import type { ModelSpec } from './ir';

/** Every column reference in an expression tree (any node kind, nested at any depth). */
function columnRefs(node: unknown, found: { table?: string }[] = []): { table?: string }[] {
  if (Array.isArray(node)) {
    for (const item of node) columnRefs(item, found);
  } else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (record.kind === 'column') found.push({ table: record.table as string | undefined });
    for (const value of Object.values(record)) columnRefs(value, found);
  }
  return found;
}

const column = (table: string, name: string): Expr => ({ kind: 'column', table, name });

/**
 * Null when the model's shape does not allow it; callers then page the usual way. With `keyBound`,
 * the first base rows are read within the base key's bound (the engine's keyBound): the page is
 * then right only when it comes back full, and must be read again without it otherwise.
 */
export function compileModelPageInBaseOrder(
  spec: ModelSpec,
  page: { offset: number; limit: number },
  options: CompileOptions & { keyBound?: boolean } = {},
): CompiledQuery | null {
  const dialect = options.dialect ?? duckdbDialect;
  const { statement } = compileModelSelect(spec, { dialect });
  const from = statement.from;
  if (from.kind !== 'table' || from.alias === undefined) return null;
  const baseAlias = from.alias;
  const base = spec.sources.find((s) => s.relation.schema === from.schema && s.relation.name === from.name);
  if (!base?.rowKey) return null;
  const joins = statement.joins ?? [];
  if (joins.some((join) => join.type !== 'left' && join.type !== 'full')) return null;
  if (columnRefs(statement.where).some((ref) => ref.table !== baseAlias)) return null;

  const baseColumns = [...new Set([base.rowKey, ...base.columns.map((c) => c.columnKey)])];
  const bound = options.keyBound ? keyBound(column(baseAlias, base.rowKey), page) : null;
  const where =
    bound && statement.where ? { kind: 'and' as const, items: [statement.where, bound] } : (bound ?? statement.where);
  const firstBaseRows: SelectStatement = {
    kind: 'select',
    items: baseColumns.map((name) => ({ expr: column(baseAlias, name), alias: null })),
    from,
    where,
    orderBy: [{ expr: column(baseAlias, base.rowKey), order: 'asc' }],
    limit: page.offset + page.limit,
    offset: null,
  };
  const joinedKeys: OrderItem[] = joins.flatMap((join) => {
    const source = join.source;
    if (source.kind !== 'table' || source.alias === undefined) return [];
    const spec_ = spec.sources.find((s) => s.relation.schema === source.schema && s.relation.name === source.name);
    return spec_?.rowKey ? [{ expr: column(source.alias, spec_.rowKey), order: 'asc' as const }] : [];
  });
  // Each row of a tree of LEFT and FULL joins is one combination of source rows (or NULLs), made
  // once: with a row key for every source, the keys alone order the rows totally. Otherwise the
  // columns break the ties the keys leave.
  const tieBreak: OrderItem[] =
    joinedKeys.length === joins.length ? [] : statement.items.map((item) => ({ expr: item.expr, order: 'asc' }));
  const paged: SelectStatement = {
    ...statement,
    from: { kind: 'subquery', select: firstBaseRows, alias: baseAlias },
    where: null,
    orderBy: [{ expr: column(baseAlias, base.rowKey), order: 'asc' }, ...joinedKeys, ...tieBreak],
    limit: page.limit,
    offset: page.offset,
  };
  return renderSelect(paged, dialect);
}
