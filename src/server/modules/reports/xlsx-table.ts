/**
 * A table or model sheet as an XLSX file, written row by row with exceljs's streaming writer (each
 * row leaves memory once committed): numbers as numbers in their column's format, dates as dates,
 * booleans as booleans, the rest as the grid's text (report-table.ts gridText), '' as an empty text
 * distinct from a null's blank cell. A number Excel cannot hold exactly (the data call
 * answers it as text) stays text, so no digit is lost.
 */
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { CompiledQuery } from '../../../engine';
import type { ColumnFormat } from '../../../shared/models';
import type { ColumnType } from '../../../shared/tables';
import type { WarehouseExecutor } from '../../warehouse/types';
import { excelDate, xlsxSheetName } from '../models/pivot-export';
import { gridText } from './report-table';

export interface XlsxColumn {
  header: string;
  type: ColumnType;
  format: ColumnFormat | null;
}

/** Excel's number format for a column format: separators, decimals, percent, prefix and suffix. */
export function excelNumberFormat(format: ColumnFormat): string {
  const digits =
    format.decimalPlaces === null ? '' : format.decimalPlaces > 0 ? `.${'0'.repeat(format.decimalPlaces)}` : '';
  const general = format.decimalPlaces === null;
  const body = general
    ? format.thousandSeparator
      ? '#,##0.##########'
      : '0.##########'
    : `${format.thousandSeparator ? '#,##0' : '0'}${digits}`;
  const quoted = (text: string) => (text ? `"${text.replaceAll('"', '')}"` : '');
  return `${quoted(format.prefix)}${body}${format.style === 'Percent' ? '%' : ''}${quoted(format.suffix)}`;
}

function cell(value: unknown, column: XlsxColumn): { value: ExcelJS.CellValue; numFmt?: string } {
  if (value === null || value === undefined) return { value: null };
  if (typeof value === 'number') {
    // -0 is 0, as the data call answers it.
    if (!column.format) return { value: value === 0 ? 0 : value };
    // The multiplier is part of what the screen shows: Excel gets the shown number.
    const shown = column.format.multiplyBy === null ? value : value * column.format.multiplyBy;
    return { value: shown, numFmt: excelNumberFormat(column.format) };
  }
  if (typeof value === 'boolean') return { value };
  if ((column.type === 'Date' || column.type === 'DateTime') && typeof value === 'string') {
    const date = excelDate(value, column.type);
    if (date) return { value: date.date, numFmt: date.numFmt };
  }
  const text = gridText(value, column.type) ?? '';
  // exceljs writes '' as an empty formula result, which reads back as a blank cell: an inline string
  // keeps it an empty text, distinct from a null's blank.
  return { value: text === '' ? { richText: [{ text: '' }] } : text };
}

export function xlsxTable(
  executor: WarehouseExecutor,
  query: CompiledQuery,
  columns: XlsxColumn[],
  sheetName: string,
  onRows?: (written: number) => void,
): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(xlsxSheetName(sheetName), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, width: Math.min(40, Math.max(10, c.header.length + 2)) }));
  sheet.getRow(1).font = { bold: true };
  const write = async () => {
    let written = 0;
    for await (const rows of executor.stream(query)) {
      for (const row of rows) {
        const added = sheet.addRow([]);
        columns.forEach((column, i) => {
          const { value, numFmt } = cell(row[column.header], column);
          const target = added.getCell(i + 1);
          target.value = value;
          if (numFmt) target.numFmt = numFmt;
        });
        added.commit();
      }
      written += rows.length;
      onRows?.(written);
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
