/**
 * The chatbot hub (/api/hubs/chatbot): StartConversation and SendMessage, in the caller's current
 * account. While a question is answered the calling connection receives ReceiveMessageStatusUpdate,
 * then ReceiveMessage with the Bot's reply (src/shared/chat.ts says the payloads).
 */
import type { z } from 'zod';
import { CHAT_HUB, sendMessageArgsSchema, startConversationArgsSchema, type ChatStatus } from '../../../shared/chat';
import { MESSAGES } from '../../../shared/messages';
import type { AccountContext, Deps } from '../../context';
import { HubError, type HubCaller, type HubDefinition } from '../../hubs/definitions';
import { resolveAccountContext } from '../accounts/access';
import { findUserById } from '../users/repo';
import type { ChatService } from './service';

/**
 * The arguments as the schema reads them; the first problem's message goes back to the client
 * (a wrong number of arguments says how the method is called).
 */
function argsOf<S extends z.ZodType>(schema: S, args: unknown[], usage: string): z.output<S> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new HubError(!issue || issue.path.length === 0 ? `Call ${usage}.` : issue.message);
}

/** The caller in their current account as it is now (it may have changed since the connection opened). */
async function contextOf(deps: Deps, caller: HubCaller): Promise<AccountContext> {
  const user = await findUserById(deps.db, caller.userId);
  if (!user) throw new HubError(MESSAGES.notSignedIn);
  return resolveAccountContext(deps, user);
}

export function chatbotHub(deps: Deps, chat: ChatService): HubDefinition {
  return {
    name: 'chatbot',
    methods: {
      [CHAT_HUB.startConversation]: async (caller, args) => {
        const [title] = argsOf(startConversationArgsSchema, args, 'StartConversation(title?)');
        return chat.startConversation(await contextOf(deps, caller), title);
      },
      [CHAT_HUB.sendMessage]: async (caller, args) => {
        const [conversationId, text] = argsOf(sendMessageArgsSchema, args, 'SendMessage(conversationId, text)');
        const ctx = await contextOf(deps, caller);
        const { question, reply } = await chat.send(ctx, conversationId, text, {
          onStatus: (status) => {
            const update: ChatStatus = { conversationId, status };
            deps.hubs.toConnection(caller.connectionId, CHAT_HUB.receiveStatus, update);
          },
        });
        deps.hubs.toConnection(caller.connectionId, CHAT_HUB.receiveMessage, reply);
        return question;
      },
    },
  };
}
