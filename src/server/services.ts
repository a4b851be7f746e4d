import type { Deps } from './context';
import { createAccountsService } from './modules/accounts/service';
import { createAdminService } from './modules/admin/service';
import { createAuthService } from './modules/auth/service';
import { createFeedbackService } from './modules/feedback/service';
import { createIntegrationsService } from './modules/integrations/service';
import { createModelsService } from './modules/models/service';
import { createStaticTablesService } from './modules/static-tables/service';
import { createTablesService } from './modules/tables/service';
import { createUsersService } from './modules/users/service';

/** Every feature area's service, built once per app; a new area adds one line here. */
export function createServices(deps: Deps) {
  return {
    auth: createAuthService(deps),
    accounts: createAccountsService(deps),
    users: createUsersService(deps),
    admin: createAdminService(deps),
    feedback: createFeedbackService(deps),
    tables: createTablesService(deps),
    staticTables: createStaticTablesService(deps),
    models: createModelsService(deps),
    integrations: createIntegrationsService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
