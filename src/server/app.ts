import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { LIMITS } from '../shared/limits';
import type { Config } from './config';
import type { Deps } from './context';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { createRateLimiter } from './auth/rate-limiter';
import { tokenHasher } from './auth/tokens';
import { registerApiDocs } from './http/api-docs';
import { registerClient, type ClientMode } from './http/client-assets';
import { registerCrossSiteCheck } from './http/cross-site';
import { registerDevOutbox } from './http/dev-outbox';
import { registerErrorHandler } from './http/error-handler';
import { registerJsonBody } from './http/json-body';
import { inAccount } from './http/rest-context';
import { registerRequestUser, sessionTokenOf, userAgentOf } from './http/request-user';
import { registerSecurityHeaders } from './http/security-headers';
import { clearSessionCookie, setSessionCookie } from './http/session-cookie';
import { outboxMailer, smtpMailer } from './mail/mailer';
import { registerAccountsRest } from './modules/accounts/rest';
import { registerAdminRest } from './modules/admin/rest';
import { registerAutomationRunsRest } from './modules/automations/run-rest';
import { registerAuthRest } from './modules/auth/rest';
import { registerFeedbackRest } from './modules/feedback/rest';
import { registerIntegrationsRest } from './modules/integrations/rest';
import { registerModelsRest } from './modules/models/rest';
import { registerNotificationsRest } from './modules/notifications/rest';
import { registerStaticTablesRest } from './modules/static-tables/rest';
import { registerTablesRest } from './modules/tables/rest';
import { registerUsersRest } from './modules/users/rest';
import { resolveSecret } from './secret-key';
import { createServices, leftoverSweepers, type Services } from './services';
import { prepareWarehouses, sweepWorkFiles } from './durability/startup';
import { createWriteJournal } from './durability/write-journal';
import { productHubs, type HubDefinition } from './hubs/definitions';
import { createHubRegistry } from './hubs/hub-sender';
import { registerHubs, type HubTransportOptions } from './hubs/transport';
import { localFileStore } from './files/file-store';
import { createEventBus } from './events';
import { registerFilesRest } from './modules/files/rest';
import { registerAutomationsRest } from './modules/automations/rest';
import { registerReportsRest } from './modules/reports/rest';
import { registerSearchRest } from './search/rest';
import { registerChatRest } from './modules/chat/rest';
import { appRouter, type AppRouter } from './trpc/app-router';
import { retryAfterMeta } from './trpc/retry-after';
import { createWarehouse, warehouseOptions } from './warehouse/warehouse';

export interface BuildOptions {
  /** Replaces the wall clock, so tests can move time past token expiry. */
  clock?: () => Date;
  client?: ClientMode;
  logger?: boolean;
  /** Hub timings (tests shorten them) and hubs of the tests' own, served beside (or instead of) the product's. */
  hubs?: HubTransportOptions & { extra?: HubDefinition[] };
}

export interface App {
  server: FastifyInstance;
  deps: Deps;
  services: Services;
}

/** Builds the whole server on a data folder: stores, services, tRPC, REST and the client. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const clock = options.clock ?? (() => new Date());
  const db = openDatabase(path.join(config.dataDir, 'app.db'));
  await migrateToLatest(db);

  const warehouse = createWarehouse(warehouseOptions(config));
  const files = localFileStore(path.join(config.dataDir, 'files'));
  await files.sweepTemporary();
  const deps: Deps = {
    db,
    config,
    clock,
    hashToken: tokenHasher(resolveSecret(config.dataDir, config.sessionSecret)),
    mailer: config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : // Without SMTP the console shows each mail's links, so the first sign-in needs only this terminal.
        outboxMailer(config.dataDir, clock, options.logger === false ? undefined : (text) => console.log(text)),
    loginLimiter: createRateLimiter(config.loginLimits.windowMs, clock),
    warehouse,
    writes: createWriteJournal(db, warehouse, clock),
    hubs: createHubRegistry(),
    files,
    events: createEventBus((error, name) => console.error(`A listener of ${name} failed`, error)),
  };
  const services = createServices(deps);
  // Before the runner marks interrupted runs Failed: settling a write may add to a run's log.
  await prepareWarehouses(deps, leftoverSweepers(deps));
  await services.files.recoverAfterRestart();
  await services.integrations.start();
  // Data that came before its account's search index is queued once (indexed in the background).
  await services.search.index.indexMissing();
  // Takes over runs a stop left behind once their leases expire; each resumes at its first unfinished step.
  await services.automationRuns.start();

  const server = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 200 },
  });
  server.addHook('onClose', async () => {
    // Automation runs stop first (a step may wait on a sync); nothing is marked: their leases expire and the next start resumes them.
    await services.automationRuns.close();
    // Syncs, discovery and the scheduler stop before the stores they write to close.
    await services.integrations.close();
    // Reports being generated finish (or fail) while their warehouse and file rows are still there.
    await services.reports.idle();
    // The table being indexed finishes; the writer thread and the index files close.
    await services.search.index.close();
    await deps.warehouse.close();
    await db.destroy();
    // Nothing runs any more: a download's scratch file whose removal was still queued goes now.
    await sweepWorkFiles(config.dataDir);
  });

  registerErrorHandler(server);
  registerJsonBody(server);
  registerSecurityHeaders(server, config, { devClient: options.client?.kind === 'vite' });
  registerCrossSiteCheck(server, config);
  await server.register(cookie);
  await server.register(multipart, { limits: { fileSize: LIMITS.screenshotMaxBytes } });
  registerRequestUser(server, deps);
  // Before any REST path: the OpenAPI document lists every path registered after it.
  registerApiDocs(server, deps);

  await server.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }) => ({
        deps,
        services,
        user: req.user,
        sessionToken: sessionTokenOf(req),
        clientKey: req.ip,
        userAgent: userAgentOf(req),
        setSession: (token: string) => setSessionCookie(res, config, token),
        clearSession: () => clearSessionCookie(res, config),
        resolveAccount: () => inAccount(req, deps),
      }),
      responseMeta: retryAfterMeta,
      onError: ({ error, path: procedure }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          server.log.error({ err: error.cause ?? error, procedure }, 'tRPC error');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  registerAuthRest(server, deps, services);
  registerAccountsRest(server, deps, services);
  registerUsersRest(server, deps, services);
  registerAdminRest(server, deps, services);
  registerFeedbackRest(server, deps, services);
  registerTablesRest(server, deps, services);
  registerStaticTablesRest(server, deps, services);
  registerModelsRest(server, deps, services);
  registerIntegrationsRest(server, deps, services);
  registerNotificationsRest(server, deps, services);
  // A test's own hub of a product hub's name (every name is one now) is served instead of it.
  const extraHubs = options.hubs?.extra ?? [];
  const hubs = [...productHubs(deps, services).filter((h) => !extraHubs.some((e) => e.name === h.name)), ...extraHubs];
  await registerHubs(server, deps, hubs, options.hubs);
  registerFilesRest(server, deps, services);
  registerReportsRest(server, deps, services);
  registerAutomationRunsRest(server, deps, services);
  registerSearchRest(server, deps, services);
  registerAutomationsRest(server, deps, services);
  registerChatRest(server, deps, services);
  if (config.nodeEnv !== 'production') registerDevOutbox(server, config.dataDir);

  await registerClient(server, options.client ?? { kind: 'none' });
  return { server, deps, services };
}
