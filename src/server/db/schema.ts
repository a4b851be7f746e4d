import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * Tables of the metadata store. Timestamps are ISO-8601 text and role lists JSON text, so the
 * same schema runs on SQLite and Postgres.
 */
export interface Database {
  users: UsersTable;
  accounts: AccountsTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  login_tokens: LoginTokensTable;
  sessions: SessionsTable;
  error_reports: ErrorReportsTable;
  static_tables: StaticTablesTable;
  static_table_columns: StaticTableColumnsTable;
  models: ModelsTable;
  model_versions: ModelVersionsTable;
  model_draft_steps: ModelDraftStepsTable;
  integration_definitions: IntegrationDefinitionsTable;
  integration_definition_versions: IntegrationDefinitionVersionsTable;
  integrations: IntegrationsTable;
  integration_datasets: IntegrationDatasetsTable;
  integration_runs: IntegrationRunsTable;
  integration_attempts: IntegrationAttemptsTable;
  integration_run_logs: IntegrationRunLogsTable;
  integration_records_per_day: IntegrationRecordsPerDayTable;
  warehouse_writes: WarehouseWritesTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  automation_definitions: AutomationDefinitionsTable;
  automation_steps: AutomationStepsTable;
  automation_runs: AutomationRunsTable;
  automation_step_runs: AutomationStepRunsTable;
  automation_step_attempts: AutomationStepAttemptsTable;
  automation_run_logs: AutomationRunLogsTable;
  automation_side_effects: AutomationSideEffectsTable;
  files: FilesTable;
  file_links: FileLinksTable;
  query_synonyms: QuerySynonymsTable;
  search_exclusions: SearchExclusionsTable;
  search_pending: SearchPendingTable;
  chat_conversations: ChatConversationsTable;
  chat_messages: ChatMessagesTable;
  chat_queries: ChatQueriesTable;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  roles: string;
  current_account_id: string | null;
  created_at: string;
  last_login_at: string | null;
}

export interface AccountsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface MembershipsTable {
  account_id: string;
  user_id: string;
  roles: string;
  created_at: string;
  last_login_at: string | null;
}

