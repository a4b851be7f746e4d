/**
 * Integrations (spec data-areas.md §3 Integration, Integration definition, Run, Attempt, Dataset):
 * the entities, enums and inputs shared by the server and the client, with the spec's field names.
 */
import { z } from 'zod';
import { wholeNumber } from './api';
import type { ColumnType } from './tables';

export const INTEGRATION_TYPES = ['Api', 'Airbyte', 'Database', 'Sftp', 'Webhook', 'IncomingEmail', 'Sample'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export const SYNC_STATUSES = ['Active', 'Inactive'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

export const SYNC_FREQUENCY_TYPES = ['Manual', 'Interval', 'Cron'] as const;
export type SyncFrequencyType = (typeof SYNC_FREQUENCY_TYPES)[number];

export const RUN_STATUSES = ['Completed', 'Failed', 'Terminated', 'Running', 'Cancelled', 'Pending'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The same lists as the connector contract (server/modules/integrations/connectors/types.ts). */
export const SYNC_TYPES = ['FullRefresh', 'Incremental'] as const;
export type SyncType = (typeof SYNC_TYPES)[number];
export const INGESTION_TYPES = ['Overwrite', 'Append', 'AppendDedup'] as const;
export type IngestionType = (typeof INGESTION_TYPES)[number];

/**
 * What each ingestion type does with a sync's rows, shown in Dataset settings. Incremental reads
 * start at the saved cursor inclusively, so rows written later with the same cursor value are
 * read; how each type keeps the rows read again at that boundary from being stored twice.
 */
export const INGESTION_HELP: Record<IngestionType, string> = {
  Overwrite: 'Each sync replaces the table with the rows it reads.',
  Append:
    'Each sync adds the rows it reads. Incremental syncs read from the last cursor value on, that value included, ' +
    'and every row without a cursor value: rows at that value or without one already stored (the same in every ' +
    'selected column) are not added again, new ones are.',
  AppendDedup:
    'Each sync adds the rows it reads and keeps the newest row per primary key (by cursor, then arrival). ' +
    'Incremental syncs read from the last cursor value on, that value included, and every row without a cursor ' +
    'value; the key keeps rows read again once, and rows without a key value already stored at that cursor value ' +
    '(or without one) are not added again.',
};

export const SCHEDULE_PRESETS = ['Day', 'Week', 'Month'] as const;
export type SchedulePreset = (typeof SCHEDULE_PRESETS)[number];
export const WEEK_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

export const DISCOVERY_STATUSES = ['Processing', 'Loaded', 'Error'] as const;
export type DiscoveryStatus = (typeof DISCOVERY_STATUSES)[number];

export const LOG_LEVELS = ['INFO', 'WARN', 'ERROR'] as const;
export type RunLogLevel = (typeof LOG_LEVELS)[number];

export const ATTEMPT_ERROR_TYPES = ['ConfigError', 'SystemError', 'TransientError'] as const;
export type AttemptErrorType = (typeof ATTEMPT_ERROR_TYPES)[number];

/** What a secret field reads as in every response. A save sending it back keeps the stored value. */
export const SECRET_MASK = '********';

/** Warehouse schemas an integration may not take (the warehouse's own, and DuckDB's). */
export const RESERVED_SCHEMAS = [
  'main',
  'static',
  'model',
  'information_schema',
  'pg_catalog',
  'temp',
  'memory',
  'system',
  'warehouse',
  'ordered_copies',
  '_workspace',
] as const;

export const INTEGRATION_MESSAGES = {
  discovering: 'Discovering available datasets',
  discoveryFailed: 'Failed to discover datasets',
  alreadyRunning: 'A sync of this integration is already running.',
  invalidCron: 'Invalid cron expression',
  notFound: 'Integration not found.',
  definitionNotFound: 'Integration definition not found.',
  schemaTaken: 'Another integration of this account already uses this schema name.',
  reauthRequired: 'Not syncing: Re-authentication required',
  noConnector: 'This kind of integration cannot be created on this server: no connector is installed for it.',
  /** Integrations of the old 'Airbyte protocol' definition, whose configuration named the program to run. */
  retiredCommandSource:
    'This integration ran a program named in its configuration, which this server no longer does. Ask the operator to register the source (AIRBYTE_SOURCES) and create the integration again from it.',
  pushOnly: 'This integration receives its data as it arrives; it has nothing to sync.',
  badWebhookBody: 'The body must be a JSON object or an array of JSON objects.',
  unknownWebhook: 'Unknown webhook address.',
  noPushAddress: 'Only Webhook and Incoming e-mail integrations have an address to change.',
  /** 'Sync data now' with nothing chosen would record an empty run that looks like a success. */
  noDatasetsChosen: 'No dataset is chosen to sync: choose at least one in Dataset settings first.',
  /** Data syncing turned on with no schedule to follow would say "on" and never sync. */
  scheduleNeeded: 'Choose a sync schedule before turning on data syncing.',
  jobNotFound: 'Run not found.',
} as const;

/** Polling of the integration screens (spec §9). */
export const INTEGRATION_TIMINGS = {
  datasetsPollMs: 2_000,
  jobsPollMs: 10_000,
  syncStatusPollMs: 5_000,
  logsPollMs: 2_000,
  recentRuns: 5,
} as const;

/** Runs per page of the Activity log's run history. */
export const RUNS_PAGE_SIZE = 10;

/** Schema names are lowercased with every character other than a-z and 0-9 replaced by `_` (spec §5). */
export function schemaNameFrom(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '_');
}

// ---- Entities -------------------------------------------------------------------------------------

export interface IntegrationDefinitionVersion {
  id: string;
  version: number;
  isLatest: boolean;
  /** JSON text with settings.properties, settings.required and optional advancedAuth. */
  specification: string;
}

export interface IntegrationDefinition {
  id: string;
  name: string;
  icon: string | null;
  docs: string | null;
  type: IntegrationType;
  /** The latest version's specification, parsed. */
  specification: IntegrationSpecification;
  version: number;
  versionId: string;
  isCustom: boolean;
  isPublic: boolean;
  /** Whether this server has the connector to create integrations of it. */
  canComplete: boolean;
  versions: IntegrationDefinitionVersion[];
}

export interface IntegrationSpecification {
  settings: { properties: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  advancedAuth?: unknown;
  [key: string]: unknown;
}

export interface Run {
  id: string;
  status: RunStatus;
  /** Sync (scheduled or 'Sync data now') or FullRefresh (Refresh data). */
  kind: 'Sync' | 'FullRefresh';
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  recordsProcessed: number;
  bytesProcessed: number;
}

export interface DatasetProgress {
  name: string;
  status: RunStatus;
  recordsProcessed: number;
  bytesProcessed: number;
  errors: { type: AttemptErrorType; message: string }[];
  /** When this dataset's sync began and ended (absent in runs recorded before they were kept). */
  startedAt?: string | null;
  endedAt?: string | null;
}

export interface Attempt {
  id: string;
  workflowId: string;
  attemptNumber: number;
  startTime: string;
  endTime: string | null;
  status: RunStatus;
  progress: { state: RunStatus; datasets: DatasetProgress[] };
}

export interface Job extends Run {
  attempts: Attempt[];
}

export interface RunLog {
  id: number;
  level: RunLogLevel;
  message: string;
  at: string;
  /** `[INFO] message`, as the activity log shows it. */
  line: string;
}

export interface DatasetProperty {
  name: string;
  type: ColumnType;
  isPrimaryKey: boolean;
  isCursor: boolean;
  description?: string;
  format?: string;
}

export interface Dataset {
  id: string;
  name: string;
  isSelected: boolean;
  availableProperties: DatasetProperty[];
  selectedProperties: string[];
  syncOptions: { default: SyncType; supportedTypes: SyncType[] };
  ingestionOptions: { default: IngestionType; supportedTypes: IngestionType[] };
  syncType: SyncType;
  dataIngestionType: IngestionType;
  primaryKey: string[];
  cursorField: string | null;
  /** The warehouse table (in the integration's schema) its rows land in. */
  tableName: string;
  rowCount: number | null;
  lastSyncedAt: string | null;
}

export interface DatasetsResponse {
  status: DiscoveryStatus;
  message: string | null;
  datasets: Dataset[];
}

/** A stream of the integration as the detail screen lists it. */
export interface IntegrationStream {
  id: string;
  name: string;
  selectedSyncType: SyncType;
  syncOptions: Dataset['syncOptions'];
  selectedIngestionType: IngestionType;
  ingestionOptions: Dataset['ingestionOptions'];
  selectedProperties: string[];
  isSelected: boolean;
  hasData: boolean;
}

export interface ScheduleSettings {
  type: 'Manual' | 'Scheduled';
  frequency?: SchedulePreset;
  /** HH:MM, UTC. */
  time?: string;
  weekDay?: WeekDay;
  monthDay?: number;
}

export interface Integration {
  id: string;
  name: string;
  icon: string | null;
  definitionName: string;
  integrationDefinitionId: string;
  integrationDefinitionVersionId: string;
  type: IntegrationType;
  syncStatus: SyncStatus;
  syncFrequencyType: SyncFrequencyType;
  syncFrequency: { pattern: string; timeZone: string } | null;
  schedule: ScheduleSettings;
  nextRunAt: string | null;
  requiresReAuthentication: boolean;
  recentRuns: Run[];
  datasets: { id: string; name: string; hasData: boolean }[];
  streams: IntegrationStream[];
  discovery: { status: DiscoveryStatus; message: string | null };
  /** Secrets masked. */
  configuration: Record<string, unknown>;
  schemaName: string;
  webhookToken: string | null;
  /** The incoming address of a Webhook integration: /api/integrations/webhook/{webhookToken}. */
  webhookUrl: string | null;
  emailAddress: string | null;
  createdAt: string;
}

export interface RecordsPerDay {
  day: string;
  count: number;
}

// ---- Inputs ---------------------------------------------------------------------------------------

const configurationSchema = z.record(z.string(), z.unknown());

export const createIntegrationSchema = z.object({
  integrationDefinitionId: z.string().min(1, 'Choose an integration definition.').max(100),
  name: z.string().trim().min(1, 'Name is required.').max(100),
  schemaName: z.string().trim().min(1, 'Schema name is required.').max(63),
  configuration: configurationSchema.default({}),
});
export type CreateIntegrationInput = z.infer<typeof createIntegrationSchema>;

export const saveSettingsSchema = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(100).optional(),
  configuration: configurationSchema.optional(),
});

const datasetChangeSchema = z.object({
  isSelected: z.boolean().optional(),
  selectedProperties: z.array(z.string().max(300)).max(5_000).optional(),
  syncType: z.enum(SYNC_TYPES).optional(),
  dataIngestionType: z.enum(INGESTION_TYPES).optional(),
});
export const saveDatasetsSchema = z.object({
  datasets: z.record(z.string(), datasetChangeSchema),
});

const timeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be HH:MM (UTC).');
export const scheduleSettingsSchema = z.object({
  type: z.enum(['Manual', 'Scheduled']),
  frequency: z.enum(SCHEDULE_PRESETS).optional(),
  time: timeSchema.optional(),
  weekDay: z.enum(WEEK_DAYS).optional(),
  monthDay: z.number().int().min(1).max(28).optional(),
  /** A 5-field UTC cron; when given it wins over the preset. */
  cron: z.string().max(200).optional(),
});
export const saveScheduleSchema = z.object({
  status: z.enum(SYNC_STATUSES).optional(),
  schedule: scheduleSettingsSchema.optional(),
});

export const triggerFullRefreshSchema = z.object({
  datasets: z.array(z.string().min(1).max(300)).min(1, 'Choose at least one dataset to refresh.').max(1_000),
});

export const JOB_SORT_FIELDS = ['createdAt', 'startedAt', 'endedAt', 'status', 'recordsProcessed'] as const;
export const jobsQuerySchema = z.object({
  page: wholeNumber(z.number().int().min(1)).default(1),
  pageSize: wholeNumber(z.number().int().min(1).max(200)).default(10),
  status: z.array(z.enum(RUN_STATUSES)).default([]),
  sortBy: z.enum(JOB_SORT_FIELDS).default('createdAt'),
  sortDirection: z.enum(['Ascending', 'Descending']).default('Descending'),
});

export const createDefinitionSchema = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(100),
  type: z.enum(INTEGRATION_TYPES).default('Airbyte'),
  icon: z.string().max(2_000).nullable().default(null),
  docs: z.string().max(100_000).nullable().default(null),
  isPublic: z.boolean().default(false),
  /** JSON text with settings.properties (and settings.required). */
  specification: z.string().min(2).max(200_000),
});

export type CreateIntegrationRequest = z.output<typeof createIntegrationSchema>;
export type SaveSettingsRequest = z.output<typeof saveSettingsSchema>;
export type SaveDatasetsRequest = z.output<typeof saveDatasetsSchema>;
export type SaveScheduleRequest = z.output<typeof saveScheduleSchema>;
export type TriggerFullRefreshRequest = z.output<typeof triggerFullRefreshSchema>;
export type JobsRequest = z.output<typeof jobsQuerySchema>;
export type CreateDefinitionRequest = z.output<typeof createDefinitionSchema>;
