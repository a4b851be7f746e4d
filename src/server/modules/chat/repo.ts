/**
 * The chat's metadata: conversations (per user and account), their messages in order, and the
 * queries behind replies with a result. Every read names the owner (account and user), so an id of
 * someone else's conversation or result finds nothing.
 */
import { sql } from 'kysely';
import { CHAT_LIMITS, type ChatMessage, type ChatSender, type Conversation } from '../../../shared/chat';
import type { Db } from '../../db/database';
import type { ChatConversationRow, ChatMessageRow, ChatQueryRow } from '../../db/schema';
import { newId, newTimeOrderedId } from '../../db/ids';

export interface Owner {
  accountId: string;
  userId: string;
}

export async function createConversation(db: Db, owner: Owner, title: string, now: string): Promise<string> {
  const id = newTimeOrderedId();
  await db
    .insertInto('chat_conversations')
    .values({
      id,
      account_id: owner.accountId,
      user_id: owner.userId,
      title,
      message_counter: 0,
      created_at: now,
      modified_at: now,
    })
    .execute();
  return id;
}

export function findConversation(db: Db, owner: Owner, id: string): Promise<ChatConversationRow | undefined> {
  return db
    .selectFrom('chat_conversations')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', owner.accountId)
    .where('user_id', '=', owner.userId)
    .executeTakeFirst();
}

export async function listConversations(db: Db, owner: Owner): Promise<Conversation[]> {
  const rows = await db
    .selectFrom('chat_conversations as c')
    .select([
      'c.id',
      'c.title',
      'c.created_at',
      'c.modified_at',
      (eb) =>
        eb
          .selectFrom('chat_messages as m')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('m.conversation_id', '=', 'c.id')
          .as('message_count'),
    ])
    .where('c.account_id', '=', owner.accountId)
    .where('c.user_id', '=', owner.userId)
    .orderBy('c.modified_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(CHAT_LIMITS.conversationsListed)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    createdAt: r.created_at,
    modifiedAt: r.modified_at,
    messageCount: Number(r.message_count ?? 0),
  }));
}

/** What a new message carries; a Bot reply with a result carries its query too. */
export interface NewMessage {
  sender: ChatSender;
  text: string;
  suggestedActions: string[];
  reading: string | null;
  result: {
    query: unknown;
    sql: string;
    headers: string[];
    rows: unknown[][];
    rowCount: number;
  } | null;
}

/**
 * Adds a message (and its query) at the conversation's next position in one transaction, names an
 * untitled conversation after its first question, and drops the oldest messages past the cap.
 */
export async function addMessage(
  db: Db,
  owner: Owner,
  conversationId: string,
  message: NewMessage,
  now: string,
): Promise<ChatMessage> {
  return db.transaction().execute(async (trx) => {
    const conversation = await trx
      .updateTable('chat_conversations')
      .set({ message_counter: sql`message_counter + 1`, modified_at: now })
      .where('id', '=', conversationId)
      .returning(['message_counter', 'title'])
      .executeTakeFirstOrThrow();
    if (conversation.title === '' && message.sender === 'User') {
      await trx
        .updateTable('chat_conversations')
        .set({ title: message.text.slice(0, CHAT_LIMITS.titleMaxLength) })
        .where('id', '=', conversationId)
        .execute();
    }
    let queryId: string | null = null;
    if (message.result) {
      queryId = newId();
      await trx
        .insertInto('chat_queries')
        .values({
          id: queryId,
          account_id: owner.accountId,
          user_id: owner.userId,
          conversation_id: conversationId,
          query: JSON.stringify(message.result.query),
          sql: message.result.sql,
          headers: JSON.stringify(message.result.headers),
          rows: JSON.stringify(message.result.rows),
          row_count: message.result.rowCount,
          created_at: now,
        })
        .execute();
    }
    const id = newTimeOrderedId();
    const row: ChatMessageRow = {
      id,
      conversation_id: conversationId,
      position: conversation.message_counter,
      sender: message.sender,
      text: message.text,
      suggested_actions: JSON.stringify(message.suggestedActions),
      reading: message.reading,
      query_id: queryId,
      created_at: now,
    };
    await trx.insertInto('chat_messages').values(row).execute();
    const oldest = conversation.message_counter - CHAT_LIMITS.messagesPerConversation;
    if (oldest > 0) {
      // A dropped reply's result goes with it (nothing else shows it any more).
      await trx
        .deleteFrom('chat_queries')
        .where(
          'id',
          'in',
          trx
            .selectFrom('chat_messages')
            .select('query_id')
            .where('conversation_id', '=', conversationId)
            .where('position', '<=', oldest)
            .where('query_id', 'is not', null)
            .$narrowType<{ query_id: string }>(),
        )
        .execute();
      await trx
        .deleteFrom('chat_messages')
        .where('conversation_id', '=', conversationId)
        .where('position', '<=', oldest)
        .execute();
    }
    return toMessage(row, message.result ? { ...message.result, id: queryId ?? '' } : null);
  });
}

interface StoredResult {
  id: string;
  sql: string;
  headers: string[];
  rows: unknown[][];
  rowCount: number;
}

function toMessage(row: ChatMessageRow, result: StoredResult | null): ChatMessage {
  return {
    messageId: row.id,
    conversationId: row.conversation_id,
    from: row.sender === 'Bot' ? 'Bot' : 'User',
    text: row.text,
    suggestedActions: JSON.parse(row.suggested_actions) as string[],
    data: result
      ? { data: { headers: result.headers, rows: result.rows, queryId: result.id, rowCount: result.rowCount } }
      : null,
    reading: row.reading,
    sql: result?.sql ?? null,
    createdAt: row.created_at,
  };
}

/** The conversation's messages in order, each reply with its stored result. */
export async function listMessages(db: Db, conversationId: string): Promise<ChatMessage[]> {
  const rows = await db
    .selectFrom('chat_messages as m')
    .leftJoin('chat_queries as q', 'q.id', 'm.query_id')
    .selectAll('m')
    .select(['q.sql as q_sql', 'q.headers as q_headers', 'q.rows as q_rows', 'q.row_count as q_row_count'])
    .where('m.conversation_id', '=', conversationId)
    .orderBy('m.position')
    .execute();
  return rows.map((r) =>
    toMessage(
      r,
      r.query_id && r.q_headers !== null && r.q_rows !== null
        ? {
            id: r.query_id,
            sql: r.q_sql ?? '',
            headers: JSON.parse(r.q_headers) as string[],
            rows: JSON.parse(r.q_rows) as unknown[][],
            rowCount: r.q_row_count ?? 0,
          }
        : null,
    ),
  );
}

/** The latest messages as history for a follow-up question, oldest first. */
export async function recentHistory(
  db: Db,
  conversationId: string,
  limit: number,
): Promise<{ from: ChatSender; text: string }[]> {
  const rows = await db
    .selectFrom('chat_messages')
    .select(['sender', 'text'])
    .where('conversation_id', '=', conversationId)
    .orderBy('position', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({ from: r.sender === 'Bot' ? 'Bot' : 'User', text: r.text }));
}

export function findQuery(db: Db, owner: Owner, id: string): Promise<ChatQueryRow | undefined> {
  return db
    .selectFrom('chat_queries')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', owner.accountId)
    .where('user_id', '=', owner.userId)
    .executeTakeFirst();
}
