/**
 * The rows a report writes, whatever they came from: columns with headers and types, the rows in
 * chunks (never all at once), and each cell's text as the screen shows it. A table or model sheet
 * reads its rows from the warehouse in DuckDB's chunks; a pivot's rows are already shaped.
 */
import type { CompiledQuery } from '../../../engine';
import type { ColumnFormat } from '../../../shared/models';
import { formatNumber } from '../../../shared/number-format';
import { PIVOT_TOTAL_LABEL, type PivotCellValue, type PivotLayout, type PivotRow } from '../../../shared/pivots';
import { formatPivotValue, valueLook } from '../../../shared/pivot-values';
import type { ColumnType } from '../../../shared/tables';
import type { WarehouseExecutor } from '../../warehouse/types';
import { pivotHeaders } from '../models/pivot-export';
import { displayValue, numberText } from '../tables/display-values';

export interface ReportColumn {
  header: string;
  type: ColumnType;
  /** Right-aligned in a PDF. */
  numeric: boolean;
}

/** A row's cells as text; `strong` for a pivot's total rows, set in bold as the grid sets them. */
export interface ReportRow {
  cells: string[];
  strong?: boolean;
}

export interface ReportTable {
  columns: ReportColumn[];
  /** How many rows there are, when known before reading them (progress, a PDF's cap note). */
  total: number | null;
  /** The rows, in chunks. */
  chunks: () => AsyncIterable<ReportRow[]>;
}

const EMPTY_KEY = '(empty)';

/**
 * A date-time as the report prints it: UTC, to the second, with the fraction the value has (a report
 * is read by anyone, anywhere); years outside 0001-9999 keep the grid's ISO years (`-000043-03-15`).
 */
function dateTimeText(text: string): string {
  const match = /^([+-]?\d{4,6}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(text);
  return match ? `${match[1]} ${match[2]}${match[3] && /[1-9]/.test(match[3]) ? match[3] : ''}` : text;
}

/**
 * A warehouse value as the grid's text, exactly: numbers by numberText, lists, structs and maps as
 * their JSON (the grid's and the CSV's text: items joined by ', ' could not be told from items
 * holding ', '), the rest as displayValue writes it. Null stays null.
 */
export function gridText(value: unknown, type: ColumnType): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return displayValue(value, type);
}

/** A warehouse value as the grid shows it: numbers in their column's format, the rest as the grid's text. */
export function cellText(value: unknown, type: ColumnType, format: ColumnFormat | null): string {
  if (typeof value === 'number' && format) return formatNumber(value, format, 'en-US');
  const text = gridText(value, type) ?? '';
  return type === 'DateTime' ? dateTimeText(text) : text;
}

/** A table or model sheet: the download query's rows (headers are its column names), streamed. */
export function queryTable(
  executor: WarehouseExecutor,
  query: CompiledQuery,
  columns: { header: string; type: ColumnType; format: ColumnFormat | null }[],
  total: number | null,
): ReportTable {
  return {
    columns: columns.map((c) => ({ header: c.header, type: c.type, numeric: c.type === 'Number' })),
    total,
    async *chunks() {
      for await (const rows of executor.stream(query)) {
        yield rows.map((row) => ({ cells: columns.map((c) => cellText(row[c.header], c.type, c.format)) }));
      }
    },
  };
}

const PIVOT_CHUNK = 500;

/**
 * A pivot as its grid reads: the export's headers (column paths joined by ' / '), row fields with
 * 'Total' on total rows, values by their field's rule (decimals, percentages, the column's format).
 */
export function pivotTable(
  layout: PivotLayout,
  rows: readonly PivotRow[],
  cellTypes: readonly ColumnType[],
): ReportTable {
  const headers = pivotHeaders(layout);
  const fieldKeys = layout.columns.filter((c) => c.kind === 'row-field').map((c) => c.key);
  const text = (row: PivotRow): ReportRow => ({
    strong: row.isTotal,
    cells: layout.columns.map((column) => {
      const value: PivotCellValue = row.cells[column.key] ?? null;
      if (column.kind === 'row-field') {
        const index = fieldKeys.indexOf(column.key);
        if (row.isTotal && index >= row.level) return index === row.level ? PIVOT_TOTAL_LABEL : '';
        return value === null ? EMPTY_KEY : String(value);
      }
      return formatPivotValue(value, valueLook(layout.values, column));
    }),
  });
  return {
    columns: layout.columns.map((column, i) => ({
      header: headers[i]!,
      type: cellTypes[i] ?? 'Text',
      numeric: column.kind !== 'row-field' && (cellTypes[i] ?? 'Number') === 'Number',
    })),
    total: rows.length,
    async *chunks() {
      for (let at = 0; at < rows.length; at += PIVOT_CHUNK) yield rows.slice(at, at + PIVOT_CHUNK).map(text);
    },
  };
}
