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
    const exact = EXACT_NUMBER_BODIES.find(([path]) => path.test(req.url));
    if (!exact) return parse(req, text, done);
    // Checked by Fastify's parser first (malformed, prototype poisoning), then read again exactly.
    return parse(req, text, (error: Error | null) =>
      error ? done(error) : done(null, parseJsonExact(text, exact[1])),
    );
  });
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
