/**
 * The model's relationships as a left-deep join tree: the base table, then one new table per join.
 *
 * The base is the left table of the first join (or, without joins, the source of the first raw
 * column). Joins are placed in their order; one that connects only tables not placed yet waits
 * until a later join reaches them, so the order the user added relationships in does not matter
 * unless it has to. A join whose LEFT table is the new one is turned around: `T RIGHT JOIN L` keeps
 * the meaning of `L LEFT JOIN R` when R is already in T (conditions name tables by alias, so they
 * need no change). Aliases are `s1`, `s2`, ... in placement order, never user text.
 */
import { ModelError } from '../errors';
import type { JoinType } from '../sql-ast';
import type { JoinSpec, ModelJoinType, ModelSourceSpec, SourceRef } from './ir';
import { notJoinedMessage, sourceName } from './messages';
import { sameSource, sourceKey, type SourceIndex } from './sources';

export interface PlacedSource {
  source: ModelSourceSpec;
  alias: string;
}

export interface PlacedJoin {
  /** Index in the model's `joins`, for error locations. */
  index: number;
  spec: JoinSpec;
  type: JoinType;
  /** The table this join brings in. */
  joined: PlacedSource;
  /** Aliases of the join's left and right tables, as the spec names them. */
  leftAlias: string;
  rightAlias: string;
}

export interface JoinTree {
  base: PlacedSource;
  joins: PlacedJoin[];
  /** The alias of a placed source, undefined when the source is not in the tree. */
  aliasOf(ref: SourceRef): string | undefined;
}

const JOIN_TYPES: Record<ModelJoinType, JoinType> = {
  Inner: 'inner',
  LeftOuter: 'left',
  RightOuter: 'right',
  FullOuter: 'full',
};

const TURNED_AROUND: Record<JoinType, JoinType> = { inner: 'inner', left: 'right', right: 'left', full: 'full' };

function knownSource(sources: SourceIndex, ref: SourceRef, location: (string | number)[]): ModelSourceSpec {
  const source = sources.source(ref);
  if (!source) throw new ModelError(`The table ${ref.sourceId} is no longer available`, 'unknown_source', location);
  return source;
}

export function buildJoinTree(joins: readonly JoinSpec[], base: ModelSourceSpec, sources: SourceIndex): JoinTree {
  const aliases = new Map<string, string>([[sourceKey(base), 's1']]);
  const placed: PlacedJoin[] = [];

  joins.forEach((join, index) => {
    knownSource(sources, join.leftTable, ['joins', index, 'leftTable']);
    knownSource(sources, join.rightTable, ['joins', index, 'rightTable']);
    if (sameSource(join.leftTable, join.rightTable)) {
      throw new ModelError(
        `${sourceName(sources.source(join.leftTable)!)} cannot be joined to itself. Use each table once.`,
        'self_join',
        ['joins', index],
      );
    }
    if (!(join.joinType in JOIN_TYPES)) {
      throw new ModelError(`Unknown join type "${String(join.joinType)}"`, 'invalid_join', [
        'joins',
        index,
        'joinType',
      ]);
    }
  });

  const waiting = joins.map((spec, index) => ({ spec, index }));
  while (waiting.length > 0) {
    const next = waiting.findIndex(
      ({ spec }) => aliases.has(sourceKey(spec.leftTable)) || aliases.has(sourceKey(spec.rightTable)),
    );
    if (next === -1) {
      const { spec, index } = waiting[0]!;
      throw new ModelError(notJoinedMessage(sources.source(spec.leftTable)!), 'source_not_joined', ['joins', index]);
    }
    const { spec, index } = waiting.splice(next, 1)[0]!;
    const leftPlaced = aliases.has(sourceKey(spec.leftTable));
    const rightPlaced = aliases.has(sourceKey(spec.rightTable));
    if (leftPlaced && rightPlaced) {
      const [left, right] = [sources.source(spec.leftTable)!, sources.source(spec.rightTable)!];
      throw new ModelError(
        `${sourceName(left)} and ${sourceName(right)} are already joined. Put all conditions between two tables in one relationship.`,
        'duplicate_join',
        ['joins', index],
      );
    }
    const joinedRef = leftPlaced ? spec.rightTable : spec.leftTable;
    const alias = `s${aliases.size + 1}`;
    aliases.set(sourceKey(joinedRef), alias);
    const type = JOIN_TYPES[spec.joinType];
    placed.push({
      index,
      spec,
      type: leftPlaced ? type : TURNED_AROUND[type],
      joined: { source: sources.source(joinedRef)!, alias },
      leftAlias: aliases.get(sourceKey(spec.leftTable))!,
      rightAlias: aliases.get(sourceKey(spec.rightTable))!,
    });
  }

  return {
    base: { source: base, alias: 's1' },
    joins: placed,
    aliasOf: (ref) => aliases.get(sourceKey(ref)),
  };
}
