/**
 * The Queries chat (spec: Queries screen, Chat message, hub /api/hubs/chatbot): what the client
 * invokes, what the server pushes back, the conversations kept per user and account, the export
 * of a reply's result, and their limits and messages.
 *
 * Hub protocol (server methods, invoked with `invokeHub('chatbot', ...)`):
 *   StartConversation(title?: string) → the new conversation's id.
 *   SendMessage(conversationId, text) → the stored User message; meanwhile the calling connection
 *     receives ReceiveMessageStatusUpdate({ conversationId, status }) while the answer is worked
 *     out ('Matching columns', 'Running query', ...), then ReceiveMessage(bot message) with the
 *     Bot's Chat message (conversationId included). One question at a time per conversation.
 */
import { z } from 'zod';
import { idSchema } from './accounts';

export const CHAT_LIMITS = {
  /** Longest question a user may send, in characters. */
  messageMaxLength: 1_000,
  titleMaxLength: 200,
  /** Questions one user may send per minute, across conversations. */
  messagesPerMinute: 30,
  /** First rows of a result kept with the reply (the export re-runs the query for all of them). */
  resultMaxRows: 100,
  /** Bytes of a reply's first rows as JSON: a wide result keeps fewer rows so one message stays small. */
  resultMaxBytes: 60_000,
  /** Messages of a conversation kept; the oldest leave first. */
  messagesPerConversation: 500,
  /** Conversations listed for reopening (newest first). */
  conversationsListed: 50,
  /** How long one answer may take before it is given up. */
  answerTimeoutMs: 60_000,
  /** Earlier messages of the conversation passed with a question (for follow-ups). */
  historyMessages: 10,
} as const;

export const CHAT_HUB = {
  startConversation: 'StartConversation',
  sendMessage: 'SendMessage',
  receiveMessage: 'ReceiveMessage',
  receiveStatus: 'ReceiveMessageStatusUpdate',
} as const;

export const CHAT_MESSAGES = {
  placeholder: 'Ask a question',
  noReply: '--no reply',
  emptyQuestion: 'Type a question first.',
  questionTooLong: `A question has at most ${CHAT_LIMITS.messageMaxLength.toLocaleString('en-US')} characters.`,
  titleTooLong: `A conversation title has at most ${CHAT_LIMITS.titleMaxLength} characters.`,
  busy: 'Wait for the answer to your last question.',
  tooMany: 'Too many questions in a short time. Wait a minute and ask again.',
  conversationNotFound: 'This conversation does not exist.',
  queryNotFound: 'This result does not exist.',
  failed: 'Something went wrong while answering this question. Try again, or ask it another way.',
  timedOut: 'The question took too long to answer. Try a narrower question.',
  noConversations: 'No conversations yet.',
  newConversation: 'New conversation',
  showSuggestions: (n: number) => `Show ${n} suggestion${n === 1 ? '' : 's'}`,
  hideSuggestions: 'Hide suggestions',
  waiting: (status: string) => `${status}...`,
  defaultStatus: 'Thinking',
  rowCount: (shown: number, total: number) =>
    shown === total
      ? `${total.toLocaleString('en-US')} row${total === 1 ? '' : 's'}`
      : `First ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`,
} as const;

export const CHAT_SENDERS = ['User', 'Bot'] as const;
export type ChatSender = (typeof CHAT_SENDERS)[number];

/** A reply's result as the chat shows it (spec: data.data with headers, rows, queryId, rowCount). */
export const chatResultSchema = z.object({
  headers: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  queryId: z.string(),
  rowCount: z.number().int(),
});
export type ChatResult = z.infer<typeof chatResultSchema>;

/**
 * The spec's Chat message (messageId, from, text, suggestedActions, data.data), plus how the
 * question was read and the SQL that ran ('Show SQL'), the conversation and when it was sent.
 */
export const chatMessageSchema = z.object({
  messageId: z.string(),
  conversationId: z.string(),
  from: z.enum(CHAT_SENDERS),
  text: z.string(),
  suggestedActions: z.array(z.string()),
  data: z.object({ data: chatResultSchema }).nullable(),
  reading: z.string().nullable(),
  sql: z.string().nullable(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatStatusSchema = z.object({ conversationId: z.string(), status: z.string() });
export type ChatStatus = z.infer<typeof chatStatusSchema>;

export const conversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  messageCount: z.number().int(),
});
export type Conversation = z.infer<typeof conversationSchema>;

const questionText = z
  .string({ error: CHAT_MESSAGES.emptyQuestion })
  .trim()
  .min(1, { error: CHAT_MESSAGES.emptyQuestion })
  .max(CHAT_LIMITS.messageMaxLength, { error: CHAT_MESSAGES.questionTooLong });

/** StartConversation's arguments: an optional title (the first question names it otherwise). */
export const startConversationArgsSchema = z.tuple([
  z.string().trim().max(CHAT_LIMITS.titleMaxLength, { error: CHAT_MESSAGES.titleTooLong }).nullish(),
]);

/** SendMessage's arguments: the conversation and the question. */
export const sendMessageArgsSchema = z.tuple([idSchema, questionText]);

/** chat.messages and GET /api/chat/conversations/{id}/messages. */
export const conversationIdSchema = z.object({ id: idSchema });

export const CHAT_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ChatExportFormat = (typeof CHAT_EXPORT_FORMATS)[number];

export const chatExportParamsSchema = z.object({ queryId: idSchema });
export const chatExportQuerySchema = z.object({
  format: z.enum(CHAT_EXPORT_FORMATS, { error: 'Choose csv or xlsx.' }).default('csv'),
});

/** GET /api/chat/query/{queryId}/export: the file of a reply's result, every row. */
export function chatExportUrl(queryId: string, format: ChatExportFormat): string {
  return `/api/chat/query/${encodeURIComponent(queryId)}/export?format=${format}`;
}
