import { Box, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { CHAT_MESSAGES, type ChatMessage, type ChatResult } from '../../../shared/chat';
import { ResultBlock } from './result-block';

/** One message: the user's on the right, the bot's on the left with its reading, result and suggestions. */
export function ChatMessageView({
  message,
  canSend,
  onSend,
  onOpenGrid,
}: {
  message: ChatMessage;
  canSend: boolean;
  onSend: (text: string) => void;
  onOpenGrid: (result: ChatResult) => void;
}) {
  const mine = message.from === 'User';
  const result = message.data?.data ?? null;
  return (
    <Group justify={mine ? 'flex-end' : 'flex-start'} wrap="nowrap" data-chat-message={message.from}>
      <Paper
        px="sm"
        py={8}
        radius="md"
        bg={mine ? 'blue.0' : 'gray.0'}
        withBorder={!mine}
        maw={mine ? '85%' : '100%'}
        miw={0}
        style={{ overflowWrap: 'anywhere' }}
      >
        <Stack gap={6} miw={0}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={message.text ? undefined : 'dimmed'}>
            {message.text || CHAT_MESSAGES.noReply}
          </Text>
          {message.reading && (
            <Text size="xs" c="dimmed">
              Read as: {message.reading}
            </Text>
          )}
          {result && <ResultBlock result={result} sql={message.sql} onOpenGrid={() => onOpenGrid(result)} />}
          {message.suggestedActions.length > 0 && (
            <Suggestions items={message.suggestedActions} canSend={canSend} onSend={onSend} />
          )}
        </Stack>
      </Paper>
    </Group>
  );
}

/** 'Show N suggestions' / 'Hide suggestions'; each item sends itself as the next question. */
function Suggestions({
  items,
  canSend,
  onSend,
}: {
  items: string[];
  canSend: boolean;
  onSend: (text: string) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Stack gap={4} align="flex-start">
      <Button size="compact-sm" variant="subtle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? CHAT_MESSAGES.hideSuggestions : CHAT_MESSAGES.showSuggestions(items.length)}
      </Button>
      {open && (
        <Stack
          component="ul"
          gap={4}
          align="flex-start"
          aria-label="Suggestions"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
        >
          {items.map((item) => (
            <li key={item}>
              <Button
                size="compact-sm"
                variant="light"
                disabled={!canSend}
                onClick={() => onSend(item)}
                styles={{ root: { height: 'auto', minHeight: 26 }, label: { whiteSpace: 'normal', textAlign: 'left' } }}
              >
                {item}
              </Button>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** While an answer is worked out: the latest status text followed by '...'. */
export function WaitingView({ status }: { status: string }) {
  return (
    <Group justify="flex-start">
      <Paper px="sm" py={8} radius="md" bg="gray.0" withBorder>
        <Group gap="xs" wrap="nowrap">
          <Loader size={14} type="dots" />
          <Box component="span" fz="sm" c="dimmed" role="status" aria-live="polite">
            {CHAT_MESSAGES.waiting(status)}
          </Box>
        </Group>
      </Paper>
    </Group>
  );
}
