/**
 * Dates and date-times read from text by TO_DATE and TO_DATETIME, as SQL trees of the formula's
 * own nodes. DuckDB's TRY_CAST alone reads `0044-03-15 BC` as the year 44 AD, reads
 * `2024-01-01T10:00:00+05:00` as 10:00 (the offset ignored) and cuts `10:00:00.1234567` to
 * microseconds; here the era is read in ISO years, the offset moves the time to UTC (the
 * warehouse's TIMESTAMPs hold UTC), and digits a TIMESTAMP cannot hold make the value empty.
 */
import type { Expr } from '../../sql-ast';
import { castTo } from '../types';
import { call } from './text';

const text = (value: string): Expr => ({ kind: 'constant', value });
const whole = (value: number): Expr => ({ kind: 'constant', value });
const wholeOf = (expr: Expr): Expr => ({ kind: 'try-cast', expr, type: 'bigint' });
const minus = (left: Expr, right: Expr): Expr => ({ kind: 'arithmetic', op: '-', left, right });
const equals = (left: Expr, right: Expr): Expr => ({ kind: 'compare', op: '=', left, right });
const differs = (left: Expr, right: Expr): Expr => ({ kind: 'compare', op: '<>', left, right });
const when = (condition: Expr, then: Expr, otherwise: Expr | null): Expr => ({
  kind: 'case',
  whens: [{ when: condition, then }],
  else: otherwise,
});

/**
 * The text with an era suffix respelled in ISO 8601's astronomical years (as
 * src/server/warehouse/era-text.ts does for imports): `0044-03-15 BC` is `-0043-03-15`, 1 BC is
 * `0000`; other text stays as it is.
 */
export function eraRespelled(value: Expr): Expr {
  const yearText = call('split_part', value, text('-'), whole(1));
  const before = castTo(minus(wholeOf(yearText), whole(1)), 'text');
  // lpad to 4 digits: the last max(4, length) characters of '000' and the year.
  const padded = call('right', call('concat', text('000'), before), call('greatest', whole(4), call('length', before)));
  const astronomical = when(equals(wholeOf(yearText), whole(1)), text('0000'), call('concat', text('-'), padded));
  // From the first '-' to before ' BC'.
  const start: Expr = { kind: 'arithmetic', op: '+', left: call('length', yearText), right: whole(1) };
  const length = minus(minus(call('length', value), call('length', yearText)), whole(3));
  const rest = call('substring', value, start, length);
  return when(call('ends_with', value, text(' BC')), call('concat', astronomical, rest), value);
}

/** TO_DATE of text: the era read, then DuckDB's reading (a date-time's written date is its date). */
export function dateFromText(value: Expr): Expr {
  return { kind: 'try-cast', expr: eraRespelled(value), type: 'date' };
}

/**
 * TO_DATETIME of text as a UTC TIMESTAMP: the era read, a `±HH[:MM]` offset after the time
 * subtracted (`Z` and no offset are UTC), and empty when the fraction has non-zero digits past
 * microseconds.
 */
export function dateTimeFromText(value: Expr): Expr {
  const respelled = eraRespelled(value);
  const read: Expr = { kind: 'try-cast', expr: respelled, type: 'timestamp' };
  // The time part: after the 'T' or the space, e.g. `10:00:00.5+05:00`.
  const time = call('split_part', call('replace', respelled, text('T'), text(' ')), text(' '), whole(2));
  const plus = call('split_part', time, text('+'), whole(2));
  const minusPart = call('split_part', time, text('-'), whole(2));
  const isPlus = differs(plus, text(''));
  const offset = when(isPlus, plus, minusPart);
  const hours = wholeOf(call('left', offset, whole(2)));
  const minutes = when(
    { kind: 'compare', op: '>', left: call('length', offset), right: whole(2) },
    wholeOf(call('right', offset, whole(2))),
    whole(0),
  );
  const offsetMinutes: Expr = {
    kind: 'arithmetic',
    op: '+',
    left: { kind: 'arithmetic', op: '*', left: hours, right: whole(60) },
    right: minutes,
  };
  // UTC = local time - offset: +05:00 moves back, -03:30 forward.
  const shift = when(isPlus, { kind: 'negate', expr: offsetMinutes }, offsetMinutes);
  const utc = when(equals(offset, text('')), read, { kind: 'date-add', expr: read, amount: shift, grain: 'minute' });
  // Fraction digits past the sixth that are not all zeros: a TIMESTAMP cannot hold them.
  const beforeOffset = call('split_part', call('split_part', time, text('+'), whole(1)), text('-'), whole(1));
  const fraction = call('replace', call('split_part', beforeOffset, text('.'), whole(2)), text('Z'), text(''));
  const beyond = wholeOf(call('substring', fraction, whole(7), call('length', fraction)));
  return when(equals(call('coalesce', beyond, whole(0)), whole(0)), utc, null);
}
