/**
 * The one way an area creates notifications.
 *
 * ```ts
 * import { notify } from '../notifications/notify';
 * await notify(deps, {
 *   accountId,                       // the account the event happened in
 *   userIds: [creatorId],            // these users (only those still members of accountId)...
 *   toAccountWriters: true,          // ...and/or the account's writers (owner, admin)
 *   kind: 'ReportReady',             // one of NOTIFICATION_KINDS (src/shared/notifications.ts)
 *   title: 'Report ready',
 *   body: '"Sales.pdf" is ready to download.',
 *   severity: 'Info',                // Info | Warning | Error
 *   target: { type: 'File', id: fileId },  // where opening it goes; a Run also names parentId
 * });
 * ```
 *
 * It drops recipients who turned the kind off (Settings → User), writes one row per recipient, then
 * pushes each new notification to its user on the notifications hub (ReceiveNotification), so their
 * bell updates at once. Call it after the event's own writes are committed (never inside a
 * transaction that may roll back). It never throws: a notification that cannot be written is logged,
 * and the event that caused it stands. It answers the notifications it created.
 */
import type {
  Notification,
  NotificationKind,
  NotificationSeverity,
  NotificationTarget,
} from '../../../shared/notifications';
import { RECEIVE_NOTIFICATION } from '../../../shared/notifications';
import { canWrite } from '../../../shared/roles';
import type { Deps } from '../../context';
import { parseRoles } from '../../db/database';
import { newTimeOrderedId } from '../../db/ids';
import { toNotification, usersWithKindOff, type NotificationRow } from './repo';

export interface NotifyEvent {
  accountId: string;
  userIds?: readonly string[];
  toAccountWriters?: boolean;
  kind: NotificationKind;
  title: string;
  body: string;
  severity: NotificationSeverity;
  target?: NotificationTarget | null;
}

export type NotifyDeps = Pick<Deps, 'db' | 'clock' | 'hubs'>;

/** Members of the account among `userIds`, plus its writers when asked. */
async function recipientsOf(deps: NotifyDeps, event: NotifyEvent): Promise<string[]> {
  const members = await deps.db
    .selectFrom('memberships')
    .select(['user_id', 'roles'])
    .where('account_id', '=', event.accountId)
    .execute();
  const named = new Set(event.userIds ?? []);
  return members
    .filter((m) => named.has(m.user_id) || (event.toAccountWriters === true && canWrite(parseRoles(m.roles), [])))
    .map((m) => m.user_id);
}

export async function notify(deps: NotifyDeps, event: NotifyEvent): Promise<Notification[]> {
  try {
    const recipients = await recipientsOf(deps, event);
    const off = await usersWithKindOff(deps.db, recipients, event.kind);
    const createdAt = deps.clock().toISOString();
    const rows: NotificationRow[] = recipients
      .filter((userId) => !off.has(userId))
      .map((userId) => ({
        id: newTimeOrderedId(),
        user_id: userId,
        account_id: event.accountId,
        kind: event.kind,
        title: event.title.slice(0, 500),
        body: event.body.slice(0, 4_000),
        severity: event.severity,
        created_at: createdAt,
        read_at: null,
        target_type: event.target?.type ?? null,
        target_id: event.target?.id ?? null,
        target_parent_id: event.target?.parentId ?? null,
      }));
    if (rows.length === 0) return [];
    await deps.db.insertInto('notifications').values(rows).execute();
    const created = rows.map(toNotification);
    for (const [index, row] of rows.entries()) {
      deps.hubs.toUser('notifications', row.user_id, RECEIVE_NOTIFICATION, created[index]);
    }
    return created;
  } catch (error) {
    console.error(`Could not create the ${event.kind} notification`, error);
    return [];
  }
}
