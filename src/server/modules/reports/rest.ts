import type { FastifyInstance } from 'fastify';
import { createReportSchema, reportIdSchema, reportProgressSchema } from '../../../shared/reports';
import type { Deps } from '../../context';
import { endpoint } from '../../http/endpoint';
import type { Services } from '../../services';

const tag = 'Reports';

export function registerReportsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/reports',
      summary: 'Save a table, model sheet, pivot or model chart as a report (CSV, XLSX, Parquet or PDF)',
      description:
        'Answers at once with the report, Pending; it is generated in the background (follow it with GET /api/reports/{id}/progress) and listed on the Reports page (GET /api/files?type=Report). Its requester is notified when it is ready. read_only members are refused.',
      tag,
      access: 'account',
      body: createReportSchema,
      answers: { 202: { description: 'The report, Pending.', json: reportProgressSchema } },
    },
    async ({ ctx, body }) => services.reports.create(ctx, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/reports/{id}/progress',
      summary: "Where a report's generation stands: Pending with its progress, Ready, or Failed with the reason",
      tag,
      access: 'account',
      params: reportIdSchema,
      answers: { 200: { description: 'The report.', json: reportProgressSchema } },
    },
    async ({ ctx, params }) => services.reports.progress(ctx, params.id),
  );
}
