import type { Selectable } from 'kysely';

/** The Queries chat: users' synonyms, conversations, messages and the queries behind replies. */
export interface ChatSchema {
  query_synonyms: QuerySynonymsTable;
  chat_conversations: ChatConversationsTable;
  chat_messages: ChatMessagesTable;
  chat_queries: ChatQueriesTable;
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
