/**
 * A pivot written as the grid's data call holds it: one header line of the column paths
 * (`2026-Q1 / % of Row · Amount`: date groups by their labels, values by what they show), each header different, total rows labelled, every value in
 * full precision. CSV writes values as the data call answers them (a percentage as its fraction,
 * 0.000123, never rounded text); XLSX writes numeric cells with the
 * field's decimals (`#,##0.00`), percentages with a percent number format, dates as dates, so a spreadsheet computes with them. A number Excel cannot hold exactly
 * (an integer beyond 2^53, a decimal beyond a double, which the data call answers as text) is
 * written as text, so no digit is lost.
 */
import ExcelJS from 'exceljs';
import { PIVOT_TOTAL_LABEL, type PivotCellValue, type PivotLayout, type PivotRow } from '../../../shared/pivots';
import type { ColumnType } from '../../../shared/tables';
import { uniqueHeaders } from '../tables/unique-headers';

export const PIVOT_EXPORT_FORMATS = {
  csv: { contentType: 'text/csv; charset=utf-8' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
} as const;
export type PivotExportFormat = keyof typeof PIVOT_EXPORT_FORMATS;

/** What an export writes: the layout, its rows, and what each layout column holds. */
export interface PivotExportData {
  layout: PivotLayout;
  rows: PivotRow[];
  /** One per layout column: the type of its values (pivot-data.ts). */
  cellTypes: readonly ColumnType[];
  truncated: boolean;
}

const EMPTY_KEY = '(empty)';

/** The header of each layout column: its path joined by ' / ', made unique. */
export function pivotHeaders(layout: PivotLayout): string[] {
  return uniqueHeaders(layout.columns.map((column) => column.path.map((part) => part ?? EMPTY_KEY).join(' / ')));
}

/** The cells of a row in layout order; a total row names itself in its first unused row-field cell. */
function cells(layout: PivotLayout, row: PivotRow): PivotCellValue[] {
  const values = layout.columns.map((column) => row.cells[column.key] ?? null);
  if (row.isTotal) {
    const at = layout.columns.findIndex((c, i) => c.kind === 'row-field' && i >= row.level);
    if (at >= 0 && values[at] === null) values[at] = PIVOT_TOTAL_LABEL;
  }
  return values;
}

const truncatedNote = (rows: number) => `Only the first ${rows} rows were exported.`;

/** An empty text is a quoted empty field and a null (an empty key too) an unquoted one, as tables' CSVs write them. */
function csvField(value: PivotCellValue): string {
  if (value === null) return '';
  if (value === '') return '""';
  // A number as JSON writes it: the shortest text that reads back as the same double.
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function pivotCsv(data: PivotExportData): string {
  const { layout, rows, truncated } = data;
  const lines = [pivotHeaders(layout).map(csvField).join(',')];
  for (const row of rows) lines.push(cells(layout, row).map(csvField).join(','));
  if (truncated) lines.push(csvField(truncatedNote(rows.length)));
  return `${lines.join('\r\n')}\r\n`;
}

const SHEET_NAME_MAX = 31;

/**
 * Any text as a sheet name Excel (and exceljs) accepts: none of : \ / ? * [ ] or control characters,
 * no ' at either end, at most 31 characters (not splitting a character), not blank, not 'History'.
 */
export function xlsxSheetName(text: string): string {
  const trimEnds = (name: string) => name.replace(/^['\s]+|['\s]+$/g, '');
  const cleaned = trimEnds(
    text
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .replace(/[:\\/?*[\]]/g, ' '),
  );
  let short = '';
  for (const char of cleaned) {
    if (short.length + char.length > SHEET_NAME_MAX) break;
    short += char;
  }
  const name = trimEnds(short);
  if (name === '') return 'Pivot';
  return name.toLowerCase() === 'history' ? 'History pivot' : name;
}

export const XLSX_FORMATS = {
  percent: '0.00%',
  date: 'yyyy-mm-dd',
  dateTime: 'yyyy-mm-dd hh:mm:ss',
  dateTimeMillis: 'yyyy-mm-dd hh:mm:ss.000',
} as const;

/** Excel's calendar: 1900-01-01 to 9999-12-31 (exceljs writes a Date as that serial number, in UTC). */
const EXCEL_FIRST = Date.UTC(1900, 0, 1);
const EXCEL_LAST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A date or date-time text of the data call (`2024-01-31`, `2024-01-31T10:00:00.000Z`) as a Date,
 * when an Excel date holds it exactly (in Excel's years, at most millisecond precision); else null.
 */
export function excelDate(text: string, type: 'Date' | 'DateTime'): { date: Date; numFmt: string } | null {
  const match =
    type === 'Date'
      ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
      : /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/.exec(text);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(3))) return null;
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  // Date.UTC reads the years 0-99 as 1900-1999 (0044-03-15 would be written as 1944-03-15).
  if (Number(y) < 1900) return null;
  const time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), millis);
  if (!(time >= EXCEL_FIRST && time <= EXCEL_LAST)) return null;
  const numFmt =
    type === 'Date' ? XLSX_FORMATS.date : millis === 0 ? XLSX_FORMATS.dateTime : XLSX_FORMATS.dateTimeMillis;
  return { date: new Date(time), numFmt };
}

/** Excel's number format for a value field's decimals (`#,##0.00`), as the grid shows them. */
export function xlsxNumberFormat(decimals: number): string {
  return decimals > 0 ? `#,##0.${'0'.repeat(decimals)}` : '#,##0';
}

/** A value column's number look: its field's decimals, and whether it is a percentage. */
interface ValueLook {
  percent: boolean;
  decimals: number;
}

/**
 * A value as an Excel cell: numbers, booleans and dates as themselves, the rest (exact big numbers
 * too) as text. Numbers of value fields keep every digit and show with the field's decimals.
 */
function xlsxCell(value: PivotCellValue, type: ColumnType | undefined, look: ValueLook | null): Partial<ExcelJS.Cell> {
  if (value === null) return { value: null };
  if (typeof value === 'number') {
    if (!look) return { value };
    return { value, numFmt: look.percent ? XLSX_FORMATS.percent : xlsxNumberFormat(look.decimals) };
  }
  if (typeof value === 'boolean') return { value };
  if (type === 'Date' || type === 'DateTime') {
    const date = excelDate(value, type);
    if (date) return { value: date.date, numFmt: date.numFmt };
  }
  return { value };
}

export async function pivotXlsx(data: PivotExportData, sheetName: string): Promise<Buffer> {
  const { layout, rows, cellTypes, truncated } = data;
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(xlsxSheetName(sheetName));
  const headers = pivotHeaders(layout);
  sheet.addRow(headers).font = { bold: true };
  for (const row of rows) {
    const added = sheet.addRow([]);
    cells(layout, row).forEach((value, i) => {
      const cell = added.getCell(i + 1);
      const column = layout.columns[i];
      const field = column?.valueIndex === null || !column ? undefined : layout.values[column.valueIndex];
      const look = field && column ? { percent: column.percent, decimals: field.decimals } : null;
      const { value: cellValue, numFmt } = xlsxCell(value, cellTypes[i], look);
      cell.value = cellValue ?? null;
      if (numFmt) cell.numFmt = numFmt;
    });
    if (row.isTotal) added.font = { bold: true };
  }
  headers.forEach((header, i) => {
    sheet.getColumn(i + 1).width = Math.min(40, Math.max(10, header.length + 2));
  });
  if (truncated) sheet.addRow([truncatedNote(rows.length)]);
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
