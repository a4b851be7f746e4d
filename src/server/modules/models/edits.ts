/**
 * Edits of a model definition as pure functions: each takes the draft's definition and returns the
 * next one, or throws BadInput/NotFound naming what is wrong. The service loads, locks and saves.
 */
import type { z } from 'zod';
import type {
  ModelColumn,
  ModelDefinition,
  addColumnSchema,
  reorderColumnsSchema,
  updateColumnSchema,
} from '../../../shared/models';
import { badInput, notFound } from '../../errors';
import { newColumnKey } from '../static-tables/physical';
import { sourceKeyOf, type LoadedSource } from './sources';

type AddColumn = z.output<typeof addColumnSchema>;
type UpdateColumn = z.output<typeof updateColumnSchema>;
type Reorder = z.output<typeof reorderColumnsSchema>;

const COLUMN_NOT_FOUND = 'Column not found.';

function mustColumn(definition: ModelDefinition, columnKey: string): ModelColumn {
  const column = definition.columns.find((c) => c.columnKey === columnKey);
  if (!column) throw notFound(COLUMN_NOT_FOUND);
  return column;
}

/** Orders renumbered 0..n-1 in their current order, so gaps and ties never build up. */
function renumber(columns: ModelColumn[]): ModelColumn[] {
  return [...columns].sort((a, b) => a.order - b.order).map((c, order) => ({ ...c, order }));
}

export function addColumn(
  definition: ModelDefinition,
  input: AddColumn,
  sources: LoadedSource[],
): { definition: ModelDefinition; columnKey: string } {
  const taken = new Set(definition.columns.map((c) => c.columnKey));
  const columnKey = newColumnKey(taken);
  let type: ModelColumn['type'] = 'Text';
  if (input.sourceColumn) {
    const ref = input.sourceColumn;
    const source = sources.find((s) => sourceKeyOf(s) === sourceKeyOf(ref));
    if (!source || source.missing) throw badInput('That table is no longer available.');
    const sourceColumn = source.columns.find((c) => c.columnKey === ref.columnKey);
    if (!sourceColumn) throw badInput(`The column ${ref.columnKey} is not in ${source.name}.`);
    type = sourceColumn.type;
  }
  const column: ModelColumn = {
    columnKey,
    displayName: input.displayName,
    description: input.description ?? null,
    order: definition.columns.length,
    type: input.castTo ?? type,
    format: input.format ?? null,
    displayWidth: null,
    function: input.function ?? null,
    sourceColumn: input.sourceColumn ?? null,
    dependentColumnKeys: [],
    error: null,
    castTo: input.castTo ?? null,
    style: null,
  };
  return { definition: { ...definition, columns: renumber([...definition.columns, column]) }, columnKey };
}

export function updateColumn(definition: ModelDefinition, columnKey: string, input: UpdateColumn): ModelDefinition {
  const column = mustColumn(definition, columnKey);
  if (input.function !== undefined && !column.function) {
    throw badInput('Only function columns have a formula.');
  }
  const next: ModelColumn = {
    ...column,
    ...(input.displayName === undefined ? {} : { displayName: input.displayName }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.function === undefined ? {} : { function: input.function }),
    ...(input.castTo === undefined ? {} : { castTo: input.castTo }),
    ...(input.format === undefined ? {} : { format: input.format }),
    ...(input.displayWidth === undefined ? {} : { displayWidth: input.displayWidth }),
    ...(input.style === undefined ? {} : { style: input.style }),
  };
  return { ...definition, columns: definition.columns.map((c) => (c.columnKey === columnKey ? next : c)) };
}

/** The column's display name, for step labels (its key when it is gone). */
export function columnName(definition: ModelDefinition, columnKey: string): string {
  return definition.columns.find((c) => c.columnKey === columnKey)?.displayName ?? columnKey;
}

/** What an update does, in words, for the Undo button ("Rename column Amount to Total"). */
export function updateLabel(definition: ModelDefinition, columnKey: string, input: UpdateColumn): string {
  const name = columnName(definition, columnKey);
  if (input.displayName !== undefined && input.displayName !== name)
    return `Rename column ${name} to ${input.displayName}`;
  if (input.function !== undefined) return `Edit formula of ${name}`;
  if (input.castTo !== undefined) return `Convert column ${name}`;
  if (input.format !== undefined) return `Format column ${name}`;
  if (input.displayWidth !== undefined) return `Resize column ${name}`;
  return `Edit column ${name}`;
}

/**
 * Removes the column. Whatever referenced it (function columns, filters, sort, pivots) keeps the
 * reference and shows the spec's "A column has been removed" problem until the user picks another.
 */
export function deleteColumn(definition: ModelDefinition, columnKey: string): ModelDefinition {
  mustColumn(definition, columnKey);
  return { ...definition, columns: renumber(definition.columns.filter((c) => c.columnKey !== columnKey)) };
}

/** New order by key; every column must be named exactly once. */
export function reorderColumns(definition: ModelDefinition, input: Reorder): ModelDefinition {
  const keys = input.columnKeys;
  const known = new Set(definition.columns.map((c) => c.columnKey));
  if (keys.length !== known.size || new Set(keys).size !== keys.length || keys.some((k) => !known.has(k))) {
    throw badInput('Name every column of the model exactly once to reorder them.');
  }
  const position = new Map(keys.map((k, i) => [k, i]));
  return {
    ...definition,
    columns: definition.columns
      .map((c) => ({ ...c, order: position.get(c.columnKey) ?? c.order }))
      .sort((a, b) => a.order - b.order),
  };
}

/** Joins are saved only complete: both tables and every condition side set (spec §5). */
export function checkJoins(joins: ModelDefinition['joins']): void {
  joins.forEach((join, j) => {
    if (sourceKeyOf(join.leftTable) === sourceKeyOf(join.rightTable)) {
      throw badInput(`Relationship ${j + 1}: a table cannot be joined to itself.`);
    }
    for (const group of join.joinGroups) {
      for (const condition of group.conditions) {
        const leftSet = condition.leftColumnKey !== null || condition.leftValue !== null;
        const rightSet = condition.rightColumnKey !== null || condition.rightValue !== null;
        if (!leftSet || !rightSet) {
          throw badInput(`Relationship ${j + 1}: every condition needs a column or value on both sides.`);
        }
      }
    }
  });
}
