/**
 * Renders the SQL tree to text plus parameters, one case per node kind. Values become `$n`
 * placeholders in the order they appear; identifiers go through `dialect.quoteIdentifier`; nothing
 * else reaches the text.
 */
import type { SqlDialect } from './dialect';
import type { Expr, OrderItem, SelectStatement } from './sql-ast';
import type { CompiledQuery, SqlValue } from './sql';

class Renderer {
  readonly parameters: SqlValue[] = [];

  constructor(private readonly dialect: SqlDialect) {}

  select(statement: SelectStatement): string {
    const d = this.dialect;
    const items = statement.items.map((item) => {
      const sql = this.expr(item.expr);
      return item.alias === null ? sql : `${sql} AS ${d.quoteIdentifier(item.alias)}`;
    });
    const parts = [`SELECT ${items.join(', ')}`];
    parts.push(`FROM ${d.quoteIdentifier(statement.from.schema)}.${d.quoteIdentifier(statement.from.name)}`);
    if (statement.where) parts.push(`WHERE ${this.expr(statement.where)}`);
    if (statement.orderBy.length > 0) parts.push(`ORDER BY ${statement.orderBy.map((o) => this.order(o)).join(', ')}`);
    const paging = d.limitOffset(checkCount(statement.limit), checkCount(statement.offset));
    if (paging) parts.push(paging);
    return parts.join(' ');
  }

  private order(item: OrderItem): string {
    return this.dialect.orderItem(this.expr(item.expr), item.order);
  }

  private expr(node: Expr): string {
    const d = this.dialect;
    switch (node.kind) {
      case 'column':
        return d.quoteIdentifier(node.name);
      case 'param':
        this.parameters.push(node.value);
        return d.typed(d.placeholder(this.parameters.length), node.type);
      case 'constant':
        return d.literal(node.value);
      case 'text-of': {
        const inner = this.expr(node.expr);
        if (node.shape === 'array') return d.arrayToText(inner);
        return node.shape === 'json' ? d.jsonToText(inner) : d.castToText(inner);
      }
      case 'array-length':
        return d.arrayLength(this.expr(node.expr));
      case 'contains':
        // Haystack first: placeholders are numbered in reading order.
        return d.containsInsensitive(this.expr(node.haystack), this.expr(node.needle));
      case 'compare':
        return `${this.expr(node.left)} ${node.op} ${this.expr(node.right)}`;
      case 'distinct-from':
        return d.distinctFrom(this.expr(node.left), this.expr(node.right));
      case 'between':
        return `(${this.expr(node.expr)} BETWEEN ${this.expr(node.low)} AND ${this.expr(node.high)})`;
      case 'is-null':
        return `${this.expr(node.expr)} IS ${node.negated ? 'NOT ' : ''}NULL`;
      case 'not':
        return selfDelimited(node.expr) ? `NOT ${this.expr(node.expr)}` : `NOT (${this.expr(node.expr)})`;
      case 'and':
      case 'or':
        return this.junction(node.kind === 'and' ? 'AND' : 'OR', node.items);
      case 'in-select':
        return `${this.expr(node.expr)} IN (${this.select(node.select)})`;
      case 'count-star':
        return 'count(*)';
    }
  }

  /** Always parenthesised when joining two or more, so precedence never depends on the reader. */
  private junction(keyword: 'AND' | 'OR', items: readonly Expr[]): string {
    if (items.length === 0) return keyword === 'AND' ? 'TRUE' : 'FALSE';
    const rendered = items.map((item) => this.expr(item));
    return rendered.length === 1 ? rendered[0]! : `(${rendered.join(` ${keyword} `)})`;
  }
}

/** Whether a node's text is already one unit (a call or a parenthesised group), so NOT needs no parentheses. */
function selfDelimited(node: Expr): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.items.length !== 1 || selfDelimited(node.items[0]!);
    case 'contains':
    case 'between':
    case 'text-of':
    case 'array-length':
    case 'count-star':
    case 'column':
      return true;
    default:
      return false;
  }
}

function checkCount(value: number | null): number | null {
  if (value !== null && !(Number.isSafeInteger(value) && value >= 0)) {
    throw new Error(`LIMIT and OFFSET must be whole numbers, got ${value}`);
  }
  return value;
}

export function renderSelect(statement: SelectStatement, dialect: SqlDialect): CompiledQuery {
  const renderer = new Renderer(dialect);
  const sql = renderer.select(statement);
  return { sql, parameters: renderer.parameters };
}
