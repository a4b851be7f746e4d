/**
 * A pivot written as the user sees it: one header line of the column paths (`2026 / Sum of Amount`),
 * total rows labelled, percentages as percentages. CSV as text; XLSX through exceljs with number
 * formats, so a spreadsheet keeps the values numeric.
 */
import ExcelJS from 'exceljs';
import { PIVOT_TOTAL_LABEL, type PivotCellValue, type PivotLayout, type PivotRow } from '../../../shared/pivots';

export const PIVOT_EXPORT_FORMATS = {
  csv: { contentType: 'text/csv; charset=utf-8' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
} as const;
export type PivotExportFormat = keyof typeof PIVOT_EXPORT_FORMATS;

const EMPTY_KEY = '(empty)';

function headers(layout: PivotLayout): string[] {
  return layout.columns.map((column) => column.path.map((part) => part ?? EMPTY_KEY).join(' / '));
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

function csvField(value: PivotCellValue, percent: boolean): string {
  if (value === null) return '';
  const text = percent && typeof value === 'number' ? `${(value * 100).toFixed(2)}%` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function pivotCsv(layout: PivotLayout, rows: PivotRow[], truncated: boolean): string {
  const lines = [
    headers(layout)
      .map((h) => csvField(h, false))
      .join(','),
  ];
  for (const row of rows) {
    lines.push(
      cells(layout, row)
        .map((value, i) => csvField(value, layout.columns[i]?.percent ?? false))
        .join(','),
    );
  }
  if (truncated) lines.push(csvField(`Only the first ${rows.length} rows were exported.`, false));
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

export async function pivotXlsx(
  layout: PivotLayout,
  rows: PivotRow[],
  sheetName: string,
  truncated: boolean,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(xlsxSheetName(sheetName));
  sheet.addRow(headers(layout)).font = { bold: true };
  for (const row of rows) {
    const added = sheet.addRow(cells(layout, row));
    if (row.isTotal) added.font = { bold: true };
  }
  layout.columns.forEach((column, i) => {
    const sheetColumn = sheet.getColumn(i + 1);
    sheetColumn.width = Math.min(40, Math.max(10, (headers(layout)[i] ?? '').length + 2));
    if (column.percent) sheetColumn.numFmt = '0.00%';
  });
  if (truncated) sheet.addRow([`Only the first ${rows.length} rows were exported.`]);
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
