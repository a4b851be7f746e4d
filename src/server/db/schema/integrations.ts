import type { Generated } from 'kysely';

/** Integration definitions, integrations, their datasets, runs, attempts and logs. */
export interface IntegrationsSchema {
  integration_definitions: IntegrationDefinitionsTable;
  integration_definition_versions: IntegrationDefinitionVersionsTable;
  integrations: IntegrationsTable;
  integration_datasets: IntegrationDatasetsTable;
  integration_runs: IntegrationRunsTable;
  integration_attempts: IntegrationAttemptsTable;
  integration_run_logs: IntegrationRunLogsTable;
  integration_records_per_day: IntegrationRecordsPerDayTable;
}

/** Built-ins have a key and connector_key; custom ones belong to the account of the admin who made them. */
export interface IntegrationDefinitionsTable {
  id: string;
  key: string | null;
  connector_key: string;
  account_id: string | null;
  name: string;
  type: string;
  icon: string | null;
  docs: string | null;
  is_custom: number;
  is_public: number;
  created_at: string;
}

export interface IntegrationDefinitionVersionsTable {
  id: string;
  definition_id: string;
  version: number;
  /** JSON text with settings.properties, settings.required, optional advancedAuth. */
  specification: string;
  is_latest: number;
  created_at: string;
}

export interface IntegrationsTable {
  id: string;
  account_id: string;
  definition_id: string;
  definition_version_id: string;
  name: string;
  schema_name: string;
  /** JSON; secret fields encrypted (modules/integrations/secrets.ts). */
  configuration: string;
  webhook_token_hash: string | null;
  webhook_token_encrypted: string | null;
  email_address: string | null;
  sync_status: string;
  sync_frequency_type: string;
  sync_pattern: string | null;
  /** JSON of the shared ScheduleSettings. */
  schedule: string;
  next_run_at: string | null;
  requires_reauthentication: number;
  discovery_status: string;
  discovery_error: string | null;
  created_at: string;
  modified_at: string;
}

export interface IntegrationDatasetsTable {
  id: string;
  integration_id: string;
  name: string;
  table_name: string;
  position: number;
  is_selected: number;
  /** JSON of the connector's DiscoveredDataset. */
  discovered: string;
  /** JSON array of property names. */
  selected_properties: string;
  sync_type: string;
  ingestion_type: string;
  state: string | null;
  /** JSON array of the warehouse table's columns as last written. */
  columns: string | null;
  row_count: number | null;
  last_synced_at: string | null;
}

export interface IntegrationRunsTable {
  id: string;
  integration_id: string;
  kind: string;
  status: string;
  full_refresh_datasets: string | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  records_processed: number;
  bytes_processed: number;
}

export interface IntegrationAttemptsTable {
  id: string;
  run_id: string;
  attempt_number: number;
  status: string;
  started_at: string;
  ended_at: string | null;
  /** JSON of the shared Attempt progress. */
  progress: string;
}

export interface IntegrationRunLogsTable {
  id: Generated<number>;
  run_id: string;
  level: string;
  message: string;
  at: string;
}

export interface IntegrationRecordsPerDayTable {
  account_id: string;
  integration_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  count: number;
}
