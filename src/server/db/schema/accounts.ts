import type { Insertable, Selectable } from 'kysely';

/** Users, their accounts and memberships, invitations, sign-in tokens and sessions. */
export interface AccountsSchema {
  users: UsersTable;
  accounts: AccountsTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  login_tokens: LoginTokensTable;
  sessions: SessionsTable;
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

export type UserRow = Selectable<UsersTable>;
export type AccountRow = Selectable<AccountsTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type NewUser = Insertable<UsersTable>;