export interface InvitationsTable {
  id: string;
  account_id: string;
  email: string;
  name: string;
  roles: string;
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export interface LoginTokensTable {
  token_hash: string;
  email: string;
  name: string | null;
  return_url: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  user_agent: string | null;
}

export interface ErrorReportsTable {
  id: string;
  kind: 'error' | 'bug' | 'support';
  account_id: string | null;
  user_id: string | null;
  message: string;
  additional_context: string | null;
  screenshot_file: string | null;
  page: string | null;
  created_at: string;
}

export interface StaticTablesTable {
  id: string;
  account_id: string;
  name: string;
  row_count: number;
  created_at: string;
  modified_at: string;
  /** The copy an import or a type change replaced, kept for Undo until the next change (migration 0008). */
  kept_token: string | null;
  /** JSON: the kept copy's columns. */
  kept_columns: string | null;
  kept_row_count: number | null;
}

export interface StaticTableColumnsTable {
  table_id: string;
  column_key: string;
  display_name: string;
  description: string | null;
  position: number;
  type: string;
  /** JSON of a number column's display format, or null. */
  format: string | null;
}

export interface ModelsTable {
  id: string;
  account_id: string;
  name: string;
  created_at: string;
  modified_at: string;
}

/** Undo and redo steps of a model's draft (migrations/0007_model_draft_steps.ts). */
export interface ModelDraftStepsTable {
  id: Generated<number>;
  version_id: string;
  /** 'undo' or 'redo'. */
  kind: string;
  /** What the change did, for the button's tooltip ("Add column Total"). */
  label: string;
  /** JSON of the ModelDefinition to go back (or forward) to. */
  definition: string;
  depends_on: string;
  /** 1 when the change made the draft: undoing it removes the draft. */
  created_draft: number;
  created_at: string;
}

export interface ModelVersionsTable {
  id: string;
  model_id: string;
  version_number: number;
  /** Draft, Active or Inactive; at most one Draft and one Active per model. */
  status: string;
  /** JSON of the shared ModelDefinition. */
  definition: string;
  /** JSON array of the model version ids this version reads. */
  depends_on: string;
  created_at: string;
  modified_at: string;
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

/** A write to both stores under way (src/server/durability/write-journal.ts). */
export interface WarehouseWritesTable {
  id: string;
  account_id: string;
  kind: string;
  run_id: string | null;
  boot_id: string;
  created_at: string;
}

/** One notification of one user in one account (modules/notifications); read_at null = unread. */
export interface NotificationsTable {
  id: string;
  user_id: string;
  account_id: string;
  kind: string;
  title: string;
  body: string;
  severity: string;
  created_at: string;
  read_at: string | null;
  target_type: string | null;
  target_id: string | null;
  target_parent_id: string | null;
}

/** A kind a user turned on or off; kinds without a row are on. */
export interface NotificationPreferencesTable {
  user_id: string;
  kind: string;
  enabled: number;
}

export type UserRow = Selectable<UsersTable>;
export type AccountRow = Selectable<AccountsTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type NewUser = Insertable<UsersTable>;

/** A stored file (migrations/0010_files.ts); contents in the file store under storage_key. */
export interface FilesTable {
  id: string;
  account_id: string;
  created_by: string | null;
  type: string;
  name: string;
  file_size: number;
  content_type: string;
  storage_key: string;
  origin_entity_type: string;
  origin_entity_type_id: string | null;
  status: string;
  progress: number;
  error: string | null;
  created_at: string;
}
export type FileRow = Selectable<FilesTable>;

/** A public link of a file: the token is its address; expires_at null means never. */
export interface FileLinksTable {
  id: string;
  file_id: string;
  token: string;
  created_by: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  download_count: number;
  last_used_at: string | null;
}
export type FileLinkRow = Selectable<FileLinksTable>;

/** Automations (migrations/0011_automations.ts). */
export interface AutomationDefinitionsTable {
  id: string;
  account_id: string;
  name: string;
  description: string;
  trigger_type: string;
  /** JSON of the shared ScheduleSettings, or null. */
  schedule: string | null;
  schedule_pattern: string | null;
  next_run_at: string | null;
  trigger_integration_id: string | null;
  trigger_new_rows_only: number;
  run_timeout_seconds: number;
  run_counter: number;
  created_by: string | null;
  created_at: string;
  modified_at: string;
}
export type AutomationDefinitionRow = Selectable<AutomationDefinitionsTable>;

export interface AutomationStepsTable {
  id: string;
  definition_id: string;
  position: number;
  name: string;
  kind: string;
  integration_id: string | null;
  /** JSON object of input values. */
  inputs: string;
  /** JSON of the shared StepPolicy. */
  policy: string;
  created_at: string;
  modified_at: string;
}
export type AutomationStepRow = Selectable<AutomationStepsTable>;

export interface AutomationRunsTable {
  id: string;
  account_id: string;
  definition_id: string;
  run_number: number;
  name: string;
  status: string;
  origin: string;
  trigger_data: string;
  /** JSON of RunSnapshot (modules/automations/snapshot.ts). */
  snapshot: string;
  rerun_of: string | null;
  resumed_from_step_id: string | null;
  run_as_user_id: string | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  deadline_at: string | null;
  error: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  not_before: string | null;
  cancel_requested: number;
}
export type AutomationRunRow = Selectable<AutomationRunsTable>;

export interface AutomationStepRunsTable {
  run_id: string;
  step_id: string;
  position: number;
  name: string;
  kind: string;
  status: string;
  attempt: number;
  inputs: string | null;
  /** Non-null: the step finished; a resumed run never runs it again. */
  output: string | null;
  progress: string | null;
  started_at: string | null;
  ended_at: string | null;
  error: string | null;
}
export type AutomationStepRunRow = Selectable<AutomationStepRunsTable>;

export interface AutomationStepAttemptsTable {
  run_id: string;
  step_id: string;
  attempt: number;
  status: string;
  started_at: string;
  ended_at: string | null;
  error: string | null;
  error_type: string | null;
}

export interface AutomationRunLogsTable {
  id: Generated<number>;
  run_id: string;
  step_id: string | null;
  level: string;
  message: string;
  created_at: string;
}

export interface AutomationSideEffectsTable {
  key: string;
  run_id: string;
  step_id: string;
  state: string;
  result: string | null;
  created_at: string;
  updated_at: string;
}

/** Words users add for a table or column of the Queries chat (migration 0016). */
export interface QuerySynonymsTable {
  id: string;
  account_id: string;
  word: string;
  table_type: string;
  table_id: string;
  /** Null: the word names the table itself. */
  column_key: string | null;
  created_at: string;
}
/** Tables or columns kept out of global search (migration 0012); column_key null = the whole table. */
export interface SearchExclusionsTable {
  id: string;
  account_id: string;
  table_type: string;
  table_id: string;
  column_key: string | null;
  created_at: string;
}

/** Tables whose latest change waits to be indexed, since when (migration 0012). */
export interface SearchPendingTable {
  account_id: string;
  table_type: string;
  table_id: string;
  since: string;
}

/** The Queries chat (migrations/0013_chat.ts): conversations per user and account. */
export interface ChatConversationsTable {
  id: string;
  account_id: string;
  user_id: string;
  title: string;
  message_counter: number;
  created_at: string;
  modified_at: string;
}
export type ChatConversationRow = Selectable<ChatConversationsTable>;

/** One message of a conversation; a Bot reply with a result names its query. */
export interface ChatMessagesTable {
  id: string;
  conversation_id: string;
  position: number;
  sender: string;
  text: string;
  /** JSON array of full questions. */
  suggested_actions: string;
  reading: string | null;
  query_id: string | null;
  created_at: string;
}
export type ChatMessageRow = Selectable<ChatMessagesTable>;

/** The query behind a reply: the plain-data query (JSON) re-run by the export, and the first rows shown. */
export interface ChatQueriesTable {
  id: string;
  account_id: string;
  user_id: string;
  conversation_id: string;
  query: string;
  sql: string;
  headers: string;
  rows: string;
  row_count: number;
  created_at: string;
}
export type ChatQueryRow = Selectable<ChatQueriesTable>;
