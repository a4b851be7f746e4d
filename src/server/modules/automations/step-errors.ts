/**
 * How a step failed decides whether it is retried (spec of the retry policy): TransientError
 * (a peer unreachable, a timeout, a 5xx, a lock) retries by default; ConfigError (a missing table,
 * a refused login, a 4xx) never does; SystemError (a bug) only when the step's policy says so.
 */
import type { AttemptErrorType } from '../../../shared/integrations';
import { AppError } from '../../errors';
import { ConnectorError } from '../integrations/connectors/types';

export class StepError extends Error {
  constructor(
    readonly type: AttemptErrorType,
    message: string,
  ) {
    super(message);
    this.name = 'StepError';
  }
}

export const transientError = (message: string) => new StepError('TransientError', message);
export const configError = (message: string) => new StepError('ConfigError', message);

/** A step's failure as the run records it. A service's AppError is the user's to fix: ConfigError, except a conflict (busy), which may clear. */
export function classifyStepError(error: unknown): { type: AttemptErrorType; message: string } {
  if (error instanceof StepError) return { type: error.type, message: error.message };
  if (error instanceof ConnectorError) return { type: error.type, message: error.message };
  if (error instanceof AppError)
    return {
      type: error.kind === 'Conflict' || error.kind === 'TooManyRequests' ? 'TransientError' : 'ConfigError',
      message: error.message,
    };
  return { type: 'SystemError', message: error instanceof Error ? error.message : String(error) };
}
