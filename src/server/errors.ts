/**
 * The one error type services raise for problems a caller can act on. REST maps it to an HTTP
 * status and `{ message }`; tRPC maps it to a TRPCError. Anything else is a bug and becomes a 500.
 */
export type ErrorKind =
  'BadInput' | 'NotSignedIn' | 'Forbidden' | 'NotFound' | 'Conflict' | 'PayloadTooLarge' | 'TooManyRequests';

export const HTTP_STATUS: Record<ErrorKind, number> = {
  BadInput: 400,
  NotSignedIn: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  TooManyRequests: 429,
};

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** For TooManyRequests: when to try again, sent as the Retry-After header (REST and tRPC). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return HTTP_STATUS[this.kind];
  }
}

export const badInput = (message: string) => new AppError('BadInput', message);
export const notSignedIn = (message: string) => new AppError('NotSignedIn', message);
export const forbidden = (message: string) => new AppError('Forbidden', message);
export const notFound = (message: string) => new AppError('NotFound', message);
export const conflict = (message: string) => new AppError('Conflict', message);
export const payloadTooLarge = (message: string) => new AppError('PayloadTooLarge', message);
export const tooManyRequests = (message: string, retryAfterMs?: number) =>
  new AppError(
    'TooManyRequests',
    message,
    retryAfterMs === undefined ? null : Math.max(1, Math.ceil(retryAfterMs / 1000)),
  );
