/**
 * JSON bodies, REST and tRPC alike, nest at most LIMITS.jsonMaxDepth levels. Deeper documents
 * would take code that walks them (validation, JSON.stringify, DuckDB's reader) past its stack, so
 * they are refused with a 400 before anything parses or reads them.
 */
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../shared/limits';
import { badInput } from '../errors';
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
    return parse(req, text, done);
  });
}
