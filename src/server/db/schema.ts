import type { Insertable, Selectable } from 'kysely';

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
}

export interface StaticTableColumnsTable {
  table_id: string;
  column_key: string;
  display_name: string;
  description: string | null;
  position: number;
  type: string;
}

export type UserRow = Selectable<UsersTable>;
export type AccountRow = Selectable<AccountsTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type NewUser = Insertable<UsersTable>;
