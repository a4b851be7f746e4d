import type { FastifyError, FastifyInstance } from 'fastify';
import { WEBHOOK_LIMITS } from '../../../shared/limits';
import type { Deps } from '../../context';
import { bodyOf, inAccount } from '../../http/rest-context';
import type { Services } from '../../services';
import { sizeText } from '../../warehouse/csv-file';

type IdParams = { Params: { id: string } };
type JobQuery = {
  Querystring: Record<string, string | string[] | undefined>;
};

/** `Status=Failed&Status=Completed` or `Status=Failed,Completed`; either spelling of each name. */
function jobsQuery(query: Record<string, string | string[] | undefined>) {
  const get = (name: string) => query[name] ?? query[name.charAt(0).toLowerCase() + name.slice(1)];
  const single = (name: string) => {
    const value = get(name);
    return Array.isArray(value) ? value[0] : value;
  };
  const status = [get('Status') ?? []]
    .flat()
    .flatMap((s) => s.split(','))
    .filter((s) => s !== '');
  return {
    page: single('Page'),
    pageSize: single('PageSize'),
    status,
    sortBy: single('SortBy'),
    sortDirection: single('SortDirection'),
  };
}

/** The spec's integration calls (data-areas.md §7 Integrations), thin adapters over the service. */
export function registerIntegrationsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const integrations = services.integrations;

  app.get('/api/integration_definitions', async (req) => integrations.listDefinitions(await inAccount(req, deps)));
  app.get<IdParams>('/api/integration_definitions/:id', async (req) =>
    integrations.getDefinition(await inAccount(req, deps), req.params.id),
  );
  app.post('/api/integration_definitions', async (req, reply) =>
    reply.status(201).send(await integrations.createDefinition(await inAccount(req, deps), bodyOf(req))),
  );

  app.get('/api/integrations', async (req) => integrations.list(await inAccount(req, deps)));
  app.post('/api/integrations', async (req, reply) =>
    reply.status(201).send(await integrations.create(await inAccount(req, deps), bodyOf(req))),
  );
  app.get<{ Querystring: { days?: string } }>('/api/integrations/stats/records-per-day', async (req) =>
    integrations.recordsPerDay(await inAccount(req, deps), req.query.days),
  );

  // No session: the unguessable token in the address is the credential. The body has a limit of its
  // own (WEBHOOK_LIMITS), named in the 413; other errors go on to the app's error handler.
  app.post<{ Params: { token: string } }>(
    '/api/integrations/webhook/:token',
    {
      bodyLimit: WEBHOOK_LIMITS.maxBodyBytes,
      errorHandler: (error: FastifyError, _req, reply) => {
        if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
        return reply.status(413).send({
          message: `The body is over the limit of ${sizeText(WEBHOOK_LIMITS.maxBodyBytes)} for one webhook call. Send the records in several calls.`,
        });
      },
    },
    async (req) => integrations.webhook(req.params.token, req.body),
  );

  app.get<IdParams>('/api/integrations/:id', async (req) =>
    integrations.get(await inAccount(req, deps), req.params.id),
  );
  app.put<IdParams>('/api/integrations/:id', async (req) =>
    integrations.saveSettings(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.delete<IdParams>('/api/integrations/:id', async (req, reply) => {
    await integrations.remove(await inAccount(req, deps), req.params.id);
    return reply.status(204).send();
  });

  // Not in the spec: a new webhook token or incoming e-mail address; the old one stops working.
  app.post<IdParams>('/api/integrations/:id/rotate-address', async (req) =>
    integrations.rotateAddress(await inAccount(req, deps), req.params.id),
  );
  app.post<IdParams>('/api/integrations/:id/refresh-dataset', async (req) =>
    integrations.refreshDatasets(await inAccount(req, deps), req.params.id),
  );
  app.get<IdParams>('/api/integrations/:id/datasets', async (req) =>
    integrations.datasets(await inAccount(req, deps), req.params.id),
  );
  app.put<IdParams>('/api/integrations/:id/datasets', async (req) =>
    integrations.saveDatasets(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.put<IdParams>('/api/integrations/:id/schedule', async (req) =>
    integrations.saveSchedule(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.post<IdParams>('/api/integrations/:id/trigger', async (req) =>
    integrations.trigger(await inAccount(req, deps), req.params.id),
  );
  app.post<IdParams>('/api/integrations/:id/trigger-full-refresh', async (req) =>
    integrations.triggerFullRefresh(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.get<IdParams & JobQuery>('/api/integrations/:id/jobs', async (req) =>
    integrations.jobs(await inAccount(req, deps), req.params.id, jobsQuery(req.query)),
  );
  app.get<{ Params: { id: string; jobId: string } }>('/api/integrations/:id/jobs/:jobId/logs', async (req) =>
    integrations.logs(await inAccount(req, deps), req.params.id, req.params.jobId),
  );
  app.get<IdParams>('/api/integrations/:id/job_status', async (req) =>
    integrations.jobStatus(await inAccount(req, deps), req.params.id),
  );
}
