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
import { excelDate } from '../models/pivot-export';

type Page = { headers: string[]; rows: unknown[][] };

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. An empty text is
 * a quoted empty field and a null an unquoted one, as the tables' CSV download writes them.
 */
export function csvField(value: unknown): string {
  if (value === '') return '""';
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

/**
 * A value as an Excel cell: numbers (-0 as 0) and booleans as themselves; a date or date-time the
 * answer has as ISO text (`2024-01-31`, `2024-01-31T10:00:00.500Z`) as an Excel date when Excel holds
 * it exactly (excelDate: years from 1900, at most milliseconds), else its text, like the rest;
 * '' an empty inline text (exceljs writes '' as a blank, a null's cell).
 */
function xlsxCell(value: unknown): { value: ExcelJS.CellValue; numFmt?: string } {
  if (value === null || value === undefined) return { value: null };
  if (typeof value === 'number') return { value: value === 0 ? 0 : value };
  if (typeof value === 'boolean') return { value };
  if (value === '') return { value: { richText: [{ text: '' }] } };
  if (typeof value === 'string') {
    const date = excelDate(value, value.length === 10 ? 'Date' : 'DateTime');
    return date ? { value: date.date, numFmt: date.numFmt } : { value };
  }
  return { value: text(value) };
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
        const added = sheet.addRow([]);
        row.forEach((value, i) => {
          const { value: cellValue, numFmt } = xlsxCell(value);
          const target = added.getCell(i + 1);
          target.value = cellValue;
          if (numFmt) target.numFmt = numFmt;
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
