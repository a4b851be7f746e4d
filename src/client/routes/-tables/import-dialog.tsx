import { Alert, Button, Group, Loader, Modal, Progress, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { CsvImportAnswer } from '../../../shared/static-tables';
import { IMPORT_PREVIEW, type ImportMode, type ImportPreview } from '../../../shared/static-table-import';
import { errorMessage } from '../../lib/error-message';
import { trpcClient } from '../../trpc';
import { ImportChoice } from './import-choice';
import { ImportProgress, newProgressToken } from './import-progress';
import { ImportPreviewTable } from './import-preview-table';
import { uploadWithProgress } from './upload-with-progress';

type Phase =
  | { kind: 'reading' }
  | { kind: 'choosing' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'importing'; token: string }
  | { kind: 'failed'; message: string };

/** The file as text/csv: some systems label .csv files otherwise (e.g. as Excel), which the server refuses. */
function asCsv(file: File): File {
  return file.type !== 'text/csv' && /\.csv$/i.test(file.name)
    ? new File([file], file.name, { type: 'text/csv' })
    : file;
}

const baseName = (fileName: string) => fileName.replace(/\.[^.]*$/, '').trim() || 'Imported table';

const ACTION: Record<ImportMode, string> = { Replace: 'Replace table', Append: 'Append rows', New: 'Create table' };

/**
 * Importing a CSV file into a table: reads the head of the file for a preview (first rows, detected
 * types); a table with data asks Replace, Append or New table, an empty one is replaced at once.
 * Then the upload with its progress, and the import; an error is shown here, with the choice kept.
 */
export function ImportDialog({
  tableId,
  file,
  onImported,
  onClose,
}: {
  tableId: string;
  file: File;
  onImported: (answer: CsvImportAnswer) => void;
  onClose: () => void;
}) {
  const [phase, setPhase] = useState<Phase>({ kind: 'reading' });
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mode, setMode] = useState<ImportMode>('Replace');
  const [newName, setNewName] = useState(baseName(file.name));
  const abort = useRef<(() => void) | null>(null);
  const closed = useRef(false);

  const start = (chosen: ImportMode, name = newName) => {
    // The server reports the import's progress under this name (the dialog polls it once the file is sent).
    const token = newProgressToken();
    const url =
      chosen === 'New'
        ? `/api/static-tables/upload?name=${encodeURIComponent(name.trim())}&progress=${token}`
        : `/api/static-tables/${encodeURIComponent(tableId)}/upload?mode=${chosen}&progress=${token}`;
    setPhase({ kind: 'uploading', fraction: 0 });
    const upload = uploadWithProgress<CsvImportAnswer>(url, chosen === 'New' ? 'POST' : 'PUT', asCsv(file), {
      onProgress: (fraction) => !closed.current && setPhase({ kind: 'uploading', fraction }),
      onSent: () => !closed.current && setPhase({ kind: 'importing', token }),
    });
    abort.current = upload.abort;
    upload.done.then(
      (answer) => {
        abort.current = null;
        if (!closed.current) onImported(answer);
      },
      (error: unknown) => {
        abort.current = null;
        if (!closed.current) setPhase({ kind: 'failed', message: errorMessage(error) });
      },
    );
  };

  useEffect(() => {
    closed.current = false;
    let cancelled = false;
    void (async () => {
      try {
        const head = await file.slice(0, IMPORT_PREVIEW.headBytes).text();
        const read = await trpcClient.staticTables.importPreview.mutate({
          id: tableId,
          head,
          truncated: file.size > IMPORT_PREVIEW.headBytes,
        });
        if (cancelled) return;
        setPreview(read);
        if (read.tableHasData) setPhase({ kind: 'choosing' });
        else start('Replace');
      } catch (error) {
        if (!cancelled) setPhase({ kind: 'failed', message: errorMessage(error) });
      }
    })();
    return () => {
      cancelled = true;
    };
    // Read once per file; `start` only reads state set here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file, tableId]);

  const close = () => {
    closed.current = true;
    abort.current?.();
    onClose();
  };

  const busy = phase.kind === 'uploading' || phase.kind === 'importing' || phase.kind === 'reading';
  const blocked = (mode === 'Append' && preview?.appendProblem) || (mode === 'New' && !newName.trim());
  const asking = preview?.tableHasData ?? false;

  return (
    <Modal
      opened
      onClose={close}
      title={`Import ${file.name}`}
      size="xl"
      closeOnClickOutside={!busy}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        {phase.kind === 'reading' && (
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm">Reading the file…</Text>
          </Group>
        )}
        {preview && <ImportPreviewTable preview={preview} />}
        {preview && asking && (
          <ImportChoice
            preview={preview}
            mode={mode}
            onMode={setMode}
            newName={newName}
            onNewName={setNewName}
            disabled={busy}
          />
        )}
        {phase.kind === 'uploading' && (
          <Stack gap={4}>
            <Text size="sm">Uploading… {Math.round(phase.fraction * 100)}%</Text>
            <Progress value={phase.fraction * 100} aria-label="Upload progress" transitionDuration={150} />
          </Stack>
        )}
        {phase.kind === 'importing' && <ImportProgress token={phase.token} />}
        {phase.kind === 'failed' && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Failed to upload file" role="alert">
            {phase.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          {preview && (asking || phase.kind === 'failed') && (
            <Button
              onClick={() => start(asking ? mode : 'Replace')}
              loading={phase.kind === 'uploading' || phase.kind === 'importing'}
              disabled={Boolean(blocked)}
            >
              {asking ? ACTION[mode] : 'Try again'}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
