/** Rows of notifications and preferences, and their mapping to the spec's entity. */
import type {
  Notification,
  NotificationKind,
  NotificationSeverity,
  NotificationTargetType,
} from '../../../shared/notifications';
import { NOTIFICATION_KINDS } from '../../../shared/notifications';
import type { Db } from '../../db/database';
import type { Selectable } from 'kysely';
import type { NotificationsTable } from '../../db/schema';

export type NotificationRow = Selectable<NotificationsTable>;

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    accountId: row.account_id,
    kind: row.kind as NotificationKind,
    title: row.title,
    body: row.body,
    severity: row.severity as NotificationSeverity,
    createdAt: row.created_at,
    readAt: row.read_at,
    target:
      row.target_type && row.target_id
        ? {
            type: row.target_type as NotificationTargetType,
            id: row.target_id,
            ...(row.target_parent_id ? { parentId: row.target_parent_id } : {}),
          }
        : null,
  };
}

/** Every kind with the user's choice; a kind without a row is on. */
export async function preferencesOf(db: Db, userId: string): Promise<Record<NotificationKind, boolean>> {
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['kind', 'enabled'])
    .where('user_id', '=', userId)
    .execute();
  const set = new Map(rows.map((r) => [r.kind, r.enabled === 1]));
  return Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, set.get(k) ?? true])) as Record<
    NotificationKind,
    boolean
  >;
}

/** Of these users, those who turned this kind off. */
export async function usersWithKindOff(db: Db, userIds: string[], kind: NotificationKind): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('notification_preferences')
    .select('user_id')
    .where('kind', '=', kind)
    .where('enabled', '=', 0)
    .where('user_id', 'in', userIds)
    .execute();
  return new Set(rows.map((r) => r.user_id));
}
