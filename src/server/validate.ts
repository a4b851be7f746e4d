import type { z } from 'zod';
import { badInput } from './errors';

/**
 * Parses input with a shared schema, turning the first problem into a 400 a person can read
 * ("email: Provide an email adress") instead of a stack of zod issues.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw badInput(`${where}${issue?.message ?? 'Invalid input.'}`);
}
