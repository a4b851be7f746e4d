/**
 * The integration calls as schemas: the tRPC procedures' inputs, the REST paths' parts and their
 * answers (the OpenAPI document describes them). The entities stay in integrations.ts; each answer
 * schema here is checked against its type (`satisfies`), so the two cannot drift apart.
 */
import { z } from 'zod';
import { idSchema } from './accounts';
import { idParamsSchema, pagedSchema, wholeNumber } from './api';
import {
  ATTEMPT_ERROR_TYPES,
  DISCOVERY_STATUSES,
  INGESTION_TYPES,
  INTEGRATION_MESSAGES,
  INTEGRATION_TYPES,
  LOG_LEVELS,
  RUN_STATUSES,
  SCHEDULE_PRESETS,
  SYNC_FREQUENCY_TYPES,
  SYNC_STATUSES,
  SYNC_TYPES,
  WEEK_DAYS,
  jobsQuerySchema,
  saveDatasetsSchema,
  saveScheduleSchema,
  saveSettingsSchema,
  triggerFullRefreshSchema,
  type Dataset,
  type DatasetsResponse,
  type Integration,
  type IntegrationDefinition,
  type Job,
  type RecordsPerDay,
  type Run,
  type RunLog,
} from './integrations';
import { COLUMN_TYPES } from './tables';

// ---- Parts of the calls ----

export const saveSettingsInputSchema = idParamsSchema.extend(saveSettingsSchema.shape);
export const saveDatasetsInputSchema = idParamsSchema.extend(saveDatasetsSchema.shape);
export const saveScheduleInputSchema = idParamsSchema.extend(saveScheduleSchema.shape);
export const triggerFullRefreshInputSchema = idParamsSchema.extend(triggerFullRefreshSchema.shape);
export const jobsInputSchema = idParamsSchema.extend(jobsQuerySchema.shape);
export const jobLogsParamsSchema = idParamsSchema.extend({ jobId: idSchema });

/** A status list in a query string: `Status=Failed&Status=Completed` or `Status=Failed,Completed`. */
const statusText = z.union([z.string(), z.array(z.string())]).transform((value) =>
  [value]
    .flat()
    .flatMap((s) => s.split(','))
    .filter((s) => s !== ''),
);

/**
 * GET /api/integrations/{id}/jobs: the spec's query names (Page, PageSize, Status, SortBy,
 * SortDirection), each also accepted starting in lower case.
 */
export const jobsSpecQuerySchema = z
  .object({
    Page: z.string().optional(),
    PageSize: z.string().optional(),
    Status: statusText.optional(),
    SortBy: z.string().optional(),
    SortDirection: z.string().optional(),
    page: z.string().optional(),
    pageSize: z.string().optional(),
    status: statusText.optional(),
    sortBy: z.string().optional(),
    sortDirection: z.string().optional(),
  })
  // Names and values as jobsQuerySchema reads them; it checks each value.
  .transform(
    (q) =>
      ({
        page: q.Page ?? q.page,
        pageSize: q.PageSize ?? q.pageSize,
        status: q.Status ?? q.status,
        sortBy: q.SortBy ?? q.sortBy,
        sortDirection: q.SortDirection ?? q.sortDirection,
      }) as z.input<typeof jobsQuerySchema>,
  )
  .pipe(jobsQuerySchema);

/** The home page's chart: records processed per day over the last `days` days (30 by default). */
export const recordsPerDayQuerySchema = z.object({ days: wholeNumber(z.number().int().min(1).max(366)).default(30) });
export type RecordsPerDayRequest = z.output<typeof recordsPerDayQuerySchema>;

export const webhookParamsSchema = z.object({ token: z.string().min(1).max(200) });

/** What a webhook call carries: one JSON object (a record) or an array of them. */
export const webhookBodySchema = z.union(
  [z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))],
  { error: INTEGRATION_MESSAGES.badWebhookBody },
);
export type WebhookBody = z.output<typeof webhookBodySchema>;

// ---- Answers ----

const runStatusSchema = z.enum(RUN_STATUSES);

export const integrationDefinitionSchema = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  docs: z.string().nullable(),
  type: z.enum(INTEGRATION_TYPES),
  specification: z.looseObject({
    settings: z.looseObject({
      properties: z.record(z.string(), z.unknown()),
      required: z.array(z.string()).optional(),
    }),
    advancedAuth: z.unknown().optional(),
  }),
  version: z.number().int(),
  versionId: z.string(),
  isCustom: z.boolean(),
  isPublic: z.boolean(),
  canComplete: z.boolean(),
  versions: z.array(
    z.object({ id: z.string(), version: z.number().int(), isLatest: z.boolean(), specification: z.string() }),
  ),
}) satisfies z.ZodType<IntegrationDefinition>;

