/**
 * A chat result's rows as a CSV or XLSX file, written page by page as the stored query runs again
 * (runStoredQuery), so no file is ever held whole in memory. The first page is read before the
 * answer starts: a query that cannot run any more (its table was deleted) is an error status, not a
 * cut-off file.
 */
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ChatExportFormat } from '../../../shared/chat';
import { REPORT_CONTENT_TYPES } from '../../../shared/reports';

type Page = { headers: string[]; rows: unknown[][] };

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
export function csvField(value: unknown): string {
  const s = text(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const csvLine = (values: readonly unknown[]) => `${values.map(csvField).join(',')}\r\n`;

async function* csvChunks(first: Page, rest: AsyncIterator<Page>): AsyncGenerator<string> {
  yield csvLine(first.headers);
  let page: Page | undefined = first;
  while (page) {
    if (page.rows.length) yield page.rows.map(csvLine).join('');
    const next = await rest.next();
    page = next.done ? undefined : next.value;
  }
}

function xlsxCell(value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    // A date answered as ISO text is a date in Excel (a bare day at midnight UTC).
    if (DATE_TIME.test(value)) {
      const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
      if (!Number.isNaN(ms)) return new Date(ms);
    }
    return value;
  }
  return text(value);
}

function xlsxStream(first: Page, rest: AsyncIterator<Page>): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Result', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = first.headers.map((h) => ({ header: h, width: Math.min(40, Math.max(10, h.length + 2)) }));
  sheet.getRow(1).font = { bold: true };
  const write = async () => {
    let page: Page | undefined = first;
    while (page) {
      for (const row of page.rows) {
        const added = sheet.addRow(row.map(xlsxCell));
        row.forEach((value, i) => {
          if (xlsxCell(value) instanceof Date) {
            added.getCell(i + 1).numFmt =
              typeof value === 'string' && value.length === 10 ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm:ss';
          }
        });
        added.commit();
      }
      const next = await rest.next();
      page = next.done ? undefined : next.value;
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

/**
 * The file of the pages; `cancel` stops the query when the download ends early (the client went
 * away). Resolves once the first page is read.
 */
export async function chatExportFile(
  pages: AsyncIterable<Page>,
  format: ChatExportFormat,
  cancel: () => void,
): Promise<{ contentType: string; stream: Readable }> {
  const iterator = pages[Symbol.asyncIterator]();
  const head = await iterator.next();
  const first: Page = head.done ? { headers: [], rows: [] } : head.value;
  const stream = format === 'xlsx' ? xlsxStream(first, iterator) : Readable.from(csvChunks(first, iterator));
  stream.on('close', () => {
    cancel();
    void iterator.return?.();
  });
  return { contentType: REPORT_CONTENT_TYPES[format], stream };
}
