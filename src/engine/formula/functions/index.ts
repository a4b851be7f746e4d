/**
 * The whitelist: every function a formula may call. A test checks names, categories, argument
 * counts and result types against the catalogue users see (src/shared/functions.ts).
 */
import { CONVERSION_FUNCTIONS } from './conversion';
import { DATE_FUNCTIONS } from './date';
import { LOGIC_FUNCTIONS } from './logic';
import { NUMBER_FUNCTIONS } from './number';
import type { FormulaFunction } from './spec';
import { TEXT_FUNCTIONS } from './text';

export const FORMULA_FUNCTION_TABLE: readonly FormulaFunction[] = [
  ...LOGIC_FUNCTIONS,
  ...TEXT_FUNCTIONS,
  ...NUMBER_FUNCTIONS,
  ...DATE_FUNCTIONS,
  ...CONVERSION_FUNCTIONS,
];

const BY_NAME = new Map(FORMULA_FUNCTION_TABLE.map((fn) => [fn.name, fn]));

/** The function a call names, in any case; undefined when it is not whitelisted. */
export function findFunction(name: string): FormulaFunction | undefined {
  return BY_NAME.get(name.toUpperCase());
}
