/**
 * JSON bodies, REST and tRPC alike, nest at most LIMITS.jsonMaxDepth levels. Deeper documents
 * would take code that walks them (validation, JSON.stringify, DuckDB's reader) past its stack, so
 * they are refused with a 400 before anything parses or reads them.
 */
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../shared/limits';
import { badInput } from '../errors';

export const tooDeepMessage = (max: number) => `The JSON body is nested more than ${max} levels deep.`;

/** Whether JSON text opens more than `max` objects or arrays inside one another (strings skipped). */
export function jsonTextTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/** Whether a parsed value nests more than `max` objects or arrays, found without recursion. */
export function valueTooDeep(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const next = stack.pop() as { value: unknown; depth: number };
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > max) return true;
    for (const item of Object.values(next.value)) stack.push({ value: item, depth: next.depth + 1 });
  }
  return false;
}

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
