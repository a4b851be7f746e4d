/**
 * Report jobs: progress recorded in order and never backwards, the file completed then its requester
 * told, a failure recorded with a readable reason, and at most two jobs generating at once.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { badInput } from '../../src/server/errors';
import { createReportJobs, failureReason, type ReportFiles } from '../../src/server/modules/reports/report-jobs';
import { niceTicks } from '../../src/server/modules/reports/pdf-chart';
import { fitWidths } from '../../src/server/modules/reports/pdf-report';

function recordingFiles() {
  const events: string[] = [];
  const files: ReportFiles = {
    setProgress: async (id, percent) => void events.push(`${id} progress ${percent}`),
    completeReport: async (id, contents) => {
      let size = 0;
      for await (const chunk of contents) size += (chunk as Buffer).length;
      events.push(`${id} ready ${size}`);
      return true;
    },
    failReport: async (id, error) => void events.push(`${id} failed ${error}`),
  };
  return { files, events };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('report jobs', () => {
  it('records progress in order, completes the file, then tells the requester', async () => {
    const { files, events } = recordingFiles();
    const jobs = createReportJobs(files, () => {});
    jobs.start({
      fileId: 'a',
      generate: async (progress) => {
        progress(40);
        progress(30); // never backwards
        await sleep(600);
        progress(80);
        return Readable.from([Buffer.from('hello')]);
      },
      done: async (outcome) => void events.push(`a done ${JSON.stringify(outcome)}`),
    });
    await jobs.idle();
    expect(events).toEqual(['a progress 1', 'a progress 80', 'a ready 5', 'a done {"ok":true}']);
  });

  it('marks a failed report Failed with a reason a person can read', async () => {
    const { files, events } = recordingFiles();
    const jobs = createReportJobs(files, () => {});
    jobs.start({
      fileId: 'b',
      generate: () => Promise.reject(badInput('The pivot is empty.')),
      done: async (outcome) => void events.push(`b done ${JSON.stringify(outcome)}`),
    });
    // A stream that breaks half way fails the report too.
    jobs.start({
      fileId: 'c',
      generate: async () =>
        new Readable({
          read() {
            this.destroy(new Error('disk on fire\nstack...'));
          },
        }),
      done: async () => {},
    });
    await jobs.idle();
    expect(events).toContain('b failed The pivot is empty.');
    expect(events).toContain('b done {"ok":false,"reason":"The pivot is empty."}');
    expect(events).toContain('c failed The report could not be generated: disk on fire');
    expect(failureReason('x')).toBe('The report could not be generated: x');
  });

  it('generates at most two reports at once; the rest wait their turn', async () => {
    const { files } = recordingFiles();
    const jobs = createReportJobs(files, () => {});
    let running = 0;
    let most = 0;
    for (const id of ['1', '2', '3', '4', '5']) {
      jobs.start({
        fileId: id,
        generate: async () => {
          running += 1;
          most = Math.max(most, running);
          await sleep(20);
          running -= 1;
          return Readable.from([Buffer.from(id)]);
        },
        done: async () => {},
      });
    }
    await jobs.idle();
    expect(most).toBe(2);
  });

  it('fits PDF columns to the page: narrow ones keep their width, the widest are narrowed', () => {
    expect(fitWidths([50, 60], 500)).toEqual([75, 90]);
    expect(fitWidths([50, 60], 121).map(Math.round)).toEqual([55, 66]);
    expect(fitWidths([10, 500], 500)).toEqual([54, 240]);
    expect(fitWidths([10, 500], 250)).toEqual([36, 214]);
    const fitted = fitWidths([100, 200, 240, 240, 240], 700);
    expect(fitted.reduce((a, b) => a + b, 0)).toBeCloseTo(700);
    expect(fitted).toEqual([100, 150, 150, 150, 150]);
    expect(niceTicks(0, 433)).toEqual([0, 100, 200, 300, 400, 500]);
  });
});
