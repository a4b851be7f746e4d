import fs from 'node:fs';
import path from 'node:path';
import type { BugReport } from '../../../shared/feedback';
import { LIMITS } from '../../../shared/limits';
import { MESSAGES } from '../../../shared/messages';
import type { Deps } from '../../context';
import type { UserRow } from '../../db/schema';
import { newId } from '../../db/ids';
import { createRateLimiter } from '../../auth/rate-limiter';
import { badInput, notSignedIn, tooManyRequests } from '../../errors';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface ErrorReportInput {
  message: string;
  additionalContext: string | null;
  screenshot: Buffer | null;
}

/** Who sends a report: the signed-in user (or nobody) and the client address the request came from. */
export interface ReportSender {
  user: UserRow | null;
  clientKey: string;
}

/**
 * A sender let through by `admit`: signed in and within the rate limits. The report calls take only
 * this, so no path can store a report without the check having run (and run first, before an error
 * report's multipart body is read).
 */
export interface AdmittedReporter {
  readonly user: UserRow;
  readonly admitted: true;
}

function minutesText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export function createFeedbackService(deps: Deps) {
  const { db, config, clock } = deps;
  const screenshotsDir = path.join(config.dataDir, 'files', 'error-reports');
  const limits = config.reportLimits;
  const limiter = createRateLimiter(limits.windowMs, clock);

  async function insertReport(
    reporter: AdmittedReporter,
    values: {
      id: string;
      kind: 'error' | 'bug' | 'support';
      message: string;
      additionalContext: string | null;
      page: string | null;
    },
    screenshotFile: string | null,
  ): Promise<void> {
    await db
      .insertInto('error_reports')
      .values({
        id: values.id,
        kind: values.kind,
        account_id: reporter.user.current_account_id,
        user_id: reporter.user.id,
        message: values.message,
        additional_context: values.additionalContext,
        screenshot_file: screenshotFile,
        page: values.page,
        created_at: clock().toISOString(),
      })
      .execute();
  }

  return {
    /**
     * Error and bug reports write to the metadata store and (screenshots) to disk, so they need a
     * signed-in user and are counted per user and per client address: past either limit the call is
     * refused with 429 and when to try again. Counted before anything is read or written.
     */
    admit(sender: ReportSender): AdmittedReporter {
      if (!sender.user) throw notSignedIn(MESSAGES.reportNeedsSignIn);
      const userWait = limiter.wait(`user:${sender.user.id}`, limits.perUser);
      const clientWait = limiter.wait(`client:${sender.clientKey}`, limits.perClient);
      const wait = Math.max(userWait, clientWait);
      if (wait > 0) throw tooManyRequests(`${MESSAGES.tooManyReports} Try again in ${minutesText(wait)}.`, wait);
      return { user: sender.user, admitted: true };
    },

    /** Stores an error report with its optional PNG screenshot, under the reporter's account. */
    async createErrorReport(reporter: AdmittedReporter, input: ErrorReportInput): Promise<{ id: string }> {
      const message = input.message.trim();
      if (!message) throw badInput(`Message: ${MESSAGES.messageRequired}`);
      if (message.length > LIMITS.messageMaxLength) {
        throw badInput(`Message must be at most ${LIMITS.messageMaxLength.toLocaleString('en')} characters.`);
      }
      if (input.additionalContext && input.additionalContext.length > LIMITS.additionalContextMaxLength) {
        throw badInput(
          `AdditionalContext must be at most ${LIMITS.additionalContextMaxLength.toLocaleString('en')} characters.`,
        );
      }
      if (input.screenshot && !input.screenshot.subarray(0, 8).equals(PNG_SIGNATURE)) {
        throw badInput(MESSAGES.screenshotNotPng);
      }
      const id = newId();
      let screenshotFile: string | null = null;
      if (input.screenshot) {
        await fs.promises.mkdir(screenshotsDir, { recursive: true });
        screenshotFile = path.join('error-reports', `${id}.png`);
        await fs.promises.writeFile(path.join(config.dataDir, 'files', screenshotFile), input.screenshot);
      }
      try {
        await insertReport(
          reporter,
          { id, kind: 'error', message, additionalContext: input.additionalContext, page: null },
          screenshotFile,
        );
      } catch (error) {
        // A report that is not stored leaves no screenshot behind.
        if (screenshotFile) await fs.promises.rm(path.join(config.dataDir, 'files', screenshotFile), { force: true });
        throw error;
      }
      return { id };
    },

    /** The bug-report widget and the support form: a message and the page it was sent from. */
    async createBugReport(reporter: AdmittedReporter, input: BugReport): Promise<{ id: string }> {
      const id = newId();
      await insertReport(
        reporter,
        { id, kind: input.kind, message: input.message, additionalContext: null, page: input.page ?? null },
        null,
      );
      return { id };
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
