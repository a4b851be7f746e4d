/**
 * One conversation of the Queries chat over the chatbot hub: its stored messages (tRPC), the
 * question waiting for its answer with the latest status text, and `send`, which starts a
 * conversation first when there is none. The server sends ReceiveMessage (the reply) before
 * SendMessage completes (with the stored question), so the reply is shown as soon as it arrives.
 */
import { useCallback, useRef, useState } from 'react';
import { CHAT_HUB, CHAT_MESSAGES, chatMessageSchema, chatStatusSchema, type ChatMessage } from '../../../shared/chat';
import { errorMessage } from '../../lib/error-message';
import { invokeHub, useHubConnection, useHubEvent } from '../../lib/hub';
import { trpc } from '../../trpc';

export interface Waiting {
  conversationId: string;
  question: ChatMessage;
  status: string;
}

const PENDING_ID = 'pending-question';

/** A question shown at once, before the server has stored it. */
function pendingQuestion(conversationId: string, text: string): ChatMessage {
  return {
    messageId: PENDING_ID,
    conversationId,
    from: 'User',
    text,
    suggestedActions: [],
    data: null,
    reading: null,
    sql: null,
    createdAt: new Date().toISOString(),
  };
}

export function useChat(conversationId: string | undefined, onStarted: (id: string) => void) {
  useHubConnection('chatbot');
  const utils = trpc.useUtils();
  const stored = trpc.chat.messages.useQuery({ id: conversationId ?? '' }, { enabled: Boolean(conversationId) });
  const [waiting, setWaitingState] = useState<Waiting | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The hub's handlers read the question waiting now, not the one of their render: every change
  // goes through setWaiting, which keeps both.
  const waitingRef = useRef<Waiting | null>(null);
  const setWaiting = useCallback((next: (current: Waiting | null) => Waiting | null) => {
    waitingRef.current = next(waitingRef.current);
    setWaitingState(waitingRef.current);
  }, []);

  const append = useCallback(
    (id: string, add: ChatMessage[]) =>
      utils.chat.messages.setData({ id }, (old) => {
        const known = new Set(add.map((m) => m.messageId));
        return [...(old ?? []).filter((m) => !known.has(m.messageId)), ...add];
      }),
    [utils],
  );

  useHubEvent('chatbot', CHAT_HUB.receiveStatus, (payload) => {
    const update = chatStatusSchema.safeParse(payload);
    if (!update.success) return;
    setWaiting((w) =>
      w && w.conversationId === update.data.conversationId ? { ...w, status: update.data.status } : w,
    );
  });

  useHubEvent('chatbot', CHAT_HUB.receiveMessage, (payload) => {
    const reply = chatMessageSchema.safeParse(payload);
    if (!reply.success) return;
    const w = waitingRef.current;
    // The question goes in first (its stored copy replaces it when SendMessage completes).
    append(
      reply.data.conversationId,
      w?.conversationId === reply.data.conversationId ? [w.question, reply.data] : [reply.data],
    );
    setWaiting((current) => (current?.conversationId === reply.data.conversationId ? null : current));
  });

  const send = useCallback(
    async (text: string): Promise<boolean> => {
      const question = text.trim();
      if (!question || waitingRef.current) return false;
      setError(null);
      let id = conversationId;
      try {
        if (!id) {
          id = await invokeHub<string>('chatbot', CHAT_HUB.startConversation, null);
          utils.chat.messages.setData({ id }, []);
          void utils.chat.conversations.invalidate();
          onStarted(id);
        }
        const next: Waiting = {
          conversationId: id,
          question: pendingQuestion(id, question),
          status: CHAT_MESSAGES.defaultStatus,
        };
        setWaiting(() => next);
        const storedQuestion = chatMessageSchema.parse(await invokeHub('chatbot', CHAT_HUB.sendMessage, id, question));
        const conversation = id;
        utils.chat.messages.setData({ id: conversation }, (old) =>
          (old ?? []).map((m) => (m.messageId === PENDING_ID ? storedQuestion : m)),
        );
        return true;
      } catch (caught) {
        setError(errorMessage(caught));
        setWaiting(() => null);
        return false;
      } finally {
        void utils.chat.conversations.invalidate();
      }
    },
    [conversationId, onStarted, setWaiting, utils],
  );

  const messages = stored.data ?? [];
  const shown = waiting && waiting.conversationId === conversationId ? [...messages, waiting.question] : messages;
  return {
    messages: shown,
    loading: Boolean(conversationId) && stored.isLoading,
    loadError: stored.error ? errorMessage(stored.error) : null,
    waiting: waiting && waiting.conversationId === conversationId ? waiting : null,
    busy: waiting !== null,
    error,
    send,
  };
}
