import { LIMITS } from '../../shared/limits';
import type { Deps } from '../context';
import type { Db } from '../db/database';
import { compiledLookup } from '../db/compiled';
import type { UserRow } from '../db/schema';
import { addMinutes } from '../db/ids';
import { newToken } from './tokens';

export const SESSION_COOKIE = 'ws_session';
const SESSION_MINUTES = LIMITS.sessionDays * 24 * 60;
/** last_seen_at is refreshed at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

/** Starts a server-side session; the returned token goes into the cookie and nowhere else. */
export async function createSession(deps: Deps, userId: string, userAgent: string | null): Promise<string> {
  const token = newToken();
  const now = deps.clock();
  await deps.db
    .insertInto('sessions')
    .values({
      id_hash: deps.hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: addMinutes(now, SESSION_MINUTES),
      last_seen_at: now.toISOString(),
      revoked_at: null,
      user_agent: userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  return token;
}

/**
 * A live session's user, with the membership of the user's current account (left joined: none when
 * the user has no current account or left it). Values: the token's hash, the time now.
 */
const sessionLookup = compiledLookup((db: Db) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.user_id', '=', 'users.id')
        .onRef('memberships.account_id', '=', 'users.current_account_id'),
    )
    .selectAll('users')
    .select([
      'sessions.last_seen_at as session_last_seen',
      'sessions.expires_at as session_expires_at',
      'memberships.roles as current_roles',
    ])
    .where('sessions.id_hash', '=', '')
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', ''),
);

/** A session's user, with the roles (as stored) of their membership of their current account. */
export interface SessionUser {
  user: UserRow;
  /** Null when the user has no current account or is no longer a member of it. */
  currentRoles: string | null;
  /** When the session ends (ISO); a live connection opened with it closes then. */
  expiresAt: string;
}

/**
 * The user behind a session cookie, or null when it is unknown, expired or revoked. The membership
 * of the user's current account is read in the same lookup, so a request resolves its caller once.
 */
export async function resolveSession(deps: Deps, token: string | undefined): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const now = deps.clock();
  const idHash = deps.hashToken(token);
  const [row] = await sessionLookup(deps.db, [idHash, now.toISOString()]);
  if (!row) return null;
  const { session_last_seen: lastSeen, session_expires_at: expiresAt, current_roles: currentRoles, ...user } = row;
  if (now.getTime() - Date.parse(lastSeen) > TOUCH_INTERVAL_MS) {
    await deps.db
      .updateTable('sessions')
      .set({ last_seen_at: now.toISOString() })
      .where('id_hash', '=', idHash)
      .execute();
  }
  return { user, currentRoles, expiresAt };
}

export async function revokeSession(deps: Deps, token: string | undefined): Promise<void> {
  if (!token) return;
  await deps.db
    .updateTable('sessions')
    .set({ revoked_at: deps.clock().toISOString() })
    .where('id_hash', '=', deps.hashToken(token))
    .where('revoked_at', 'is', null)
    .execute();
}
