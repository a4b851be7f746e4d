/**
 * Renders the SQL tree to text plus parameters, one case per node kind. Values become `$n`
 * placeholders in the order they appear; identifiers go through `dialect.quoteIdentifier`; nothing
 * else reaches the text.
 */
import type { SqlDialect } from './dialect';
import { duckdbDialect } from './dialects/duckdb';
import type { Expr, FromSource, JoinType, OrderItem, SelectStatement } from './sql-ast';
import type { CompiledQuery, SqlValue } from './sql';

const JOIN_KEYWORDS: Record<JoinType, string> = {
  inner: 'INNER JOIN',
  left: 'LEFT JOIN',
  right: 'RIGHT JOIN',
  full: 'FULL JOIN',
};

class Renderer {
  readonly parameters: SqlValue[] = [];
  /** Nesting depth of the statement being rendered; each level indents its lines by two spaces. */
  private depth = 0;

  constructor(private readonly dialect: SqlDialect) {}

  /**
   * One clause per line, select items and joins on lines of their own, nested statements
   * indented: "Show SQL" shows this text, and it is also the text that runs.
   */
  select(statement: SelectStatement): string {
    const d = this.dialect;
    const items = statement.items.map((item) => {
      const sql = this.expr(item.expr);
      return item.alias === null ? sql : `${sql} AS ${d.quoteIdentifier(item.alias)}`;
    });
    let sql = `SELECT${items.map((item) => `${this.newline(1)}${item}`).join(',')}`;
    sql += `${this.newline()}FROM ${this.source(statement.from)}`;
    for (const join of statement.joins ?? []) {
      sql += `${this.newline(1)}${JOIN_KEYWORDS[join.type]} ${this.source(join.source)} ON ${this.expr(join.on)}`;
    }
    if (statement.where) sql += `${this.newline()}WHERE ${this.expr(statement.where)}`;
    const groupBy = this.groupBy(statement.groupBy);
    if (groupBy) sql += `${this.newline()}${groupBy}`;
    if (statement.orderBy.length > 0) {
      sql += `${this.newline()}ORDER BY ${statement.orderBy.map((o) => this.order(o)).join(', ')}`;
    }
    const paging = d.limitOffset(checkCount(statement.limit), checkCount(statement.offset));
    if (paging) sql += `${this.newline()}${paging}`;
    return sql;
  }

  /** A plain GROUP BY for one set of keys (`GROUP BY ()`: one row, even over no rows), GROUPING SETS for several. */
  private groupBy(groupBy: SelectStatement['groupBy']): string | null {
    const sets = (groupBy?.sets ?? []).map((set) => set.map((expr) => this.expr(expr)).join(', '));
    if (sets.length === 0) return null;
    if (sets.length === 1) return `GROUP BY ${sets[0] || '()'}`;
    return `GROUP BY GROUPING SETS (${sets.map((set) => `(${set})`).join(', ')})`;
  }

  /** `func([DISTINCT] arg) [FILTER (WHERE ..)] [OVER (PARTITION BY ..)]`, rendered in reading order. */
  private aggregate(node: Extract<Expr, { kind: 'aggregate' }>): string {
    const arg = node.arg === null ? '*' : `${node.distinct ? 'DISTINCT ' : ''}${this.expr(node.arg)}`;
    let sql = `${node.func}(${arg})`;
    if (node.filter) sql += ` FILTER (WHERE ${this.expr(node.filter)})`;
    if (node.over) {
      const partition = node.over.partitionBy.map((expr) => this.expr(expr)).join(', ');
      sql += partition ? ` OVER (PARTITION BY ${partition})` : ' OVER ()';
    }
    return sql;
  }

  /** A line break indented to the current depth plus `extra` levels. */
  private newline(extra = 0): string {
    return `\n${'  '.repeat(this.depth + extra)}`;
  }

  /** A statement inside another, in parentheses, its lines one level deeper. */
  private nested(statement: SelectStatement): string {
    this.depth += 1;
    const body = `${this.newline()}${this.select(statement)}`;
    this.depth -= 1;
    return `(${body}${this.newline()})`;
  }

  private source(source: FromSource): string {
    const d = this.dialect;
    if (source.kind === 'subquery') return `${this.nested(source.select)} AS ${d.quoteIdentifier(source.alias)}`;
    const table = `${d.quoteIdentifier(source.schema)}.${d.quoteIdentifier(source.name)}`;
    return source.alias === undefined ? table : `${table} AS ${d.quoteIdentifier(source.alias)}`;
  }

  private order(item: OrderItem): string {
    return this.dialect.orderItem(this.expr(item.expr), item.order);
  }

