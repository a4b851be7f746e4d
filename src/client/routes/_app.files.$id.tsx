import { Center, Paper } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { filePaths } from '../../shared/files';
import { trpc } from '../trpc';
import { FileDownload } from './-components/file-download';

/** The private download page: a file of the current account, for a signed-in member. */
export const Route = createFileRoute('/_app/files/$id')({ component: PrivateDownloadPage });

function PrivateDownloadPage() {
  const { id } = Route.useParams();
  const check = trpc.files.get.useQuery({ id }, { retry: false });
  return (
    <Center py="xl">
      <Paper p="xl" w="100%" maw={420} withBorder>
        <FileDownload check={check} href={filePaths.privateDownload(id)} />
      </Paper>
    </Center>
  );
}
