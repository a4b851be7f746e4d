import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LIMITS } from '../../../shared/limits';
import { badInput } from '../../errors';
import { bodyOf } from '../../http/rest-context';
import type { Services } from '../../services';
import type { ErrorReportInput } from './service';

/** Reads the spec's multipart fields: Message, optional Screenshot (png), AdditionalContext. */
async function readErrorReport(req: FastifyRequest): Promise<ErrorReportInput> {
  if (!req.isMultipart()) throw badInput('Send the error report as multipart/form-data.');
  const input: ErrorReportInput = { message: '', additionalContext: null, screenshot: null };
  for await (const part of req.parts({ limits: { fileSize: LIMITS.screenshotMaxBytes, files: 1, fields: 10 } })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.fieldname === 'Screenshot' && data.length > 0) input.screenshot = data;
    } else if (part.fieldname === 'Message') {
      input.message = String(part.value);
    } else if (part.fieldname === 'AdditionalContext') {
      input.additionalContext = String(part.value);
    }
  }
  return input;
}

export function registerFeedbackRest(app: FastifyInstance, services: Services): void {
  app.post('/api/error-reports', async (req, reply) => {
    const report = await services.feedback.createErrorReport(req, await readErrorReport(req));
    return reply.status(201).send(report);
  });

  app.post('/api/bug-reports', async (req, reply) => {
    const report = await services.feedback.createBugReport(req, bodyOf(req));
    return reply.status(201).send(report);
  });
}
