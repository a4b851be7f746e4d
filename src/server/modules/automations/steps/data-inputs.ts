/** Inputs of the data steps beyond the shared readers (step-inputs.ts): filters, and validation helpers. */
import { z } from 'zod';
import type { InputValue } from '../../../../shared/automations';
import { filterSchema, type Filter } from '../../../../shared/tables';
import { configError } from '../step-errors';
import { numberInput } from './step-inputs';

const filtersSchema = z.array(filterSchema).max(100);

/**
 * A JSON input holding the shared Filter shape: an array of filters (or its JSON text); empty when
 * missing. A value of another shape is the user's to fix: a ConfigError naming the input.
 */
export function filtersInput(inputs: Record<string, InputValue>, name: string): Filter[] {
  let value: unknown = inputs[name];
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw configError(`${name}: not valid JSON.`);
    }
  }
  const parsed = filtersSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw configError(
      `${name}: ${issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'not a list of filters'}.`,
    );
  }
  return parsed.data;
}

/** The message of what `read` throws, or null (validate() answers problems, it never throws). */
export function problemOf(read: () => unknown): string | null {
  try {
    read();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A number input for validate(): null when missing or not a number (its problem is reported apart). */
export function numberOrNull(inputs: Record<string, InputValue>, name: string): number | null {
  try {
    return numberInput(inputs, name);
  } catch {
    return null;
  }
}

/** The first problem of `checks` (each a message when the condition holds), or null. */
export function firstProblem(checks: [boolean, string][]): string | null {
  return checks.find(([failed]) => failed)?.[1] ?? null;
}
