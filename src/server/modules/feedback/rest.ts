import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LIMITS } from '../../../shared/limits';
import { badInput, payloadTooLarge, type AppError } from '../../errors';
import { bugReportSchema, errorReportPartsSchema, reportCreatedSchema } from '../../../shared/feedback';
import type { Deps } from '../../context';
import { endpoint } from '../../http/endpoint';
import type { Services } from '../../services';
import type { ErrorReportInput } from './service';

const MB = 1024 * 1024;
const TEXT_FIELDS = { Message: LIMITS.messageMaxLength, AdditionalContext: LIMITS.additionalContextMaxLength } as const;
type TextField = keyof typeof TEXT_FIELDS;

/**
 * What the multipart parser reads of an error report, at most: the spec's three parts (Message,
 * AdditionalContext, one Screenshot), a screenshot of LIMITS.screenshotMaxBytes, and text fields of
 * their character limits (3 bytes per UTF-16 unit is the most UTF-8 needs). Anything beyond is
 * refused with 413 naming the limit, before it is buffered.
 */
const PARSER_LIMITS = {
  fileSize: LIMITS.screenshotMaxBytes,
  files: 1,
  fields: 2,
  parts: 3,
  fieldSize: 3 * LIMITS.additionalContextMaxLength,
  fieldNameSize: 100,
  headerPairs: 20,
};

const TOO_MANY_PARTS = payloadTooLarge(
  'An error report has at most 3 parts: Message, AdditionalContext and one Screenshot.',
);

function isTextField(name: string): name is TextField {
  return name === 'Message' || name === 'AdditionalContext';
}

function textTooLong(name: TextField): AppError {
  return payloadTooLarge(`${name} must be at most ${TEXT_FIELDS[name].toLocaleString('en')} characters.`);
}

/** The multipart plugin's limit errors, reworded to name the limit that was reached. */
function limitError(error: unknown): AppError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return payloadTooLarge(`Screenshot must be at most ${LIMITS.screenshotMaxBytes / MB} MB.`);
  }
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return TOO_MANY_PARTS;
  return null;
}

/** Reads the spec's multipart fields: Message, optional Screenshot (png), AdditionalContext. */
async function readErrorReport(req: FastifyRequest): Promise<ErrorReportInput> {
  if (!req.isMultipart()) throw badInput('Send the error report as multipart/form-data.');
  const input: ErrorReportInput = { message: '', additionalContext: null, screenshot: null };
  try {
    for await (const part of req.parts({ limits: PARSER_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'Screenshot') throw badInput('The only file an error report takes is Screenshot.');
        const data = await part.toBuffer();
        if (data.length > 0) input.screenshot = data;
      } else if (isTextField(part.fieldname)) {
        if (part.valueTruncated) throw textTooLong(part.fieldname);
        const value = String(part.value);
        if (part.fieldname === 'Message') input.message = value;
        else input.additionalContext = value;
      } else {
        throw badInput('An error report has the fields Message, AdditionalContext and Screenshot only.');
      }
    }
  } catch (error) {
    throw limitError(error) ?? error;
  }
  return input;
}

const tag = 'Reports';
const CREATED = { 201: { description: 'The report is stored.', json: reportCreatedSchema } };

export function registerFeedbackRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const feedback = services.feedback;

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/error-reports',
      summary: 'Send an error report with an optional PNG screenshot',
      tag,
      // Signed in as the report says it (its own 401 message), so the route itself is open.
      access: 'public',
      multipart: errorReportPartsSchema,
      errors: [401, 413, 429],
      answers: CREATED,
    },
    async ({ ctx, req }) => {
      // Signed in and within the limits before a byte of the body is read.
      const reporter = feedback.admit({ user: ctx.user, clientKey: req.ip });
      return feedback.createErrorReport(reporter, await readErrorReport(req));
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/bug-reports',
      summary: 'Send a bug report or a message to support',
      tag,
      access: 'public',
      body: bugReportSchema,
      errors: [401, 429],
      answers: CREATED,
    },
    async ({ ctx, body, req }) => feedback.createBugReport(feedback.admit({ user: ctx.user, clientKey: req.ip }), body),
  );
}