  private expr(node: Expr): string {
    const d = this.dialect;
    switch (node.kind) {
      case 'column':
        return node.table === undefined
          ? d.quoteIdentifier(node.name)
          : `${d.quoteIdentifier(node.table)}.${d.quoteIdentifier(node.name)}`;
      case 'param':
        this.parameters.push(node.value);
        return d.typed(d.placeholder(this.parameters.length), node.type);
      case 'constant':
        return d.literal(node.value);
      case 'text-of':
        return d.textOf(this.expr(node.expr), node.shape);
      case 'array-length':
        return d.arrayLength(this.expr(node.expr));
      case 'contains':
        // Haystack first: placeholders are numbered in reading order.
        return d.containsInsensitive(this.expr(node.haystack), this.expr(node.needle));
      case 'compare':
        return `${this.operand(node.left)} ${node.op} ${this.operand(node.right)}`;
      case 'distinct-from':
        return d.distinctFrom(this.operand(node.left), this.operand(node.right));
      case 'between':
        return `(${this.expr(node.expr)} BETWEEN ${this.expr(node.low)} AND ${this.expr(node.high)})`;
      case 'is-null':
        return `${this.operand(node.expr)} IS ${node.negated ? 'NOT ' : ''}NULL`;
      case 'not':
        return selfDelimited(node.expr) ? `NOT ${this.expr(node.expr)}` : `NOT (${this.expr(node.expr)})`;
      case 'and':
      case 'or':
        return this.junction(node.kind === 'and' ? 'AND' : 'OR', node.items);
      case 'in-select':
        return `${this.expr(node.expr)} IN ${this.nested(node.select)}`;
      case 'count-star':
        return 'count(*)';
      case 'try-cast':
        return d.tryCast(this.expr(node.expr), node.type);
      case 'date-trunc':
        return d.truncateDate(this.expr(node.expr), node.grain);
      case 'date-label':
        return d.dateLabel(this.expr(node.expr), node.grain);
      case 'abs-difference': {
        const double = (side: Expr) => `CAST(${this.expr(side)} AS ${d.typeName('double')})`;
        return d.absDifference(this.expr(node.left), this.expr(node.right), {
          left: double(node.left),
          right: double(node.right),
        });
      }
      case 'arithmetic':
        return `(${this.expr(node.left)} ${node.op} ${this.expr(node.right)})`;
      case 'negate':
        // The space keeps a negative literal from turning `--` into a comment.
        return `(- ${this.expr(node.expr)})`;
      case 'func':
        return d.callFunction(
          node.name,
          node.args.map((arg) => this.expr(arg)),
        );
      case 'case': {
        const whens = node.whens.map((w) => ` WHEN ${this.expr(w.when)} THEN ${this.expr(w.then)}`).join('');
        return `CASE${whens}${node.else === null ? '' : ` ELSE ${this.expr(node.else)}`} END`;
      }
      case 'cast':
        return `CAST(${this.expr(node.expr)} AS ${d.typeName(node.type)})`;
      case 'nullif':
        return `NULLIF(${this.expr(node.expr)}, ${this.expr(node.value)})`;
      case 'date-part':
        return d.datePart(node.part, this.expr(node.expr));
      case 'date-add':
        return d.addToDate(this.expr(node.expr), this.expr(node.amount), node.grain);
      case 'date-diff':
        return d.dateDiff(node.grain, this.expr(node.start), this.expr(node.end));
      case 'aggregate':
        return this.aggregate(node);
      case 'grouping':
        return `GROUPING(${node.args.map((arg) => this.expr(arg)).join(', ')})`;
      case 'row-number':
        return `row_number() OVER (ORDER BY ${node.orderBy.map((o) => this.order(o)).join(', ')})`;
    }
  }

  /** An operand of a comparison or IS NULL, parenthesised when it is itself a bare condition. */
  private operand(node: Expr): string {
    return isBareCondition(node) ? `(${this.expr(node)})` : this.expr(node);
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
    case 'try-cast':
    case 'date-trunc':
    case 'date-label':
    case 'abs-difference':
    case 'arithmetic':
    case 'negate':
    case 'func':
    case 'case':
    case 'cast':
    case 'nullif':
    case 'date-part':
    case 'date-add':
    case 'date-diff':
    case 'aggregate':
    case 'grouping':
    case 'row-number':
      return true;
    default:
      return false;
  }
}

/** Conditions rendered without parentheses, which would bind wrongly as an operand of `=` or IS NULL. */
function isBareCondition(node: Expr): boolean {
  switch (node.kind) {
    case 'compare':
    case 'distinct-from':
    case 'is-null':
    case 'not':
      return true;
    case 'and':
    case 'or':
      return node.items.length === 1 && isBareCondition(node.items[0]!);
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

export function renderSelect(statement: SelectStatement, dialect: SqlDialect = duckdbDialect): CompiledQuery {
  const renderer = new Renderer(dialect);
  const sql = renderer.select(statement);
  return { sql, parameters: renderer.parameters };
}
