import { accountsRouter } from '../modules/accounts/router';
import { adminRouter } from '../modules/admin/router';
import { authRouter } from '../modules/auth/router';
import { automationRunsRouter } from '../modules/automations/run-router';
import { automationsRouter } from '../modules/automations/router';
import { chatRouter } from '../modules/chat/router';
import { feedbackRouter } from '../modules/feedback/router';
import { filesRouter } from '../modules/files/router';
import { integrationsRouter } from '../modules/integrations/router';
import { modelsRouter } from '../modules/models/router';
import { notificationsRouter } from '../modules/notifications/router';
import { staticTablesRouter } from '../modules/static-tables/router';
import { tablesRouter } from '../modules/tables/router';
import { usersRouter } from '../modules/users/router';
import { reportsRouter } from '../modules/reports/router';
import { searchRouter } from '../search/router';
import { queriesRouter } from '../modules/queries/router';
import { router } from './trpc';

/** One router per feature area; the client imports only this type. */
export const appRouter = router({
  auth: authRouter,
  accounts: accountsRouter,
  users: usersRouter,
  admin: adminRouter,
  feedback: feedbackRouter,
  tables: tablesRouter,
  staticTables: staticTablesRouter,
  models: modelsRouter,
  integrations: integrationsRouter,
  notifications: notificationsRouter,
  files: filesRouter,
  reports: reportsRouter,
  automationRuns: automationRunsRouter,
  search: searchRouter,
  automations: automationsRouter,
  chat: chatRouter,
  queries: queriesRouter,
});

export type AppRouter = typeof appRouter;
