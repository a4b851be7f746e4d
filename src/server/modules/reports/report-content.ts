/**
 * What a report is made of, decided when it is asked for (a wrong id or an empty pivot answers at
 * once, 404 or 400) and generated later in the background: a table or model sheet is the very query
 * its download runs (same rows, order, filters, headers), a pivot the rows its export writes, a model
 * chart the categories its chart sums up.
 */
import { Readable } from 'node:stream';
import { pivotChartData } from '../../../shared/chart-data';
import type { ChartType } from '../../../shared/charts';
import type { ColumnFormat } from '../../../shared/models';
import type { PivotLayout, PivotRow } from '../../../shared/pivots';
import { REPORT_LIMITS, type ReportFormat, type ReportSource } from '../../../shared/reports';
import type { ColumnType, FilterGroup, Sorting } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { badInput, notFound } from '../../errors';
import { exportTable } from '../../warehouse/export-table';
import { VERSION_NOT_FOUND } from '../models/core';
import { createPivotData } from '../models/pivot-data';
import { pivotCsv, pivotXlsx } from '../models/pivot-export';
import { findVersion } from '../models/repo';
import { namingOverflow } from '../tables/overflow';
import type { TablesService } from '../tables/service';
import { pdfReport } from './pdf-report';
import { pivotParquet } from './pivot-parquet';
import { pivotTable, queryTable } from './report-table';
import { xlsxTable } from './xlsx-table';

export type OriginType = 'Model' | 'StaticTable';

/** Progress of a generation, 0 to 100. */
export type Progress = (percent: number) => void;

export interface PreparedReport {
  origin: { type: OriginType; id: string };
  /** The report's title in a PDF: the table's, model's or pivot's name. */
  title: string;
  /** Makes the file's contents; the stream may still be producing when it is returned. */
  generate: (format: ReportFormat, progress: Progress) => Promise<Readable>;
}

function viewNote(filterGroups: FilterGroup[], sorting: Sorting[]): string {
  const filtered = filterGroups.some((g) => g.filters.length > 0);
  const notes = [filtered ? 'filtered' : null, sorting.length > 0 ? 'sorted' : null].filter(Boolean);
  return notes.length > 0 ? ` (${notes.join(', ')} as on screen)` : '';
}

