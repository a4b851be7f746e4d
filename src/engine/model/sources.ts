/** The model's sources by their (type, id), with the columns each one stores. */
import { checkIdentifier } from '../dialect';
import type { RelationColumn } from '../ir';
import type { ModelSourceSpec, SourceRef } from './ir';

export const sourceKey = (ref: SourceRef): string => `${ref.sourceType}:${ref.sourceId}`;

export const sameSource = (a: SourceRef, b: SourceRef): boolean =>
  a.sourceType === b.sourceType && a.sourceId === b.sourceId;

export class SourceIndex {
  private readonly byKey = new Map<string, { spec: ModelSourceSpec; columns: Map<string, RelationColumn> }>();

  constructor(sources: readonly ModelSourceSpec[]) {
    sources.forEach((source, index) => {
      checkIdentifier(source.relation.schema, ['sources', index, 'relation', 'schema']);
      checkIdentifier(source.relation.name, ['sources', index, 'relation', 'name']);
      // The server lists each source once; a repeat is its bug, not the user's.
      if (this.byKey.has(sourceKey(source))) throw new Error(`Source ${sourceKey(source)} is listed twice`);
      const columns = new Map(source.columns.map((column) => [column.columnKey, column]));
      this.byKey.set(sourceKey(source), { spec: source, columns });
    });
  }

  source(ref: SourceRef): ModelSourceSpec | undefined {
    return this.byKey.get(sourceKey(ref))?.spec;
  }

  /** A column the source stores, or undefined when the source or the column is gone. */
  column(ref: SourceRef, columnKey: string): RelationColumn | undefined {
    return this.byKey.get(sourceKey(ref))?.columns.get(columnKey);
  }
}
