/**
 * Errors raised by libraries rather than by our services that are nonetheless the caller's doing:
 * a malformed or cut-off multipart upload, a number out of range in the caller's data or formula.
 * REST (http/error-handler.ts) and tRPC (trpc/trpc.ts) turn them into a 4xx naming the problem
 * instead of a 500. Services that can say more (the column that overflows) do so first.
 */
import { AppError, badInput } from './errors';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : null;

/**
 * A value computed from the caller's data or formula that its type cannot hold: DuckDB's arithmetic
 * overflow ("Out of Range Error: Overflow in multiplication of INT64 (…)!"), a date or cast out of
 * range ("Conversion Error: Date and time not in timestamp range", "Invalid Input Error: Type INT64
 * with value … can't be cast because the value is out of range …").
 */
export function isOutOfRange(error: unknown): boolean {
  const message = messageOf(error);
  if (/Out of Range Error|Conversion Error/.test(message)) return true;
  return /Invalid Input Error/.test(message) && /out of range|can't be cast/i.test(message);
}

/** The readable part: "Overflow in multiplication of INT64 (9000000000000000000 * 10)". */
export function outOfRangeDetail(error: unknown): string {
  const match = /(?:Out of Range|Conversion|Invalid Input) Error: ([^\n]*)/.exec(messageOf(error));
  return (match?.[1] ?? 'a number is too large').replace(/!$/, '').trim();
}

const UPLOAD = 'The upload is not a well-formed multipart/form-data body';

/** @fastify/multipart's own errors, by code. */
const MULTIPART_CODES: Record<string, () => AppError> = {
  FST_INVALID_MULTIPART_CONTENT_TYPE: () => badInput('Send the file as multipart/form-data.'),
  FST_MP_PREMATURE_CLOSE: () => badInput(`${UPLOAD}: it ended before its closing boundary.`),
  FST_PROTO_VIOLATION: () => badInput(`${UPLOAD}: a part may not be named __proto__ or constructor.`),
  FST_INVALID_JSON_FIELD_ERROR: () => badInput(`${UPLOAD}: a part that says it is JSON is not valid JSON.`),
  FST_PARTS_LIMIT: () => new AppError('PayloadTooLarge', 'The upload has too many parts.'),
  FST_FILES_LIMIT: () => new AppError('PayloadTooLarge', 'The upload has too many files: send one file.'),
  FST_FIELDS_LIMIT: () => new AppError('PayloadTooLarge', 'The upload has too many form fields.'),
};

/** Busboy's parse errors, by message (they carry no code). */
const MULTIPART_MESSAGES: Array<[RegExp, string]> = [
  [
    /^(Multipart: Boundary not found|Boundary required|The needle cannot be an empty String\/Buffer\.)$/,
    `${UPLOAD}: its Content-Type names no boundary.`,
  ],
  [/^The needle cannot have a length bigger than \d+\.$/, `${UPLOAD}: its boundary is longer than 70 characters.`],
  [
    /^(Unexpected end of (multipart data|form)|\w+ terminated early due to unexpected end of multipart data)$/,
    `${UPLOAD}: it ended before its closing boundary.`,
  ],
  [/^Malformed part header$/, `${UPLOAD}: a part's headers are malformed.`],
  [
    /^(Missing Content-Type-header|Unsupported Content-Type)\.$/,
    `${UPLOAD}: its Content-Type is not multipart/form-data.`,
  ],
];

/** The 4xx for an error that is the caller's doing, or null when it is not one of those. */
export function clientError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  const code = codeOf(error);
  const byCode = code ? MULTIPART_CODES[code] : undefined;
  if (byCode) return byCode();
  const message = messageOf(error);
  for (const [pattern, text] of MULTIPART_MESSAGES) if (pattern.test(message)) return badInput(text);
  if (isOutOfRange(error)) {
    return badInput(
      `A number is out of range for its type (${outOfRangeDetail(error)}). Change the formula or filter that computes it.`,
    );
  }
  return null;
}
