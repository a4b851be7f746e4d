import { conversationIdSchema } from '../../../shared/chat';
import { accountProcedure, router } from '../../trpc/trpc';

export const chatRouter = router({
  /** The caller's conversations in their current account, newest first, for reopening. */
  conversations: accountProcedure.query(({ ctx }) => ctx.services.chat.list(ctx.account)),
  /** One conversation's messages in order, each reply with its stored result. */
  messages: accountProcedure
    .input(conversationIdSchema)
    .query(({ ctx, input }) => ctx.services.chat.messages(ctx.account, input.id)),
});