export function createReportContent(deps: Deps, tables: TablesService) {
  const pivots = createPivotData(deps);
  const warehouse = (ctx: AccountContext) => deps.warehouse.forAccount(ctx.accountId);

  async function modelVersion(ctx: AccountContext, modelId: string, versionId: string) {
    const found = await findVersion(deps.db, ctx.accountId, versionId);
    if (!found || found.model.id !== modelId) throw notFound(VERSION_NOT_FOUND);
    return found;
  }

  /** Rows of a table or model sheet, as its download writes them. */
  async function tableReport(
    ctx: AccountContext,
    type: 'StaticTable' | 'ModelVersion',
    id: string,
    view: { filterGroups: FilterGroup[]; sorting: Sorting[] },
    formats: ReadonlyMap<string, ColumnFormat | null>,
    described: { title: string; source: string; origin: PreparedReport['origin'] },
  ): Promise<PreparedReport> {
    const plan = await tables.downloadPlan(ctx, type, id, view);
    return {
      origin: described.origin,
      title: described.title,
      async generate(format, progress) {
        const executor = warehouse(ctx);
        const { relation, query } = plan;
        if (format === 'csv' || format === 'parquet') {
          // The download's own writer: the file is byte for byte what Download answers.
          const stream = await namingOverflow(executor, relation, () => exportTable(executor, query, format));
          progress(50);
          return stream;
        }
        const { totalCount } = await tables.count(ctx, type, id, { filterGroups: view.filterGroups });
        progress(5);
        // The query names each column by its header (display names made unique), in column order.
        const { columns: resultColumns } = await executor.query({
          sql: `SELECT * FROM (${query.sql}) LIMIT 0`,
          parameters: query.parameters,
        });
        const columns = resultColumns.map((column, i) => {
          const source = relation.columns[i];
          const type: ColumnType = source?.type ?? column.type;
          return { header: column.name, type, format: source ? (formats.get(source.columnKey) ?? null) : null };
        });
        const rowsProgress = (limit: number) => (written: number) =>
          progress(5 + (90 * Math.min(written, limit)) / Math.max(1, Math.min(totalCount, limit)));
        if (format === 'xlsx') {
          return xlsxTable(executor, query, columns, described.title, rowsProgress(totalCount));
        }
        return pdfReport({
          title: described.title,
          source: described.source,
          generatedAt: deps.clock(),
          chart: null,
          table: queryTable(executor, query, columns, totalCount),
          maxRows: REPORT_LIMITS.pdfMaxRows,
          onRows: rowsProgress(REPORT_LIMITS.pdfMaxRows),
        });
      },
    };
  }

  /** A pivot or a model chart: shaped rows, and a chart drawn in a PDF. */
  async function pivotFile(
    ctx: AccountContext,
    format: ReportFormat,
    data: { layout: PivotLayout; rows: PivotRow[]; cellTypes: ColumnType[]; truncated: boolean; hasMore: boolean },
    chartType: ChartType,
    described: { title: string; source: string },
  ): Promise<Readable> {
    if (format === 'csv') return Readable.from([Buffer.from(pivotCsv(data))]);
    if (format === 'xlsx') return Readable.from([await pivotXlsx(data, described.title)]);
    if (format === 'parquet') return pivotParquet(warehouse(ctx), data.layout, data.rows, data.cellTypes);
    return pdfReport({
      title: described.title,
      source: described.source,
      generatedAt: deps.clock(),
      chart: { type: chartType, data: pivotChartData(data.layout, data.rows, data.hasMore) },
      table: pivotTable(data.layout, data.rows, data.cellTypes),
      maxRows: REPORT_LIMITS.pdfMaxRows,
    });
  }

  return {
    async prepare(ctx: AccountContext, source: ReportSource): Promise<PreparedReport> {
      if (source.kind === 'StaticTable') {
        const summary = await tables.get(ctx, 'StaticTable', source.id);
        const formats = new Map(
          summary.columns.map((c) => [c.columnKey, (c as { format?: ColumnFormat | null }).format ?? null]),
        );
        return tableReport(ctx, 'StaticTable', source.id, source, formats, {
          title: summary.name,
          source: `Table ${summary.name}${viewNote(source.filterGroups, source.sorting)}`,
          origin: { type: 'StaticTable', id: source.id },
        });
      }
      const { model, version } = await modelVersion(ctx, source.modelId, source.versionId);
      const which = version.status === 'Draft' ? 'unpublished changes' : `version ${version.versionNumber}`;
      const formats = new Map(version.definition.columns.map((c) => [c.columnKey, c.format]));
      const origin = { type: 'Model' as const, id: model.id };
      if (source.kind === 'Model') {
        return tableReport(ctx, 'ModelVersion', source.versionId, source, formats, {
          title: model.name,
          source: `Model ${model.name}, ${which}${viewNote(source.filterGroups, source.sorting)}`,
          origin,
        });
      }
      if (source.kind === 'Pivot') {
        const pivot = version.definition.pivots.find((p) => p.key === source.pivotKey);
        if (!pivot) throw notFound('Pivot not found.');
        if (pivot.rows.length + pivot.columns.length + pivot.values.length === 0) {
          throw badInput('The pivot is empty: add rows, columns or values before saving it as a report.');
        }
        const title = `${model.name} - ${pivot.name}`;
        const described = { title, source: `Pivot ${pivot.name} of model ${model.name}, ${which}` };
        return {
          origin,
          title,
          async generate(format, progress) {
            const data = await pivots.all(ctx, source.versionId, source.pivotKey);
            progress(50);
            return pivotFile(ctx, format, { ...data, hasMore: data.truncated }, pivot.chart?.type ?? 'bar', described);
          },
        };
      }
      const title = `${model.name} - Chart`;
      const described = { title, source: `Chart of model ${model.name}, ${which}` };
      return {
        origin,
        title,
        async generate(format, progress) {
          const page = await pivots.chart(ctx, source.versionId, source.chart);
          progress(50);
          const cellTypes = page.layout.columns.map((c): ColumnType => (c.kind === 'row-field' ? 'Text' : 'Number'));
          const data = { layout: page.layout, rows: page.rows, cellTypes, truncated: false, hasMore: page.hasMore };
          return pivotFile(ctx, format, data, source.chartType, described);
        },
      };
    },
  };
}

export type ReportContent = ReturnType<typeof createReportContent>;
