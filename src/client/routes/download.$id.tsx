import { createFileRoute } from '@tanstack/react-router';
import { filePaths } from '../../shared/files';
import { trpc } from '../trpc';
import { FileDownload } from './-components/file-download';
import { PublicCard } from './-components/public-card';

/** The public download page of a shared file (open: no sign-in). */
export const Route = createFileRoute('/download/$id')({ component: PublicDownloadPage });

function PublicDownloadPage() {
  const { id } = Route.useParams();
  const check = trpc.files.publicFile.useQuery({ id }, { retry: false });
  return (
    <PublicCard>
      <FileDownload check={check} href={filePaths.publicDownload(id)} />
    </PublicCard>
  );
}
