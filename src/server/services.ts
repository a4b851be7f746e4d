import type { Deps } from './context';
import { registerMaterializeWrites } from './modules/automations/steps/materialize';
import type { LeftoverSweeper } from './durability/startup';
import { sweepStagingTables } from './modules/integrations/durable-writes';
import { sweepModelLeftovers } from './modules/models/durable-writes';
import { sweepStaticLeftovers } from './modules/static-tables/durable-writes';
import { createAccountsService } from './modules/accounts/service';
import { createAutomationRunsService } from './modules/automations/run-service';
import { createAdminService } from './modules/admin/service';
import { createChatService } from './modules/chat/service';
import { createAuthService } from './modules/auth/service';
import { createAutomationsService } from './modules/automations/service';
import { createFeedbackService } from './modules/feedback/service';
import { createFilesService } from './modules/files/service';
import { reportNotice } from './modules/reports/notice';
import { createReportsService } from './modules/reports/service';
import { createIntegrationsService } from './modules/integrations/service';
import { createModelsService } from './modules/models/service';
import { createNotificationsService } from './modules/notifications/service';
import { createStaticTablesService } from './modules/static-tables/service';
import { createTablesService } from './modules/tables/service';
import { createUsersService } from './modules/users/service';
import { createSearchService } from './search/service';
import { createQuerySynonymsService } from './modules/queries/synonyms-service';

/** Every feature area's service but automations (which drive the others), built once per app. */
function createCoreServices(deps: Deps) {
  const tables = createTablesService(deps);
  const files = createFilesService(deps);
  return {
    auth: createAuthService(deps),
    accounts: createAccountsService(deps),
    users: createUsersService(deps),
    admin: createAdminService(deps),
    feedback: createFeedbackService(deps),
    tables,
    staticTables: createStaticTablesService(deps),
    models: createModelsService(deps),
    integrations: createIntegrationsService(deps),
    notifications: createNotificationsService(deps),
    files,
    reports: createReportsService(deps, { tables, files, notice: reportNotice(deps) }),
    search: createSearchService(deps),
    querySynonyms: createQuerySynonymsService(deps, tables),
  };
}

/** The services automation steps may call (every area but automations). */
export type CoreServices = ReturnType<typeof createCoreServices>;

/** Every feature area's service, built once per app; a new area adds one line here. */
export function createServices(deps: Deps) {
  const core = createCoreServices(deps);
  // Before any warehouse opens: a Materialize step's write a crash interrupted is settled then.
  registerMaterializeWrites(deps.writes);
  const automations = createAutomationsService(deps, core);
  return {
    ...core,
    automations,
    // Runs are refused while the definition has an error, as its service computes it.
    automationRuns: createAutomationRunsService(deps, core, { definitionError: automations.errorOf }),
    chat: createChatService(deps, core),
  };
}

export type Services = ReturnType<typeof createServices>;

/** What each area may find left in an account's warehouse after a crash, swept when it first opens. */
export function leftoverSweepers(deps: Deps): LeftoverSweeper[] {
  return [
    (_accountId, connection) => sweepStagingTables(connection),
    (accountId, connection) => sweepStaticLeftovers(deps.db, accountId, connection),
    (accountId, connection) => sweepModelLeftovers(deps.db, accountId, connection),
  ];
}
