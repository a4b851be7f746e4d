/** Looks up the column keys a request names among the relation's known columns. */
import { checkIdentifier } from './dialect';
import { ModelError, type ModelErrorLocation } from './errors';
import type { RelationColumn, TableQuery } from './ir';
import type { Expr } from './sql-ast';

/** How a column is named to the user in messages. */
export function columnLabel(column: RelationColumn): string {
  return column.displayName || column.columnKey;
}

export class ColumnScope {
  private readonly byKey = new Map<string, RelationColumn>();
  readonly rowKey: string | null;

  /**
   * `expressions` gives a column's value as an SQL expression (a model column: a qualified source
   * column, a conversion, a formula); a column without one is read by its stored name.
   */
  constructor(
    query: Pick<TableQuery, 'columns' | 'rowKey'>,
    private readonly expressions: ReadonlyMap<string, Expr> = new Map(),
  ) {
    query.columns.forEach((column, index) => {
      checkIdentifier(column.columnKey, ['columns', index, 'columnKey']);
      // Two columns with one key is a bug in whoever described the relation, not a user mistake.
      if (this.byKey.has(column.columnKey)) throw new Error(`Column "${column.columnKey}" is listed twice`);
      this.byKey.set(column.columnKey, column);
    });
    if (query.rowKey !== null) checkIdentifier(query.rowKey, ['rowKey']);
    this.rowKey = query.rowKey;
  }

  get all(): RelationColumn[] {
    return [...this.byKey.values()];
  }

  /** A known column, or a ModelError naming the key. */
  resolve(columnKey: string, location: ModelErrorLocation): RelationColumn {
    const column = this.byKey.get(columnKey);
    if (!column) throw new ModelError(`Unknown column "${columnKey}"`, 'unknown_column', location);
    return column;
  }

  /** The SQL expression of a known column's value. */
  expression(column: RelationColumn): Expr {
    return this.expressions.get(column.columnKey) ?? { kind: 'column', name: column.columnKey };
  }

  /** Like `resolve`, but the row key is also accepted (it may be selected and sorted on). */
  resolveName(columnKey: string, location: ModelErrorLocation): string {
    return columnKey === this.rowKey ? columnKey : this.resolve(columnKey, location).columnKey;
  }
}
