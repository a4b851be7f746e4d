/**
 * JSON bodies, REST and tRPC alike, nest at most LIMITS.jsonMaxDepth levels. Deeper documents
 * would take code that walks them (validation, JSON.stringify, DuckDB's reader) past its stack, so
 * they are refused with a 400 before anything parses or reads them.
 */
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../shared/limits';
import { badInput } from '../errors';
import { parseJsonExact, type ExactNumber } from '../exact-values/json';
import { jsonTextTooDeep, tooDeepMessage } from '../json-depth';

/**
 * Fastify's own JSON parser (empty, malformed and prototype-poisoning bodies refused as before),
 * behind the depth check. The tRPC routes parse their JSON themselves; see trpc/trpc.ts.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonTextTooDeep(text, LIMITS.jsonMaxDepth)) return done(badInput(tooDeepMessage(LIMITS.jsonMaxDepth)));
    const exact = EXACT_NUMBER_BODIES.find(([path]) => path.test(req.url))?.[1] ?? numberOrItsText;
    // Checked by Fastify's parser first (malformed, prototype poisoning), then read again exactly.
    return parse(req, text, (error: Error | null, body?: unknown) =>
      error ? done(error) : done(null, parseJsonExact(text, exact, body)),
    );
  });
}

/**
 * Any other body: a number a double holds (`50`, `0.1`, `1.50`, `1e3`) is a number, and one it would
 * change (`9007199254740993` as a filter's value, `99999999999999.999999`) arrives as its text, which
 * a field taking text (a filter's value: compared in its column's exact type) reads exactly and a
 * field taking only numbers refuses, rather than reading another number.
 */
function numberOrItsText({ text }: ExactNumber): number | string {
  const double = Number(text);
  return sameDecimal(text, String(double)) ? double : text;
}

/** Whether two JSON number texts write the same value (`1.50e2` and `150`; `-0` and `0`). */
function sameDecimal(a: string, b: string): boolean {
  return decimalKey(a) === decimalKey(b);
}

/** A number text as significant digits and the power of ten after them, e.g. `15e1`; any other text as itself. */
function decimalKey(text: string): string {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!parts) return text;
  const [, sign, whole = '', fraction = '', exponent = '0'] = parts;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  const significant = digits.replace(/0+$/, '');
  return `${sign}${significant}e${Number(exponent) - fraction.length + (digits.length - significant.length)}`;
}

/**
 * Bodies whose numbers are data that lands in typed warehouse columns: a number a double would
 * change (a 19-digit id) is kept exactly, as an ExactNumber in webhook records (exact-values/json.ts),
 * as its text in a static table's rows and cells (whose column decides, or refuses, what it holds).
 */
const EXACT_NUMBER_BODIES: [RegExp, (number: ExactNumber) => unknown][] = [
  [/^\/api\/integrations\/webhook\/[^/?]+(\?|$)/, (number) => number],
  [/^\/api\/static-tables(\/[^/?]+\/changes)?(\?|$)/, (number) => number.text],
];
