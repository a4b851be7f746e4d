import { z } from 'zod';
import { LIMITS } from './limits';
import { MESSAGES } from './messages';

/** The bug-report widget sends only a message. */
export const bugReportSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, MESSAGES.messageRequired)
    .max(
      LIMITS.messageMaxLength,
      `Message must be at most ${LIMITS.messageMaxLength.toLocaleString('en')} characters.`,
    ),
  /** The page the report was sent from, so the team can reproduce it. */
  page: z.string().max(2_000, 'page must be at most 2,000 characters.').optional(),
  /** A bug from the widget, or a message to support from the sidebar footer. */
  kind: z.enum(['bug', 'support']).default('bug'),
});
export type BugReportInput = z.input<typeof bugReportSchema>;
export type BugReport = z.output<typeof bugReportSchema>;

/**
 * POST /api/error-reports: the spec's multipart parts. It describes the parts for the API document;
 * the route reads them one by one within these limits.
 */
export const errorReportPartsSchema = z.object({
  Message: z.string().min(1).max(LIMITS.messageMaxLength),
  AdditionalContext: z.string().max(LIMITS.additionalContextMaxLength).optional(),
  Screenshot: z.file().mime('image/png').max(LIMITS.screenshotMaxBytes).optional(),
});

/** A stored error or bug report. */
export const reportCreatedSchema = z.object({ id: z.string() });
