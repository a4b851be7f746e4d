import { Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { formatFileSize } from '../../shared/file-size';
import type { SearchIndexAccount } from '../../shared/search';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { Dialog } from '../components/dialog';
import { EmptyRow } from '../components/empty-row';
import { errorMessage } from '../lib/error-message';
import { formatRecent } from '../lib/format';
import { trpc } from '../trpc';
import { AdminPage } from './-admin/admin-page';

/** /admin/index (adminIndexInfo): each account's search index, its rebuild, and what is kept out of search. */
export const Route = createFileRoute('/admin/index')({
  component: SearchIndexPage,
});

export const INDEX_EMPTY = 'No accounts.';
const WHOLE_TABLE = '__table__';

function lag(account: SearchIndexAccount): string {
  if (account.pending === 0) return 'Up to date';
  const seconds = Math.round(account.lagSeconds);
  const since = seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return `${account.pending} table${account.pending === 1 ? '' : 's'} waiting, ${since}`;
}

function SearchIndexPage() {
  // While anything waits or builds, the figures refresh on their own.
  const indexes = trpc.search.indexes.useQuery(undefined, {
    refetchInterval: (query) => (query.state.data?.some((a) => a.pending > 0 || a.building) ? 2_000 : false),
  });
  const utils = trpc.useUtils();
  const rebuild = trpc.search.rebuild.useMutation({
    onSuccess: () => void utils.search.indexes.invalidate(),
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const [exclusionsOf, setExclusionsOf] = useState<SearchIndexAccount | null>(null);

  return (
    <AdminPage loading={indexes.isLoading} error={indexes.error} errorTitle="Could not load the search indexes">
      <BreadcrumbBar title="Search index" back={false} />
      <Text size="sm" c="dimmed">
        Each account&apos;s values are indexed in a file of its own, after every sync and table change. Rebuild indexes
        every table of the account again; exclusions keep private tables or columns out of search.
      </Text>
      <Table.ScrollContainer minWidth={760}>
        <Table striped highlightOnHover aria-label="Search indexes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th>Index size</Table.Th>
              <Table.Th>Documents</Table.Th>
              <Table.Th>Last indexed</Table.Th>
              <Table.Th>Lag</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(indexes.data ?? []).length === 0 && <EmptyRow cols={6} text={INDEX_EMPTY} />}
            {(indexes.data ?? []).map((account) => (
              <Table.Tr key={account.accountId}>
                <Table.Td>{account.accountName}</Table.Td>
                <Table.Td>{formatFileSize(account.sizeBytes)}</Table.Td>
                <Table.Td>
                  {account.documents.toLocaleString('en-US')}
                  <Text span size="xs" c="dimmed">
                    {' '}
                    in {account.tables} table{account.tables === 1 ? '' : 's'}
                  </Text>
                </Table.Td>
                <Table.Td>{account.lastIndexedAt ? formatRecent(account.lastIndexedAt) : 'Never'}</Table.Td>
                <Table.Td>{account.building ? 'Indexing…' : lag(account)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconRefresh size={14} />}
                      loading={rebuild.isPending && rebuild.variables?.accountId === account.accountId}
                      onClick={() => rebuild.mutate({ accountId: account.accountId })}
                      aria-label={`Rebuild the index of ${account.accountName}`}
                    >
                      Rebuild
                    </Button>
                    <Button size="xs" variant="default" onClick={() => setExclusionsOf(account)}>
                      Exclusions
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ExclusionsDialog account={exclusionsOf} onClose={() => setExclusionsOf(null)} />
    </AdminPage>
  );
}

function ExclusionsDialog({ account, onClose }: { account: SearchIndexAccount | null; onClose: () => void }) {
  const accountId = account?.accountId ?? '';
  const enabled = account !== null;
  const exclusions = trpc.search.exclusions.useQuery({ accountId }, { enabled });
  const options = trpc.search.tableOptions.useQuery({ accountId }, { enabled });
  const utils = trpc.useUtils();
  const [table, setTable] = useState<string | null>(null);
  const [column, setColumn] = useState<string | null>(WHOLE_TABLE);
  const done = {
    onSuccess: () => {
      void utils.search.exclusions.invalidate({ accountId });
      void utils.search.indexes.invalidate();
    },
    onError: (error: unknown) => notifications.show({ color: 'red', message: errorMessage(error) }),
  };
  const exclude = trpc.search.exclude.useMutation(done);
  const include = trpc.search.include.useMutation(done);
  const chosen = options.data?.find((t) => `${t.tableType}:${t.tableId}` === table);

  return (
    <Dialog
      opened={account !== null}
      onClose={onClose}
      title={`Kept out of search: ${account?.accountName ?? ''}`}
      size="lg"
    >
      <Stack gap="md">
        <Table aria-label="Exclusions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Table</Table.Th>
              <Table.Th>Column</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(exclusions.data ?? []).length === 0 && (
              <EmptyRow cols={3} text={exclusions.isLoading ? 'Loading…' : 'Nothing is excluded.'} />
            )}
            {(exclusions.data ?? []).map((e) => (
              <Table.Tr key={`${e.tableType}:${e.tableId}:${e.columnKey ?? ''}`}>
                <Table.Td>{e.tableName}</Table.Td>
                <Table.Td>{e.columnName ?? 'Whole table'}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() =>
                      include.mutate({ accountId, tableType: e.tableType, tableId: e.tableId, columnKey: e.columnKey })
                    }
                  >
                    Remove
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group align="end" wrap="wrap">
          <Select
            label="Table"
            placeholder="Choose a table"
            data={(options.data ?? []).map((t) => ({
              value: `${t.tableType}:${t.tableId}`,
              label: `${t.groupName} / ${t.tableName}`,
            }))}
            value={table}
            onChange={(value) => {
              setTable(value);
              setColumn(WHOLE_TABLE);
            }}
            searchable
            w={260}
            data-autofocus
          />
          <Select
            label="Column"
            data={[
              { value: WHOLE_TABLE, label: 'Whole table' },
              ...(chosen?.columns ?? []).map((c) => ({ value: c.columnKey, label: c.columnName })),
            ]}
            value={column}
            onChange={setColumn}
            disabled={!chosen}
            allowDeselect={false}
            w={200}
          />
          <Button
            disabled={!chosen}
            loading={exclude.isPending}
            onClick={() =>
              chosen &&
              exclude.mutate({
                accountId,
                tableType: chosen.tableType,
                tableId: chosen.tableId,
                columnKey: column === WHOLE_TABLE ? null : column,
              })
            }
          >
            Exclude
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
