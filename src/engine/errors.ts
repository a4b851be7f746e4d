/**
 * A problem the user can fix (an unknown column, a value that is not a date, ...). The server maps
 * it to a 400 with `message`; anything else thrown by the engine is a bug and stays a plain Error.
 */

export type ModelErrorCode =
  | 'unknown_column'
  | 'unknown_operator'
  | 'operator_not_applicable'
  | 'missing_value'
  | 'invalid_number'
  | 'invalid_boolean'
  | 'invalid_date'
  | 'invalid_datetime'
  | 'invalid_identifier'
  | 'invalid_sorting'
  | 'invalid_page'
  /** Pivots (pivot/): a Json or Array field, an aggregation, percentage or time grain the type does not allow, too many column keys. */
  | 'field_not_pivotable'
  | 'aggregation_not_applicable'
  | 'show_as_not_applicable'
  | 'grain_not_applicable'
  | 'too_many_column_keys'
  | 'invalid_pivot'
  /** Formulas of function columns: location `['function', start, end]`, offsets into the text. */
  | 'formula_syntax'
  | 'formula_type'
  | 'unknown_function'
  /** Models (model/): a reference to a column no longer in the model or its sources. */
  | 'column_removed'
  | 'empty_model'
  | 'unknown_source'
  | 'source_not_joined'
  | 'self_join'
  | 'duplicate_join'
  | 'invalid_join'
  | 'invalid_cast'
  | 'function_cycle';

/** Where the problem sits in the description, as a path like zod's: `['filterGroups', 0, 'filters', 2, 'value']`. */
export type ModelErrorLocation = readonly (string | number)[];

export class ModelError extends Error {
  override readonly name = 'ModelError';

  constructor(
    message: string,
    readonly code: ModelErrorCode,
    readonly location: ModelErrorLocation = [],
  ) {
    super(message);
  }
}

export function isModelError(error: unknown): error is ModelError {
  return error instanceof ModelError;
}
