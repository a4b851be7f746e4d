/**
 * TO_NUMBER of text. DuckDB's TRY_CAST to DOUBLE is lenient: it reads `1_000` as 1000 and `inf` or
 * `nan` as infinity and not-a-number. The catalogue says TO_NUMBER is empty when the text is not a
 * number, so only plain decimal notation is read (digits, a sign, a point, an exponent, spaces
 * around), plus `Infinity`, `-Infinity` and `NaN`, the texts the grid shows for those doubles.
 *
 * The result is a DOUBLE, as every TO_NUMBER of a column must have one SQL type: up to 15
 * significant digits read back exactly, and a longer number (`9007199254740993`) is the nearest
 * double. A number literal written in the formula keeps every digit.
 */
import type { Expr } from '../../sql-ast';
import { call } from './text';

const text = (value: string): Expr => ({ kind: 'constant', value });

export function numberFromText(value: Expr): Expr {
  const read: Expr = { kind: 'try-cast', expr: value, type: 'double' };
  const trimmed = call('trim', value);
  // Without its e's, plain notation has no letters: upper case changes nothing.
  const withoutExponent = call('replace', call('lower', trimmed), text('e'), text(''));
  const noLetters: Expr = { kind: 'compare', op: '=', left: call('upper', withoutExponent), right: withoutExponent };
  const noUnderscore: Expr = {
    kind: 'compare',
    op: '=',
    left: call('replace', value, text('_'), text('')),
    right: value,
  };
  const special: Expr = {
    kind: 'or',
    items: ['Infinity', '-Infinity', 'NaN'].map((name) => ({
      kind: 'compare',
      op: '=',
      left: trimmed,
      right: text(name),
    })),
  };
  const plain: Expr = { kind: 'and', items: [noLetters, noUnderscore] };
  return { kind: 'case', whens: [{ when: { kind: 'or', items: [special, plain] }, then: read }], else: null };
}
