import type { FastifyError, FastifyInstance } from 'fastify';
import { MESSAGES } from '../../shared/messages';
import { clientError } from '../client-errors';
import { AppError } from '../errors';

/** Fastify's own client-error codes, reworded for a person. */
const FASTIFY_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: MESSAGES.bodyTooLarge },
  FST_REQ_FILE_TOO_LARGE: { status: 413, message: MESSAGES.bodyTooLarge },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: MESSAGES.malformedJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The request body is empty but says it is JSON.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'This content type is not supported here.' },
};

/**
 * One place that turns any error into a status and `{ message }`: AppError keeps its kind,
 * Fastify's client errors keep their 4xx, and everything else is logged and answered as a 500
 * without internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== null) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send({ message: error.message });
    }
    // A malformed upload, a number out of range: the caller's doing, raised by a library.
    const client = clientError(error);
    if (client) return reply.status(client.status).send({ message: client.message });
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    if (known) return reply.status(known.status).send({ message: known.message });
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.status(400).send({ message: MESSAGES.malformedJson });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(status).send({ message: error.message });
    req.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: MESSAGES.internal });
  });
}
