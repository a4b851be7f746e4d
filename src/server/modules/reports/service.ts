/**
 * "Save as report": a user saves what they see (a static table, a model sheet, a pivot, a model chart)
 * as a CSV, XLSX, Parquet or PDF report on the Reports page. The call checks the request and answers
 * at once with the file, Pending; the file is generated in the background (report-jobs.ts) and its
 * requester is notified when it is ready. Creating a report is a write: read_only members are refused.
 */
import type { Readable } from 'node:stream';
import {
  REPORT_CONTENT_TYPES,
  REPORT_MESSAGES,
  type CreateReportRequest,
  type ReportFormat,
  type ReportProgress,
} from '../../../shared/reports';
import type { FileOriginType } from '../../../shared/files';
import type { AccountContext, Deps } from '../../context';
import { requireWriter } from '../accounts/access';
import type { TablesService } from '../tables/service';
import { createReportContent } from './report-content';
import { createReportJobs, type ReportFiles } from './report-jobs';

/** The files area's calls a report needs (modules/files/service.ts). */
export interface ReportFileCalls extends ReportFiles {
  createReport(report: {
    accountId: string;
    userId: string | null;
    name: string;
    contentType: string;
    originEntityType: FileOriginType;
    originEntityTypeId: string | null;
  }): Promise<{ id: string }>;
  get(
    ctx: AccountContext,
    id: string,
  ): Promise<{ id: string; name: string; status: ReportProgress['status']; progress: number; error: string | null }>;
}

/** How the requester hears of a finished report (the notifications area's notify()). */
export type ReportNotice = (event: {
  accountId: string;
  userId: string;
  fileId: string;
  name: string;
  outcome: { ok: true } | { ok: false; reason: string };
}) => Promise<void>;

/** The name with the format's extension, unless it already ends with it. */
export function reportFileName(name: string, format: ReportFormat): string {
  return name.toLowerCase().endsWith(`.${format}`) ? name : `${name}.${format}`;
}

export function createReportsService(
  deps: Deps,
  parts: { tables: TablesService; files: ReportFileCalls; notice: ReportNotice; log?: (error: unknown) => void },
) {
  const content = createReportContent(deps, parts.tables);
  const log = parts.log ?? ((error: unknown) => console.error('Report generation failed', error));
  const jobs = createReportJobs(parts.files, (error) => log(error));

  return {
    /**
     * Checks the request, creates the Pending file, starts its generation, and answers at once. An
     * automation's export names itself as the origin (the definition) and tells its requester
     * nothing: the run shows the file.
     */
    async create(
      ctx: AccountContext,
      request: CreateReportRequest,
      options: { origin?: { type: 'Automation'; id: string }; notice?: boolean } = {},
    ): Promise<ReportProgress> {
      requireWriter(ctx);
      const prepared = await content.prepare(ctx, request.source);
      const name = reportFileName(request.name, request.format);
      const origin = options.origin ?? prepared.origin;
      const { id } = await parts.files.createReport({
        accountId: ctx.accountId,
        userId: ctx.user.id,
        name,
        contentType: REPORT_CONTENT_TYPES[request.format],
        originEntityType: origin.type,
        originEntityTypeId: origin.id,
      });
      jobs.start({
        fileId: id,
        generate: (progress): Promise<Readable> => prepared.generate(request.format, progress),
        done: async (outcome) => {
          if (options.notice === false) return;
          try {
            await parts.notice({ accountId: ctx.accountId, userId: ctx.user.id, fileId: id, name, outcome });
          } catch (error) {
            log(error);
          }
        },
      });
      return { id, name, status: 'Pending', progress: 0, error: null };
    },

    /** Where a report's generation stands, for its requester's progress notice. */
    async progress(ctx: AccountContext, id: string): Promise<ReportProgress> {
      const file = await parts.files.get(ctx, id);
      return { id: file.id, name: file.name, status: file.status, progress: file.progress, error: file.error };
    },

    /** Resolves when every report asked for so far is finished (tests; a graceful stop). */
    idle: () => jobs.idle(),
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;

/** The texts of the notification a finished report sends. */
export function reportNoticeText(name: string, outcome: { ok: true } | { ok: false; reason: string }) {
  return outcome.ok
    ? { title: REPORT_MESSAGES.readyTitle, body: `"${name}" is ready to download.`, severity: 'Info' as const }
    : {
        title: REPORT_MESSAGES.failedTitle,
        body: `"${name}" could not be generated: ${outcome.reason}`,
        severity: 'Error' as const,
      };
}
