import type { Kysely } from 'kysely';

/**
 * Notifications (spec: the bell): one row per recipient, in the account the event happened in.
 * `read_at` null means unread. The two indexes serve the bell's calls: the unread count (per user,
 * optionally per account) and the list newest first in pages of 5.
 *
 * Preferences: a row per user and kind the user has set; a kind without a row is on (the default),
 * so a kind added later reaches everyone until they turn it off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    // The entity the target lives in, when its address needs it (a run's integration).
    .addColumn('target_parent_id', 'text')
    .execute();
  await db.schema
    .createIndex('notifications_unread')
    .on('notifications')
    .columns(['user_id', 'read_at', 'account_id'])
    .execute();
  await db.schema
    .createIndex('notifications_list')
    .on('notifications')
    .columns(['user_id', 'account_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_preferences').execute();
  await db.schema.dropTable('notifications').execute();
}
