import type { Kysely } from 'kysely';

/**
 * The Queries chat: conversations kept per user and account, their messages in order, and the
 * queries behind replies with a result. A query keeps the engine's plain-data query (JSON, re-run
 * for the export, never SQL text to execute), the SQL shown by 'Show SQL', and the first rows the
 * reply showed, so a reopened conversation shows its tables without running anything.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chat_conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    // The last position given to a message; bumped in the transaction that adds one.
    .addColumn('message_counter', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chat_conversations_owner')
    .on('chat_conversations')
    .columns(['account_id', 'user_id', 'modified_at'])
    .execute();

  await db.schema
    .createTable('chat_queries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('chat_conversations.id').onDelete('cascade'))
    // JSON of the plain-data query.
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('sql', 'text', (c) => c.notNull())
    // JSON: the headers and the first rows.
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('rows', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_queries_conversation').on('chat_queries').column('conversation_id').execute();

  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('chat_conversations.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // JSON array of full questions.
    .addColumn('suggested_actions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('reading', 'text')
    .addColumn('query_id', 'text', (c) => c.references('chat_queries.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chat_messages_conversation')
    .on('chat_messages')
    .columns(['conversation_id', 'position'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chat_messages').execute();
  await db.schema.dropTable('chat_queries').execute();
  await db.schema.dropTable('chat_conversations').execute();
}
