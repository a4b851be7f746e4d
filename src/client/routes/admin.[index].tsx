import { Alert, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { ADMIN_MESSAGES } from '../../shared/admin';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ADMIN_PAGE_WIDTH } from './-admin/admin-page';

/** /admin/index (adminIndexInfo): the search index's admin page, before global search exists. */
export const Route = createFileRoute('/admin/index')({
  component: SearchIndexPage,
});

function SearchIndexPage() {
  return (
    <Stack maw={ADMIN_PAGE_WIDTH} gap="lg">
      <BreadcrumbBar title="Search index" back={false} />
      <Alert
        color="blue"
        variant="light"
        icon={<IconInfoCircle size={18} />}
        title={ADMIN_MESSAGES.searchIndexUnavailable}
      >
        <Text size="sm">
          Global search, and the per-account index that feeds it, come in a later release. Until then there is nothing
          to index or rebuild here; the admin search of users and accounts works without it.
        </Text>
      </Alert>
    </Stack>
  );
}
