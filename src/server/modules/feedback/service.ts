import fs from 'node:fs';
import path from 'node:path';
import { bugReportSchema } from '../../../shared/feedback';
import { LIMITS } from '../../../shared/limits';
import { MESSAGES } from '../../../shared/messages';
import type { Deps } from '../../context';
import type { UserRow } from '../../db/schema';
import { newId } from '../../db/ids';
import { badInput } from '../../errors';
import { parseInput } from '../../validate';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface ErrorReportInput {
  message: string;
  additionalContext: string | null;
  screenshot: Buffer | null;
}

/** Who sent a report, when known: reports are accepted from signed-out pages too. */
export interface Reporter {
  user: UserRow | null;
}

export function createFeedbackService(deps: Deps) {
  const { db, config, clock } = deps;
  const screenshotsDir = path.join(config.dataDir, 'files', 'error-reports');

  return {
    /** Stores an error report with its optional PNG screenshot, under the reporter's account. */
    async createErrorReport(reporter: Reporter, input: ErrorReportInput): Promise<{ id: string }> {
      const message = input.message.trim();
      if (!message) throw badInput(`Message: ${MESSAGES.messageRequired}`);
      if (message.length > LIMITS.messageMaxLength) throw badInput('Message is too long.');
      if (input.additionalContext && input.additionalContext.length > LIMITS.additionalContextMaxLength) {
        throw badInput('AdditionalContext is too long.');
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
      await db
        .insertInto('error_reports')
        .values({
          id,
          kind: 'error',
          account_id: reporter.user?.current_account_id ?? null,
          user_id: reporter.user?.id ?? null,
          message,
          additional_context: input.additionalContext,
          screenshot_file: screenshotFile,
          page: null,
          created_at: clock().toISOString(),
        })
        .execute();
      return { id };
    },

    /** The bug-report widget and the support form: a message and the page it was sent from. */
    async createBugReport(reporter: Reporter, raw: unknown): Promise<{ id: string }> {
      const input = parseInput(bugReportSchema, raw);
      const id = newId();
      await db
        .insertInto('error_reports')
        .values({
          id,
          kind: input.kind,
          account_id: reporter.user?.current_account_id ?? null,
          user_id: reporter.user?.id ?? null,
          message: input.message,
          additional_context: null,
          screenshot_file: null,
          page: input.page ?? null,
          created_at: clock().toISOString(),
        })
        .execute();
      return { id };
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
