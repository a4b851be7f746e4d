/** Pivots: a key query for the column keys, then one query for the grid (see the README's "Pivots"). */
export { compilePivotColumnKeys, readPivotColumnKeys, type ReadColumnKeysInput } from './column-keys';
export { compilePivotQuery } from './pivot-query';
export { shapePivotRows } from './shape';
/** The cap on column keys lives with the shared Pivot types, so the client can say it too. */
export { PIVOT_MAX_COLUMN_KEYS } from '../../shared/pivots';
export type {
  PivotFieldSpec,
  PivotFilterSpec,
  PivotKeysInput,
  PivotQueryInput,
  PivotSortSpec,
  PivotSource,
  PivotSpec,
  PivotValueSpec,
} from './ir';
