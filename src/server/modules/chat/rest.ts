import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  chatExportParamsSchema,
  chatExportQuerySchema,
  chatMessageSchema,
  conversationIdSchema,
  conversationSchema,
} from '../../../shared/chat';
import { REPORT_CONTENT_TYPES } from '../../../shared/reports';
import type { Deps } from '../../context';
import { attachment } from '../../http/attachment';
import { endpoint } from '../../http/endpoint';
import type { Services } from '../../services';

const tag = 'Chat';

export function registerChatRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const chat = services.chat;

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/chat/conversations',
      summary: "The caller's Queries conversations in their current account, newest first",
      description: 'Questions are asked on the chatbot hub (/api/hubs/chatbot: StartConversation, SendMessage).',
      tag,
      access: 'account',
      answers: { 200: { description: 'The conversations.', json: z.array(conversationSchema) } },
    },
    async ({ ctx }) => chat.list(ctx),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/chat/conversations/{id}/messages',
      summary: "A conversation's messages in order, replies with their result's first rows",
      tag,
      access: 'account',
      params: conversationIdSchema,
      answers: { 200: { description: 'The messages.', json: z.array(chatMessageSchema) } },
      errors: [404],
    },
    async ({ ctx, params }) => chat.messages(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/chat/query/{queryId}/export',
      summary: "Download a chat reply's result, every row (CSV by default, or XLSX)",
      description:
        'The stored query runs again on the current data and the file is streamed as it runs. Only the user who asked, in the same account.',
      tag,
      access: 'account',
      params: chatExportParamsSchema,
      query: chatExportQuerySchema,
      answers: {
        200: {
          description: 'The rows as a file (Content-Disposition names it).',
          file: [REPORT_CONTENT_TYPES.csv, REPORT_CONTENT_TYPES.xlsx],
        },
      },
      errors: [404],
    },
    async ({ ctx, params, query, reply }) => {
      const file = await chat.exportQuery(ctx, params.queryId, query.format);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachment(file.fileName))
        .send(file.stream);
    },
  );
}
