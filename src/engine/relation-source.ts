/** A relation of the IR as the FROM source of a statement: a stored table, or a SELECT nested under an alias. */
import { checkIdentifier } from './dialect';
import type { Relation } from './ir';
import type { FromSource } from './sql-ast';

/** The alias a nested SELECT gets when the relation names none. */
export const DEFAULT_SUBQUERY_ALIAS = 'model';

export function relationSource(relation: Relation): FromSource {
  switch (relation.kind) {
    case 'table':
      checkIdentifier(relation.schema, ['source', 'schema']);
      checkIdentifier(relation.name, ['source', 'name']);
      return { kind: 'table', schema: relation.schema, name: relation.name };
    case 'select':
      return { kind: 'subquery', select: relation.statement, alias: relation.alias ?? DEFAULT_SUBQUERY_ALIAS };
    default:
      throw new Error(`Unknown relation kind ${String((relation as { kind: unknown }).kind)}`);
  }
}
