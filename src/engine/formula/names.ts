/**
 * Formulas as people write them, `ROUND([Amount] * 1.2, 2)`, to the stored form with column keys,
 * `ROUND([zfkj] * 1.2, 2)`. Names resolve by the rule of src/shared/formula-text.ts (display name,
 * then ignoring case, then key). Problems point into the text as typed: a syntax error, an unknown
 * column and an ambiguous name each throw one ModelError located at `['function', start, end]`.
 */
import { columnReference, resolveColumnName, type NamedColumn } from '../../shared/formula-text';
import { formulaError, positionOf } from './formula-error';
import { tokenize } from './lexer';
import { parseFormula } from './parser';

export interface KeyedFormula {
  /** The formula with every column written by its key. */
  text: string;
  /** An offset into `text` as the offset into the formula as typed (for errors found later, e.g. types). */
  toTyped(offset: number): number;
}

interface Replacement {
  typedStart: number;
  typedEnd: number;
  keyedStart: number;
  keyedEnd: number;
}

export function formulaNamesToKeys(typed: string, columns: readonly NamedColumn[]): KeyedFormula {
  // Syntax first, so its positions are the typed ones.
  parseFormula(typed);
  const replacements: Replacement[] = [];
  let text = '';
  let at = 0;
  for (const token of tokenize(typed)) {
    if (token.kind !== 'column') continue;
    const resolved = resolveColumnName(token.key, columns);
    const shown = columnReference(token.key);
    if (resolved.kind === 'unknown') {
      throw formulaError(`Unknown column ${shown} at ${positionOf(token)}`, 'unknown_column', token);
    }
    if (resolved.kind === 'ambiguous') {
      throw formulaError(
        `The name ${shown} at ${positionOf(token)} is ambiguous: ${resolved.count} columns are named ${token.key.trim()}. ` +
          'Rename one of them under Edit existing columns.',
        'unknown_column',
        token,
      );
    }
    const keyed = columnReference(resolved.columnKey);
    text += typed.slice(at, token.start);
    replacements.push({
      typedStart: token.start,
      typedEnd: token.end,
      keyedStart: text.length,
      keyedEnd: text.length + keyed.length,
    });
    text += keyed;
    at = token.end;
  }
  text += typed.slice(at);

  const toTyped = (offset: number): number => {
    let shift = 0;
    for (const r of replacements) {
      if (offset < r.keyedStart) break;
      // Inside a reference: its start maps to its start, anything after to its end.
      if (offset < r.keyedEnd) return offset === r.keyedStart ? r.typedStart : r.typedEnd;
      shift = r.typedEnd - r.keyedEnd;
    }
    return offset + shift;
  };
  return { text, toTyped };
}
