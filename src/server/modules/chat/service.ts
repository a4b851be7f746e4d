/**
 * The Queries chat's rules: conversations per user and account, one question at a time per
 * conversation, a rate per user, the answer (modules/queries/answer.ts) with its status updates,
 * replies stored with their result, and the export that runs a stored query again. The hub
 * (hub.ts), tRPC (router.ts) and REST (rest.ts) are thin adapters over it.
 */
import type { Readable } from 'node:stream';
import {
  CHAT_LIMITS,
  CHAT_MESSAGES,
  type ChatExportFormat,
  type ChatMessage,
  type Conversation,
} from '../../../shared/chat';
import { createRateLimiter } from '../../auth/rate-limiter';
import type { AccountContext, Deps } from '../../context';
import { AppError, conflict, notFound, tooManyRequests } from '../../errors';
import { ModelError } from '../../../engine';
import type { CoreServices } from '../../services';
import { answerQuestion, runStoredQuery, type QuestionAnswer } from '../queries/answer';
import { chatExportFile } from './export-file';
import * as repo from './repo';

export interface SendOptions {
  /** Each status text while the answer is worked out. */
  onStatus?: (status: string) => void;
}

const ownerOf = (ctx: AccountContext): repo.Owner => ({ accountId: ctx.accountId, userId: ctx.user.id });

/** The first rows of a result, fewer when they would make one message too large. */
export function keptRows(rows: unknown[][]): unknown[][] {
  const kept: unknown[][] = [];
  let bytes = 2;
  for (const row of rows.slice(0, CHAT_LIMITS.resultMaxRows)) {
    bytes += Buffer.byteLength(JSON.stringify(row)) + 1;
    if (bytes > CHAT_LIMITS.resultMaxBytes) break;
    kept.push(row);
  }
  return kept;
}

export function createChatService(deps: Deps, services: CoreServices) {
  const limiter = createRateLimiter(60_000, deps.clock);
  /** Conversations with a question being answered (one process serves them all). */
  const busy = new Set<string>();
  const now = () => deps.clock().toISOString();

  async function conversationOf(ctx: AccountContext, id: string) {
    const conversation = await repo.findConversation(deps.db, ownerOf(ctx), id);
    if (!conversation) throw notFound(CHAT_MESSAGES.conversationNotFound);
    return conversation;
  }

  /** The answer, or a plain reply saying why there is none (never a thrown error past here). */
  async function answer(ctx: AccountContext, conversationId: string, text: string, options: SendOptions) {
    const history = await repo.recentHistory(deps.db, conversationId, CHAT_LIMITS.historyMessages + 1);
    // The question just stored is the last of them: it is asked, not history.
    history.pop();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), CHAT_LIMITS.answerTimeoutMs);
    try {
      return await answerQuestion({ deps, services, ctx }, text, {
        today: deps.clock(),
        signal: controller.signal,
        onStatus: options.onStatus,
        history,
      });
    } catch (error) {
      const plain = (reply: string): QuestionAnswer => ({
        text: reply,
        reading: null,
        suggestedActions: [],
        result: null,
      });
      if (controller.signal.aborted) return plain(CHAT_MESSAGES.timedOut);
      // Problems the user can act on say so; anything else is a bug, logged, and said plainly.
      if (error instanceof ModelError || error instanceof AppError) return plain(error.message);
      console.error('Answering a chat question failed', error);
      return plain(CHAT_MESSAGES.failed);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async startConversation(ctx: AccountContext, title?: string | null): Promise<string> {
      return repo.createConversation(deps.db, ownerOf(ctx), title?.trim() ?? '', now());
    },

    list(ctx: AccountContext): Promise<Conversation[]> {
      return repo.listConversations(deps.db, ownerOf(ctx));
    },

    async messages(ctx: AccountContext, conversationId: string): Promise<ChatMessage[]> {
      await conversationOf(ctx, conversationId);
      return repo.listMessages(deps.db, conversationId);
    },

    /**
     * Stores the question, answers it (status updates through onStatus) and stores the reply, which
     * it returns. A second question in the same conversation while one is answered is refused.
     */
    async send(
      ctx: AccountContext,
      conversationId: string,
      text: string,
      options: SendOptions = {},
    ): Promise<{ question: ChatMessage; reply: ChatMessage }> {
      await conversationOf(ctx, conversationId);
      if (busy.has(conversationId)) throw conflict(CHAT_MESSAGES.busy);
      const wait = limiter.wait(ctx.user.id, deps.config.chat.messagesPerMinute);
      if (wait > 0) throw tooManyRequests(CHAT_MESSAGES.tooMany, wait);
      busy.add(conversationId);
      try {
        const owner = ownerOf(ctx);
        const question = await repo.addMessage(
          deps.db,
          owner,
          conversationId,
          { sender: 'User', text, suggestedActions: [], reading: null, result: null },
          now(),
        );
        const answered = await answer(ctx, conversationId, text, options);
        const result = answered.result;
        const reply = await repo.addMessage(
          deps.db,
          owner,
          conversationId,
          {
            sender: 'Bot',
            text: answered.text,
            suggestedActions: answered.suggestedActions,
            reading: answered.reading,
            result: result
              ? {
                  query: result.query,
                  sql: result.sql,
                  headers: result.headers,
                  rows: keptRows(result.rows),
                  rowCount: result.rowCount,
                }
              : null,
          },
          now(),
        );
        return { question, reply };
      } finally {
        busy.delete(conversationId);
      }
    },

    /** A stored result's every row as a file: the query runs again, streamed in pages. */
    async exportQuery(
      ctx: AccountContext,
      queryId: string,
      format: ChatExportFormat,
    ): Promise<{ fileName: string; contentType: string; stream: Readable }> {
      const stored = await repo.findQuery(deps.db, ownerOf(ctx), queryId);
      if (!stored) throw notFound(CHAT_MESSAGES.queryNotFound);
      const query: unknown = JSON.parse(stored.query);
      const controller = new AbortController();
      const pages = runStoredQuery({ deps, services, ctx }, query, { signal: controller.signal });
      const file = await chatExportFile(pages, format, () => controller.abort());
      const day = stored.created_at.slice(0, 10);
      return { ...file, fileName: `query-${day}.${format}` };
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
