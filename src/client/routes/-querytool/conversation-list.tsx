import { Button, NavLink, ScrollArea, Select, Stack, Text } from '@mantine/core';
import { IconMessagePlus } from '@tabler/icons-react';
import { CHAT_MESSAGES, type Conversation } from '../../../shared/chat';
import { formatRecent } from '../../lib/format';

interface Props {
  conversations: Conversation[] | undefined;
  current: string | undefined;
  onOpen: (id: string) => void;
  onNew: () => void;
  /** A phone: a picker above the chat instead of a column beside it. */
  compact: boolean;
}

/** The user's conversations in this account, newest first, to reopen; and a new one. */
export function ConversationList({ conversations, current, onOpen, onNew, compact }: Props) {
  const newButton = (
    <Button
      variant="light"
      leftSection={<IconMessagePlus size={16} />}
      onClick={onNew}
      disabled={!current}
      fullWidth={!compact}
    >
      {CHAT_MESSAGES.newConversation}
    </Button>
  );
  if (compact) {
    return (
      <Stack gap="xs">
        <Select
          aria-label="Conversations"
          placeholder={conversations?.length ? 'Reopen a conversation' : CHAT_MESSAGES.noConversations}
          data={(conversations ?? []).map((c) => ({ value: c.id, label: c.title || 'Untitled' }))}
          value={current ?? null}
          onChange={(id) => id && onOpen(id)}
          allowDeselect={false}
          disabled={!conversations?.length}
        />
        {newButton}
      </Stack>
    );
  }
  return (
    <Stack gap="xs" w={260} miw={260} h="100%">
      {newButton}
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" mt="xs" id="conversations-heading">
        Conversations
      </Text>
      <ScrollArea style={{ flex: 1 }} type="auto">
        <nav aria-labelledby="conversations-heading">
          {conversations?.length === 0 && (
            <Text size="sm" c="dimmed">
              {CHAT_MESSAGES.noConversations}
            </Text>
          )}
          {conversations?.map((c) => (
            <NavLink
              key={c.id}
              component="button"
              active={c.id === current}
              label={c.title || 'Untitled'}
              description={formatRecent(c.modifiedAt)}
              onClick={() => onOpen(c.id)}
              aria-current={c.id === current ? 'page' : undefined}
              styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}
            />
          ))}
        </nav>
      </ScrollArea>
    </Stack>
  );
}
