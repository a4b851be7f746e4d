import { Alert, Loader, Stack, Switch } from '@mantine/core';
import { NOTIFICATION_KINDS, NOTIFICATION_KIND_LABELS } from '../../../shared/notifications';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { Section } from './section';

/** Settings → User: which kinds of notification the user gets, one switch each, saved at once. */
export function NotificationPreferencesSection() {
  const utils = trpc.useUtils();
  const prefs = trpc.notifications.preferences.useQuery();
  const save = trpc.notifications.setPreferences.useMutation({
    onMutate: ({ kinds }) => {
      const previous = utils.notifications.preferences.getData();
      if (previous) utils.notifications.preferences.setData(undefined, { kinds: { ...previous.kinds, ...kinds } });
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) utils.notifications.preferences.setData(undefined, context.previous);
    },
    onSuccess: (saved) => utils.notifications.preferences.setData(undefined, saved),
  });
  return (
    <Section title="Notifications" description="Choose which notifications you receive in the bell.">
      {prefs.isPending ? (
        <Loader size="sm" aria-label="Loading notification settings" />
      ) : prefs.isError ? (
        <Alert color="red" title="Could not load notification settings">
          {errorMessage(prefs.error)}
        </Alert>
      ) : (
        <Stack gap="md">
          {NOTIFICATION_KINDS.map((kind) => (
            <Switch
              key={kind}
              label={NOTIFICATION_KIND_LABELS[kind].label}
              description={NOTIFICATION_KIND_LABELS[kind].description}
              checked={prefs.data.kinds[kind]}
              onChange={(e) => save.mutate({ kinds: { [kind]: e.currentTarget.checked } })}
            />
          ))}
        </Stack>
      )}
    </Section>
  );
}