export const runSchema = z.object({
  id: z.string(),
  status: runStatusSchema,
  kind: z.enum(['Sync', 'FullRefresh']),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  recordsProcessed: z.number(),
  bytesProcessed: z.number(),
}) satisfies z.ZodType<Run>;

export const jobSchema = runSchema.extend({
  attempts: z.array(
    z.object({
      id: z.string(),
      workflowId: z.string(),
      attemptNumber: z.number().int(),
      startTime: z.string(),
      endTime: z.string().nullable(),
      status: runStatusSchema,
      progress: z.object({
        state: runStatusSchema,
        datasets: z.array(
          z.object({
            name: z.string(),
            status: runStatusSchema,
            recordsProcessed: z.number(),
            bytesProcessed: z.number(),
            errors: z.array(z.object({ type: z.enum(ATTEMPT_ERROR_TYPES), message: z.string() })),
            startedAt: z.string().nullable().optional(),
            endedAt: z.string().nullable().optional(),
          }),
        ),
      }),
    }),
  ),
}) satisfies z.ZodType<Job>;
export const jobsPageSchema = pagedSchema(jobSchema);

export const runLogSchema = z.object({
  id: z.number().int(),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  at: z.string(),
  line: z.string(),
}) satisfies z.ZodType<RunLog>;

export const jobStatusSchema = z.object({
  status: runStatusSchema.nullable(),
  isRunning: z.boolean(),
  latestRun: runSchema.nullable(),
  syncStatus: z.string(),
  nextRunAt: z.string().nullable(),
  requiresReAuthentication: z.boolean(),
});

const syncOptionsSchema = z.object({ default: z.enum(SYNC_TYPES), supportedTypes: z.array(z.enum(SYNC_TYPES)) });
const ingestionOptionsSchema = z.object({
  default: z.enum(INGESTION_TYPES),
  supportedTypes: z.array(z.enum(INGESTION_TYPES)),
});

export const datasetSchema = z.object({
  id: z.string(),
  name: z.string(),
  isSelected: z.boolean(),
  availableProperties: z.array(
    z.object({
      name: z.string(),
      type: z.enum(COLUMN_TYPES),
      isPrimaryKey: z.boolean(),
      isCursor: z.boolean(),
      description: z.string().optional(),
      format: z.string().optional(),
    }),
  ),
  selectedProperties: z.array(z.string()),
  syncOptions: syncOptionsSchema,
  ingestionOptions: ingestionOptionsSchema,
  syncType: z.enum(SYNC_TYPES),
  dataIngestionType: z.enum(INGESTION_TYPES),
  primaryKey: z.array(z.string()),
  cursorField: z.string().nullable(),
  tableName: z.string(),
  rowCount: z.number().nullable(),
  lastSyncedAt: z.string().nullable(),
}) satisfies z.ZodType<Dataset>;

export const datasetsResponseSchema = z.object({
  status: z.enum(DISCOVERY_STATUSES),
  message: z.string().nullable(),
  datasets: z.array(datasetSchema),
}) satisfies z.ZodType<DatasetsResponse>;

export const integrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  definitionName: z.string(),
  integrationDefinitionId: z.string(),
  integrationDefinitionVersionId: z.string(),
  type: z.enum(INTEGRATION_TYPES),
  syncStatus: z.enum(SYNC_STATUSES),
  syncFrequencyType: z.enum(SYNC_FREQUENCY_TYPES),
  syncFrequency: z.object({ pattern: z.string(), timeZone: z.string() }).nullable(),
  schedule: z.object({
    type: z.enum(['Manual', 'Scheduled']),
    frequency: z.enum(SCHEDULE_PRESETS).optional(),
    time: z.string().optional(),
    weekDay: z.enum(WEEK_DAYS).optional(),
    monthDay: z.number().int().optional(),
  }),
  nextRunAt: z.string().nullable(),
  requiresReAuthentication: z.boolean(),
  recentRuns: z.array(runSchema),
  datasets: z.array(z.object({ id: z.string(), name: z.string(), hasData: z.boolean() })),
  streams: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      selectedSyncType: z.enum(SYNC_TYPES),
      syncOptions: syncOptionsSchema,
      selectedIngestionType: z.enum(INGESTION_TYPES),
      ingestionOptions: ingestionOptionsSchema,
      selectedProperties: z.array(z.string()),
      isSelected: z.boolean(),
      hasData: z.boolean(),
    }),
  ),
  discovery: z.object({ status: z.enum(DISCOVERY_STATUSES), message: z.string().nullable() }),
  configuration: z.record(z.string(), z.unknown()),
  schemaName: z.string(),
  webhookToken: z.string().nullable(),
  webhookUrl: z.string().nullable(),
  emailAddress: z.string().nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<Integration>;

export const recordsPerDaySchema = z.object({ day: z.string(), count: z.number() }) satisfies z.ZodType<RecordsPerDay>;

export const webhookReceivedSchema = z.object({ received: z.number().int() });
