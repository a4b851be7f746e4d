import { ActionIcon, Alert, Anchor, Button, Group, Popover, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconBug, IconCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { MESSAGES } from '../../shared/messages';
import { errorMessage, errorStatus } from '../lib/error-message';
import { useMe } from '../lib/session';
import { trpc } from '../trpc';

/** The server's reason when it refused the report on purpose (limits, size, session), else nothing. */
function reasonOf(error: unknown): string | null {
  const status = errorStatus(error);
  return status !== null && status >= 400 && status < 500 ? errorMessage(error) : null;
}

/**
 * Where the bug button lives. A shell with a header docks it there (so it never covers content:
 * a fixed corner button hid the grid's last-page controls); a page without one (sign-in, a 404
 * outside the shell) shows it floating in the corner. Docked buttons register here.
 */
const DockContext = createContext<((delta: number) => void) | null>(null);

/** Provides the dock at the root and shows the floating button only while nothing is docked. */
export function BugReportHost({ children }: { children: ReactNode }) {
  const [docked, setDocked] = useState(0);
  const dock = useCallback((delta: number) => setDocked((n) => n + delta), []);
  return (
    <DockContext.Provider value={dock}>
      {children}
      {docked === 0 && <BugReportWidget placement="floating" />}
    </DockContext.Provider>
  );
}

/**
 * The bug-report widget on every page: a text box and 'Submit Report', disabled while blank.
 * Reports need a signed-in user, so a signed-out page offers a link to sign in instead.
 */
export function BugReportWidget({ placement }: { placement: 'floating' | 'header' }) {
  const dock = useContext(DockContext);
  useEffect(() => {
    if (placement !== 'header' || !dock) return;
    dock(1);
    return () => dock(-1);
  }, [placement, dock]);
  const { data: me, isPending: meUnknown } = useMe();
  const [opened, setOpened] = useState(false);
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState(false);
  const report = trpc.feedback.bugReport.useMutation({ meta: { silent: true } });

  const submit = () => {
    report.mutate(
      { message, page: window.location.pathname + window.location.search },
      {
        onSuccess: () => {
          setMessage('');
          setSent(true);
        },
      },
    );
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position={placement === 'header' ? 'bottom-end' : 'top-end'}
      width={320}
      shadow="md"
      withArrow
      trapFocus
      onClose={() => setSent(false)}
    >
      <Popover.Target>
        <Tooltip label="Report a bug" position={placement === 'header' ? 'bottom' : 'left'} disabled={opened}>
          {placement === 'header' ? (
            <ActionIcon
              size="lg"
              variant="subtle"
              color="gray"
              aria-label="Report a bug"
              onClick={() => setOpened((o) => !o)}
            >
              <IconBug size={20} />
            </ActionIcon>
          ) : (
            <ActionIcon
              size={44}
              radius="xl"
              variant="filled"
              aria-label="Report a bug"
              onClick={() => setOpened((o) => !o)}
              style={{ position: 'fixed', right: 20, bottom: 20, zIndex: 150, boxShadow: 'var(--mantine-shadow-md)' }}
            >
              <IconBug size={22} />
            </ActionIcon>
          )}
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        {!me ? (
          <Stack gap="xs" py="xs">
            <Text fw={600} size="sm">
              Report a bug
            </Text>
            <Text size="sm">{meUnknown ? 'Checking your session…' : 'Sign in to send a bug report.'}</Text>
            {!meUnknown && (
              <Anchor component={Link} to="/login" size="sm" onClick={() => setOpened(false)}>
                Sign in
              </Anchor>
            )}
          </Stack>
        ) : sent ? (
          <Stack gap="xs" align="center" py="sm">
            <IconCheck color="var(--mantine-color-teal-6)" />
            <Text size="sm">Thanks! Your report was sent to the team.</Text>
          </Stack>
        ) : (
          <Stack gap="xs">
            <Text fw={600} size="sm">
              Report a bug
            </Text>
            <Textarea
              placeholder="What went wrong? What did you expect?"
              autosize
              minRows={3}
              maxRows={8}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              aria-label="Bug description"
            />
            {report.isError && (
              <Alert color="red" p="xs">
                {MESSAGES.bugReportFailed}
                {reasonOf(report.error) && <Text size="xs">{reasonOf(report.error)}</Text>}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button size="xs" onClick={submit} disabled={message.trim() === ''} loading={report.isPending}>
                Submit Report
              </Button>
            </Group>
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
