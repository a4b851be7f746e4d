import type { TRPCError } from '@trpc/server';
import { AppError } from '../errors';

/**
 * tRPC's responseMeta hook: a call refused for going too fast answers a Retry-After header, as the
 * REST error handler does (the longest wait when a batch holds several refusals).
 */
export function retryAfterMeta({ errors }: { errors: TRPCError[] }): { headers?: Record<string, string> } {
  let seconds = 0;
  for (const error of errors) {
    const cause = error.cause;
    if (cause instanceof AppError && cause.retryAfterSeconds !== null)
      seconds = Math.max(seconds, cause.retryAfterSeconds);
  }
  return seconds > 0 ? { headers: { 'retry-after': String(seconds) } } : {};
}
