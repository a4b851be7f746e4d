/**
 * Report generation in the background, inside the server (no outside queue): a job waits its turn
 * (at most `REPORT_LIMITS.concurrentPerServer` run at once, so a burst of large reports cannot take
 * the machine), streams its file into the file store, records progress as it goes, and tells its
 * requester when it is ready. Any failure marks the file Failed with a reason a person can read; a
 * report a crash interrupted is marked Failed at the next start by the files area.
 */
import type { Readable } from 'node:stream';
import { REPORT_LIMITS } from '../../../shared/reports';
import { AppError } from '../../errors';

/** The files area's calls for a report made in the background (modules/files/service.ts). */
export interface ReportFiles {
  setProgress(id: string, percent: number): Promise<void>;
  completeReport(id: string, contents: Readable | AsyncIterable<Uint8Array>): Promise<boolean>;
  failReport(id: string, error: string): Promise<void>;
}

export interface ReportJob {
  fileId: string;
  /** Makes the contents; reports progress 0..100 on the way. */
  generate: (progress: (percent: number) => void) => Promise<Readable>;
  /** After the file is Ready (not when it was deleted meanwhile) or Failed; never throws. */
  done: (outcome: { ok: true } | { ok: false; reason: string }) => Promise<void>;
}

/** Progress is written at most this often (a row update each time), and always at the end. */
const PROGRESS_EVERY_MS = 500;

/** A reason for the Reports page: the service's own message, or the cause in one line. */
export function failureReason(error: unknown): string {
  if (error instanceof AppError) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  return `The report could not be generated: ${text.split('\n')[0]!.slice(0, 300)}`;
}

export function createReportJobs(files: ReportFiles, log: (error: unknown, fileId: string) => void) {
  const waiting: ReportJob[] = [];
  const running = new Set<Promise<void>>();

  async function run(job: ReportJob): Promise<void> {
    let lastWrite = 0;
    let written = -1;
    let writes = Promise.resolve();
    const progress = (percent: number) => {
      const value = Math.max(0, Math.min(99, Math.round(percent)));
      const now = Date.now();
      if (value <= written || now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      written = value;
      // One write at a time, in order; a failed progress write never fails the report.
      writes = writes
        .then(() => files.setProgress(job.fileId, value))
        .catch((error: unknown) => log(error, job.fileId));
    };
    try {
      progress(1);
      const contents = await job.generate(progress);
      const kept = await files.completeReport(job.fileId, contents);
      await writes;
      if (kept) await job.done({ ok: true });
    } catch (error) {
      // A problem the user can fix (a removed column) is the report's reason, not a server fault.
      if (!(error instanceof AppError)) log(error, job.fileId);
      const reason = failureReason(error);
      await writes;
      try {
        await files.failReport(job.fileId, reason);
      } catch (cause) {
        log(cause, job.fileId);
      }
      await job.done({ ok: false, reason });
    }
  }

  function next(): void {
    while (running.size < REPORT_LIMITS.concurrentPerServer && waiting.length > 0) {
      const job = waiting.shift()!;
      const task: Promise<void> = run(job).finally(() => {
        running.delete(task);
        next();
      });
      running.add(task);
    }
  }

  return {
    /** Queues the job and returns at once. */
    start(job: ReportJob): void {
      waiting.push(job);
      next();
    },
    /** Resolves when no job runs or waits (tests, and a graceful stop). */
    async idle(): Promise<void> {
      while (running.size > 0 || waiting.length > 0) await Promise.all([...running]);
    },
  };
}

export type ReportJobs = ReturnType<typeof createReportJobs>;
