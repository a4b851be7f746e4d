import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { trpc } from '../trpc';

export type SupportTopic = 'message' | 'call';

const TEXTS: Record<SupportTopic, { title: string; intro: string; placeholder: string; prefix: string }> = {
  message: {
    title: 'Message support',
    intro: 'Write to the team that runs this workspace. We answer by e-mail.',
    placeholder: 'How can we help?',
    prefix: '',
  },
  call: {
    title: 'Schedule call',
    intro: 'Ask for a call with the team. Tell us a few times that suit you and what you would like to discuss.',
    placeholder: 'e.g. Tuesday or Wednesday afternoon, about connecting our CRM',
    prefix: 'Call request: ',
  },
};

/** The sidebar footer's support contact: a message, or a request for a call, sent to the team. */
export function SupportDialog({ topic, onClose }: { topic: SupportTopic | null; onClose: () => void }) {
  const [message, setMessage] = useState('');
  const send = trpc.feedback.bugReport.useMutation({ meta: { silent: true } });
  const texts = TEXTS[topic ?? 'message'];
  const close = () => {
    setMessage('');
    send.reset();
    onClose();
  };
  return (
    <Modal opened={topic !== null} onClose={close} title={texts.title} centered>
      {send.isSuccess ? (
        <Stack>
          <Text size="sm">Thanks, your message was sent. We will get back to you by e-mail.</Text>
          <Group justify="flex-end">
            <Button onClick={close}>Close</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm" c="dimmed">
            {texts.intro}
          </Text>
          <Textarea
            autosize
            minRows={4}
            placeholder={texts.placeholder}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            data-autofocus
          />
          {send.isError && <Alert color="red">{send.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              disabled={message.trim() === ''}
              loading={send.isPending}
              onClick={() =>
                send.mutate({ kind: 'support', message: texts.prefix + message, page: window.location.pathname })
              }
            >
              Send
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
