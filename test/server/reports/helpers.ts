/**
 * Saving reports in tests: ask for one, wait for the background job, read the file back, and look at
 * a PDF with poppler (pdftotext for its words, pdftoppm for its first page as pixels).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { ReportProgress } from '../../../src/shared/reports';
import { call, type TestApp } from '../helpers';
import { ok } from '../static-tables/helpers';

export async function saveReport(t: TestApp, cookie: string, body: unknown): Promise<ReportProgress> {
  return ok(await call<ReportProgress>(t.server, 'POST', '/api/reports', { cookie, body }), 202);
}

/** Saves the report, waits for its generation, and answers its progress record and its bytes. */
export async function savedReport(
  t: TestApp,
  cookie: string,
  body: unknown,
): Promise<{ report: ReportProgress; bytes: Buffer; text: string; contentType: string }> {
  const created = await saveReport(t, cookie, body);
  expect(created.status).toBe('Pending');
  await t.services.reports.idle();
  const report = ok(await call<ReportProgress>(t.server, 'GET', `/api/reports/${created.id}/progress`, { cookie }));
  expect(report, JSON.stringify(report)).toMatchObject({ status: 'Ready', progress: 100, error: null });
  const file = await call<string>(t.server, 'GET', `/api/files/${created.id}/download`, { cookie });
  expect(file.status).toBe(200);
  return {
    report,
    bytes: file.raw.rawPayload,
    text: file.raw.body,
    contentType: String(file.headers['content-type']),
  };
}

/** A picture as pdftoppm writes it without -png: binary PPM (P6), 3 bytes a pixel. */
export interface Picture {
  width: number;
  height: number;
  rgb: Buffer;
}

function readPpm(bytes: Buffer): Picture {
  // Header: P6, width, height, max value, each after whitespace, then one whitespace byte.
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('Not a PPM picture');
  return { width: Number(header[1]), height: Number(header[2]), rgb: bytes.subarray(header[0].length) };
}

/** The PDF's text (pdftotext, layout kept) and its first page rendered at 50 dpi. */
export function readPdf(t: TestApp, bytes: Buffer): { text: string; pages: number; firstPage: Picture } {
  const dir = fs.mkdtempSync(path.join(t.dataDir, 'pdf-'));
  const file = path.join(dir, 'report.pdf');
  fs.writeFileSync(file, bytes);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
  execFileSync('pdftoppm', ['-r', '50', '-f', '1', '-l', '1', '-singlefile', file, path.join(dir, 'page')]);
  const firstPage = readPpm(fs.readFileSync(path.join(dir, 'page.ppm')));
  return { text, pages, firstPage };
}

/** How many pixels of the page are close to `hex` (a chart's series color), and how many are not white. */
export function pixels(picture: Picture, hex: string): { near: number; inked: number } {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  let near = 0;
  let inked = 0;
  for (let i = 0; i + 2 < picture.rgb.length; i += 3) {
    const [pr, pg, pb] = [picture.rgb[i]!, picture.rgb[i + 1]!, picture.rgb[i + 2]!];
    if (pr < 245 || pg < 245 || pb < 245) inked += 1;
    if (Math.abs(pr - r) < 24 && Math.abs(pg - g) < 24 && Math.abs(pb - b) < 24) near += 1;
  }
  return { near, inked };
}
