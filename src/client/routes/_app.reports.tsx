import { Group, Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { FILE_MESSAGES, FILE_ORIGIN_TYPES, type FileInfo } from '../../shared/files';
import { LIMITS, TIMINGS } from '../../shared/limits';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ListPager } from '../components/list-pager';
import { ListFilter, ListTable } from '../components/list-table';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { useAccess } from '../lib/use-access';
import { trpc } from '../trpc';
import { ReportRow } from './-reports/report-row';
import { ShareDialog } from './-reports/share-dialog';

const REPORT_PAGE_SIZES = [LIMITS.reportsPageSize, ...LIMITS.pageSizes] as const;
type ReportPageSize = (typeof REPORT_PAGE_SIZES)[number];
const ALL_ORIGINS = 'All origins';
const PENDING_REFRESH_MS = 2000;

export const Route = createFileRoute('/_app/reports')({
  validateSearch: z.object({
    q: z.string().optional(),
    origin: z.enum(FILE_ORIGIN_TYPES).optional(),
    page: z.number().int().min(1).optional(),
    pageSize: z.union(REPORT_PAGE_SIZES.map((s) => z.literal(s))).optional(),
  }),
  component: ReportsPage,
});

const COLUMNS = [
  { label: 'Name' },
  { label: 'Origin type', width: 120 },
  { label: 'Origin', width: 140 },
  { label: 'Created', width: 170 },
  { label: 'Public url', width: 230 },
  { width: 56 },
];

function ReportsPage() {
  const navigate = useNavigate({ from: Route.fullPath });
  const search = Route.useSearch();
  const { origin, page = 1, pageSize = LIMITS.reportsPageSize } = search;

  const setSearch = (patch: Partial<typeof search>) => navigate({ search: (s) => ({ ...s, ...patch }) });
  // The field follows each key at once; the list follows the text 500 ms after the last key.
  const [text, setText] = useState(search.q ?? '');
  const [query] = useDebouncedValue(text.trim(), TIMINGS.reportFilterDebounceMs);
  const urlQuery = search.q ?? '';
  useEffect(() => {
    // A new filter starts at the first page; the address keeps it for reloads and links.
    if (urlQuery !== query)
      void navigate({ search: (s) => ({ ...s, q: query || undefined, page: undefined }), replace: true });
  }, [query, urlQuery, navigate]);

  const list = trpc.files.list.useQuery(
    { query, page, pageSize, entityType: origin },
    {
      placeholderData: (previous) => previous,
      // While a report is generated its progress moves: look again every 2 s until none is Pending.
      refetchInterval: (q) => (q.state.data?.data.some((f) => f.status === 'Pending') ? PENDING_REFRESH_MS : false),
    },
  );
  const utils = trpc.useUtils();
  const refresh = () => utils.files.list.invalidate();
  const revoke = trpc.files.revoke.useMutation({ onSuccess: refresh });
  const remove = trpc.files.delete.useMutation({ onSuccess: refresh });
  const [sharing, setSharing] = useState<FileInfo | null>(null);
  const [deleting, setDeleting] = useState<FileInfo | null>(null);
  const access = useAccess();

  return (
    <Stack>
      <BreadcrumbBar title="Reports" back={false} mark={!access.loading && !access.canWrite && <ViewOnlyBadge />} />
      <Group gap="sm" wrap="wrap">
        <ListFilter label="Filter by name" placeholder="Filter by name" value={text} onChange={setText} />
        <Select
          aria-label="Origin"
          w={180}
          maw="100%"
          allowDeselect={false}
          data={[ALL_ORIGINS, ...FILE_ORIGIN_TYPES]}
          value={origin ?? ALL_ORIGINS}
          onChange={(v) =>
            setSearch({
              origin: v && v !== ALL_ORIGINS ? (v as (typeof FILE_ORIGIN_TYPES)[number]) : undefined,
              page: undefined,
            })
          }
        />
      </Group>
      <ListTable columns={COLUMNS} list={list} empty={list.data?.data.length === 0 && FILE_MESSAGES.noReports}>
        {list.data?.data.map((file) => (
          <ReportRow
            key={file.id}
            file={file}
            canWrite={access.canWrite}
            onShare={() => setSharing(file)}
            onRevoke={() => revoke.mutate({ id: file.id })}
            onDelete={() => setDeleting(file)}
          />
        ))}
      </ListTable>
      <ListPager<ReportPageSize>
        count={list.data?.count ?? 0}
        noun="report(s)"
        page={page}
        pageSize={pageSize}
        totalPages={list.data?.totalPages ?? 1}
        sizes={REPORT_PAGE_SIZES}
        onPage={(next) => setSearch({ page: next })}
        onPageSize={(size) => setSearch({ pageSize: size, page: 1 })}
      />
      <ShareDialog file={sharing} onClose={() => setSharing(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        message={FILE_MESSAGES.confirmDelete}
        danger
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id }, { onSettled: () => setDeleting(null) })}
      />
    </Stack>
  );
}
