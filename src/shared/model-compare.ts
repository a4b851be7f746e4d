/**
 * What changed between two versions of a model, for the version history's compare dialog: columns by
 * key, pivots by key, joins by the pair of tables they connect, filters and sort as a whole.
 */
import type { Join, ModelColumn, ModelDefinition } from './models';
import type { Pivot } from './pivots';

export type ChangeKind = 'added' | 'removed' | 'changed';

export interface VersionChange {
  area: 'Columns' | 'Relationships' | 'Filters' | 'Sort' | 'Pivots';
  kind: ChangeKind;
  /** What the user knows it by, e.g. the column's display name. */
  name: string;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What of a column a user changes (derived fields such as errors and types are left out). */
function columnShape(c: ModelColumn) {
  return {
    displayName: c.displayName,
    description: c.description,
    order: c.order,
    function: c.function,
    sourceColumn: c.sourceColumn,
    castTo: c.castTo,
    format: c.format,
  };
}

function byKey<T>(
  area: VersionChange['area'],
  before: T[],
  after: T[],
  key: (item: T) => string,
  name: (item: T) => string,
  shape: (item: T) => unknown = (item) => item,
): VersionChange[] {
  const old = new Map(before.map((item) => [key(item), item]));
  const next = new Map(after.map((item) => [key(item), item]));
  const changes: VersionChange[] = [];
  for (const [k, item] of next) {
    const was = old.get(k);
    if (!was) changes.push({ area, kind: 'added', name: name(item) });
    else if (!same(shape(was), shape(item))) changes.push({ area, kind: 'changed', name: name(item) });
  }
  for (const [k, item] of old) if (!next.has(k)) changes.push({ area, kind: 'removed', name: name(item) });
  return changes;
}

const joinKey = (j: Join) => `${j.leftTable.sourceId}>${j.rightTable.sourceId}`;

export function compareVersions(
  before: ModelDefinition,
  after: ModelDefinition,
  sourceName: (sourceId: string) => string = (id) => id,
): VersionChange[] {
  const whole = (area: VersionChange['area'], a: unknown[], b: unknown[], name: string): VersionChange[] => {
    if (same(a, b)) return [];
    const kind: ChangeKind = a.length === 0 ? 'added' : b.length === 0 ? 'removed' : 'changed';
    return [{ area, kind, name }];
  };
  return [
    ...byKey(
      'Columns',
      before.columns,
      after.columns,
      (c) => c.columnKey,
      (c) => c.displayName,
      columnShape,
    ),
    ...byKey(
      'Relationships',
      before.joins,
      after.joins,
      joinKey,
      (j) => `${sourceName(j.leftTable.sourceId)} → ${sourceName(j.rightTable.sourceId)}`,
    ),
    ...whole('Filters', before.filterGroups, after.filterGroups, 'Model filters'),
    ...whole('Sort', before.sort, after.sort, 'Model sort'),
    ...byKey(
      'Pivots',
      before.pivots,
      after.pivots,
      (p: Pivot) => p.key,
      (p: Pivot) => p.name,
    ),
  ];
}
