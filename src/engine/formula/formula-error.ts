/**
 * ModelErrors of formulas. The location is `['function', start, end]` (0-based offsets into the
 * formula text, end exclusive) for an editor to underline; messages count positions from 1, the
 * way a person counts characters.
 */
import { ModelError, type ModelErrorCode } from '../errors';
import type { Span } from './ast';

export type FormulaErrorCode = Extract<
  ModelErrorCode,
  'formula_syntax' | 'formula_type' | 'unknown_function' | 'unknown_column'
>;

export function formulaError(message: string, code: FormulaErrorCode, span: Span): ModelError {
  return new ModelError(message, code, ['function', span.start, span.end]);
}

/** `position 3` for a span starting at offset 2. */
export function positionOf(span: Span): string {
  return `position ${span.start + 1}`;
}
