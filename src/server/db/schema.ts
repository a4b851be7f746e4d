/**
 * The metadata store's schema, one file per area under `schema/`: each says its tables' names
 * (`<Area>Schema`) and row types; `Database` joins them for kysely, and every type is re-exported
 * from here so importers keep one path.
 */
import type { AccountsSchema } from './schema/accounts';
import type { AutomationsSchema } from './schema/automations';
import type { ChatSchema } from './schema/chat';
import type { DurabilitySchema } from './schema/durability';
import type { ErrorReportsSchema } from './schema/error-reports';
import type { FilesSchema } from './schema/files';
import type { IntegrationsSchema } from './schema/integrations';
import type { ModelsSchema } from './schema/models';
import type { NotificationsSchema } from './schema/notifications';
import type { SearchSchema } from './schema/search';
import type { StaticTablesSchema } from './schema/static-tables';

export type * from './schema/accounts';
export type * from './schema/automations';
export type * from './schema/chat';
export type * from './schema/durability';
export type * from './schema/error-reports';
export type * from './schema/files';
export type * from './schema/integrations';
export type * from './schema/models';
export type * from './schema/notifications';
export type * from './schema/search';
export type * from './schema/static-tables';

/**
 * Tables of the metadata store. Timestamps are ISO-8601 text and role lists JSON text, so the
 * same schema runs on SQLite and Postgres.
 */
export interface Database
  extends
    AccountsSchema,
    ErrorReportsSchema,
    StaticTablesSchema,
    ModelsSchema,
    IntegrationsSchema,
    DurabilitySchema,
    NotificationsSchema,
    AutomationsSchema,
    FilesSchema,
    SearchSchema,
    ChatSchema {}
