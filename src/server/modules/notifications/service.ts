/**
 * The bell's calls (spec section 7): the unread count, the list newest first, mark one read, mark
 * all of an account read, and the caller's preferences. Every read and write is scoped to the
 * caller: another user's notification answers 404 as if it did not exist.
 */
import type {
  MarkAllReadInput,
  Notification,
  NotificationCount,
  NotificationCountInput,
  NotificationListInput,
  NotificationPreferences,
  NotificationsPage,
  SetNotificationPreferencesInput,
} from '../../../shared/notifications';
import { NOTIFICATIONS_READ } from '../../../shared/notifications';
import type { Deps, UserContext } from '../../context';
import { notFound } from '../../errors';
import { preferencesOf, toNotification } from './repo';

export const NOTIFICATION_NOT_FOUND = 'Notification not found.';

export function createNotificationsService(deps: Deps) {
  const { db, clock } = deps;

  const mine = (caller: UserContext, accountId: string | undefined) => {
    let query = db.selectFrom('notifications').where('user_id', '=', caller.user.id);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    return query;
  };

  return {
    async count(caller: UserContext, { accountId }: NotificationCountInput): Promise<NotificationCount> {
      const row = await mine(caller, accountId)
        .where('read_at', 'is', null)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { totalCount: Number(row.n) };
    },

    /** Newest first; the id breaks ties of one instant (ids are time-ordered). */
    async list(caller: UserContext, { page, pageSize, accountId }: NotificationListInput): Promise<NotificationsPage> {
      const total = await mine(caller, accountId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const rows = await mine(caller, accountId)
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      const count = Number(total.n);
      const totalPages = Math.ceil(count / pageSize);
      return { page, pageSize, count, totalPages, hasMore: page < totalPages, data: rows.map(toNotification) };
    },

    /** Marks one of the caller's notifications read (reading it again keeps the first time). */
    async markRead(caller: UserContext, id: string): Promise<Notification> {
      const row = await mine(caller, undefined).selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound(NOTIFICATION_NOT_FOUND);
      if (row.read_at !== null) return toNotification(row);
      const readAt = clock().toISOString();
      await db
        .updateTable('notifications')
        .set({ read_at: readAt })
        .where('id', '=', id)
        .where('user_id', '=', caller.user.id)
        .execute();
      deps.hubs.toUser('notifications', caller.user.id, NOTIFICATIONS_READ, { ids: [id] });
      return toNotification({ ...row, read_at: readAt });
    },

    /** Every unread notification of the caller in the account becomes read; answers how many. */
    async markAllRead(caller: UserContext, { accountId }: MarkAllReadInput): Promise<{ count: number }> {
      const result = await db
        .updateTable('notifications')
        .set({ read_at: clock().toISOString() })
        .where('user_id', '=', caller.user.id)
        .where('account_id', '=', accountId)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      const count = Number(result.numUpdatedRows);
      if (count > 0) deps.hubs.toUser('notifications', caller.user.id, NOTIFICATIONS_READ, { accountId });
      return { count };
    },

    async preferences(caller: UserContext): Promise<NotificationPreferences> {
      return { kinds: await preferencesOf(db, caller.user.id) };
    },

    async setPreferences(
      caller: UserContext,
      { kinds }: SetNotificationPreferencesInput,
    ): Promise<NotificationPreferences> {
      const entries = Object.entries(kinds).filter((e): e is [string, boolean] => typeof e[1] === 'boolean');
      if (entries.length > 0) {
        await db
          .insertInto('notification_preferences')
          .values(entries.map(([kind, on]) => ({ user_id: caller.user.id, kind, enabled: on ? 1 : 0 })))
          .onConflict((oc) =>
            oc.columns(['user_id', 'kind']).doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })),
          )
          .execute();
      }
      return { kinds: await preferencesOf(db, caller.user.id) };
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
