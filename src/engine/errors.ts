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
  | 'invalid_page';

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
