import { TRPCClientError } from '@trpc/client';

/** The server's message when it sent one, else the error's own message (spec section 8). */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

/** The HTTP status of a failed tRPC call, when known. */
export function errorStatus(error: unknown): number | null {
  if (error instanceof TRPCClientError) {
    const data = error.data as { httpStatus?: number } | undefined;
    return data?.httpStatus ?? null;
  }
  if (error instanceof HttpError) return error.status;
  return null;
}

/** A non-OK response of the REST helper, carrying status and body (spec section 7). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly body: unknown,
  ) {
    const message =
      body && typeof body === 'object' && 'message' in body && typeof body.message === 'string'
        ? body.message
        : `Failed with status ${status}: ${url}`;
    super(message);
    this.name = 'HttpError';
  }
}
