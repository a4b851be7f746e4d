import { ActionIcon, Alert, Box, Button, Group, Paper, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconSend } from '@tabler/icons-react';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { CHAT_LIMITS, CHAT_MESSAGES, type ChatResult } from '../../shared/chat';
import { useNarrow } from '../lib/use-narrow';
import { trpc } from '../trpc';
import { ChatMessageView, WaitingView } from './-querytool/chat-message';
import { ConversationList } from './-querytool/conversation-list';
import { ResultGridDialog } from './-querytool/result-grid-dialog';
import { useChat } from './-querytool/use-chat';

export const Route = createFileRoute('/_app/querytool')({
  validateSearch: z.object({ conversation: z.string().max(100).optional() }),
  component: QueriesPage,
});

/** The Queries screen: ask questions about the account's data; replies may carry a result table. */
function QueriesPage() {
  const navigate = useNavigate({ from: Route.fullPath });
  const { conversation } = Route.useSearch();
  const phone = useNarrow('sm');
  const conversations = trpc.chat.conversations.useQuery();
  const open = useCallback(
    (id: string | undefined) => void navigate({ search: { conversation: id }, replace: false }),
    [navigate],
  );
  const chat = useChat(conversation, open);
  const [text, setText] = useState('');
  const [grid, setGrid] = useState<ChatResult | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLDivElement>(null);

  const send = async (question: string) => {
    const sent = chat.send(question);
    if (question === text) setText('');
    if (!(await sent)) setText((t) => t || question);
    input.current?.focus();
  };

  // The newest message (or the status) stays in view.
  const last = chat.messages.at(-1)?.messageId;
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [last, chat.waiting?.status]);

  return (
    <Stack gap="md" h="calc(100dvh - var(--app-shell-header-offset, 56px) - 2 * var(--mantine-spacing-lg))" mih={420}>
      <Group gap="xs" wrap="nowrap">
        <Tooltip label="Back">
          <ActionIcon variant="subtle" color="gray" aria-label="Back" onClick={() => void navigate({ to: '/' })}>
            <IconArrowLeft size={18} />
          </ActionIcon>
        </Tooltip>
        <Title order={2} size="h3">
          Queries
        </Title>
      </Group>
      <Group align="stretch" gap="md" wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
        {!phone && (
          <ConversationList
            conversations={conversations.data}
            current={conversation}
            onOpen={open}
            onNew={() => open(undefined)}
            compact={false}
          />
        )}
        <Paper withBorder radius="md" p={0} style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          {phone && (
            <Box p="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
              <ConversationList
                conversations={conversations.data}
                current={conversation}
                onOpen={open}
                onNew={() => open(undefined)}
                compact
              />
            </Box>
          )}
          <Box
            style={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
            p="sm"
            aria-label="Messages"
            role="log"
            tabIndex={0}
          >
            <Stack gap="sm">
              {!conversation && chat.messages.length === 0 && (
                <Text c="dimmed" size="sm" ta="center" mt="xl">
                  Ask about your data: “how many orders”, “total amount by month”, “top 5 customers by amount”.
                </Text>
              )}
              {chat.loadError && <Alert color="red">{chat.loadError}</Alert>}
              {chat.messages.map((m) => (
                <ChatMessageView
                  key={m.messageId}
                  message={m}
                  canSend={!chat.busy}
                  onSend={(q) => void send(q)}
                  onOpenGrid={setGrid}
                />
              ))}
              {chat.waiting && <WaitingView status={chat.waiting.status} />}
              <div ref={end} />
            </Stack>
          </Box>
          <Box
            component="form"
            p="sm"
            style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
            onSubmit={(e) => {
              e.preventDefault();
              void send(text);
            }}
          >
            {chat.error && (
              <Text c="red" size="sm" mb={6} role="alert">
                {chat.error}
              </Text>
            )}
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <Textarea
                ref={input}
                aria-label="Question"
                placeholder={CHAT_MESSAGES.placeholder}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                maxLength={CHAT_LIMITS.messageMaxLength}
                autosize
                minRows={1}
                maxRows={5}
                style={{ flex: 1 }}
                autoFocus
                onKeyDown={(e) => {
                  // Enter sends; Shift+Enter starts a new line.
                  if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                    e.preventDefault();
                    if (!chat.busy) void send(text);
                  }
                }}
              />
              <Button type="submit" disabled={chat.busy || text.trim() === ''} leftSection={<IconSend size={16} />}>
                Send
              </Button>
            </Group>
          </Box>
        </Paper>
      </Group>
      <ResultGridDialog result={grid} onClose={() => setGrid(null)} />
    </Stack>
  );
}
