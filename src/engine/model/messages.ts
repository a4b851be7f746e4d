/**
 * The words of model problems, in one place so compile errors and validation say the same thing.
 * The removed-column text is the spec's (§5), followed by the missing keys in parentheses.
 */
import type { ModelSourceSpec, SourceRef } from './ir';

export const REMOVED_COLUMN_TEXT = 'A column has been removed from the model. Please select another column.';

/** `A column has been removed from the model. Please select another column. (abcd, efgh)` */
export function removedColumnMessage(keys: readonly string[]): string {
  return `${REMOVED_COLUMN_TEXT} (${keys.join(', ')})`;
}

export function sourceName(source: ModelSourceSpec | SourceRef): string {
  return ('displayName' in source && source.displayName) || source.sourceId;
}

export function notJoinedMessage(source: ModelSourceSpec | SourceRef): string {
  return `${sourceName(source)} is not joined to the model. Add a relationship.`;
}
