/**
 * The chat export's file writer: CSV quoting (RFC 4180), nulls as empty fields, every page in order;
 * XLSX numbers as numbers and ISO dates as dates; a query that fails before its first page fails
 * the call instead of answering a cut-off file.
 */
import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { chatExportFile } from '../../src/server/modules/chat/export-file';

type Page = { headers: string[]; rows: unknown[][] };

async function* pagesOf(...pages: Page[]): AsyncGenerator<Page> {
  for (const page of pages) yield page;
}

const headers = ['name', 'amount', 'day'];
const PAGES: Page[] = [
  {
    headers,
    rows: [
      ['Ann, "the first"', 10.5, '2025-03-01'],
      [null, 2, null],
    ],
  },
  { headers, rows: [['two\nlines', -1, '2025-03-02T10:20:30Z']] },
];

describe('chat export file', () => {
  it('writes CSV with quoted fields, empty nulls and every page', async () => {
    const file = await chatExportFile(pagesOf(...PAGES), 'csv', () => undefined);
    expect(file.contentType).toMatch(/^text\/csv/);
    const text = (await buffer(file.stream)).toString('utf8');
    expect(text).toBe(
      'name,amount,day\r\n"Ann, ""the first""",10.5,2025-03-01\r\n,2,\r\n"two\nlines",-1,2025-03-02T10:20:30Z\r\n',
    );
  });

  it('writes XLSX with numbers and dates as such', async () => {
    const file = await chatExportFile(pagesOf(...PAGES), 'xlsx', () => undefined);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await buffer(file.stream)) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, 'name', 'amount', 'day']);
    expect(sheet?.getCell('B2').value).toBe(10.5);
    expect(sheet?.getCell('C2').value).toEqual(new Date('2025-03-01T00:00:00Z'));
    expect(sheet?.getCell('A3').value).toBeNull();
    expect(sheet?.getCell('C4').value).toEqual(new Date('2025-03-02T10:20:30Z'));
    expect(sheet?.rowCount).toBe(4);
  });

  it('fails before answering when the query cannot run', async () => {
    // eslint-disable-next-line require-yield
    async function* failing(): AsyncGenerator<Page> {
      throw new Error('table gone');
    }
    await expect(chatExportFile(failing(), 'csv', () => undefined)).rejects.toThrow('table gone');
  });
});
