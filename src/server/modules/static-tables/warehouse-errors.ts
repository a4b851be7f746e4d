import { AppError, badInput } from '../../errors';

/**
 * DuckDB's messages for values that do not fit a column ("Conversion Error: Could not convert
 * string 'abc' to DOUBLE") are the user's to fix: they become a 400 with the readable part.
 */
export function warehouseError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const conversion = /Conversion Error: (.*?)(?:\n|$)/.exec(message);
  if (conversion) return badInput(`A value does not fit its column: ${conversion[1]}`);
  if (/Constraint Error/.test(message)) return badInput(message.replace(/^.*Constraint Error: /, ''));
  return error;
}
