import { Alert, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconFileDescription } from '@tabler/icons-react';
import { useState } from 'react';
import {
  REPORT_FORMATS,
  REPORT_FORMAT_LABELS,
  REPORT_MESSAGES,
  type ReportFormat,
  type ReportSource,
} from '../../../shared/reports';
import { errorMessage } from '../../lib/error-message';
import { Dialog } from '../dialog';
import { trpc } from '../../trpc';
import { followReport } from './follow-report';

/**
 * "Save as report": the report's name (prefilled with what is saved) and its format. Saving answers
 * at once; the report is generated on the server while a notice follows its progress.
 */
export function SaveReportDialog({
  opened,
  onClose,
  defaultName,
  source,
  what,
}: {
  opened: boolean;
  onClose: () => void;
  defaultName: string;
  source: ReportSource;
  /** What the report holds, in a few words ("the rows matching the filters", "the pivot and its chart"). */
  what: string;
}) {
  const [name, setName] = useState(defaultName);
  const [format, setFormat] = useState<ReportFormat>('pdf');
  const [wasOpened, setWasOpened] = useState(opened);
  const create = trpc.reports.create.useMutation();
  // Each opening starts from the given name (adjusted while rendering, not in an effect).
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) {
      setName(defaultName);
      create.reset();
    }
  }
  const trimmed = name.trim();
  const save = () => {
    if (!trimmed) return;
    create.mutate(
      { name: trimmed, format, source },
      {
        onSuccess: (report) => {
          onClose();
          followReport(report);
        },
      },
    );
  };
  return (
    <Dialog opened={opened} onClose={onClose} title="Save as report" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            The report holds {what}, as shown now. It is generated in the background and listed on the Reports page.
          </Text>
          <TextInput
            label="Name"
            required
            data-autofocus
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.currentTarget.value)}
            error={name.length > 0 && !trimmed ? 'Enter a name' : undefined}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="report-format-label">
              Format
            </Text>
            <SegmentedControl
              aria-labelledby="report-format-label"
              value={format}
              onChange={(value) => setFormat(value as ReportFormat)}
              data={REPORT_FORMATS.map((f) => ({ value: f, label: REPORT_FORMAT_LABELS[f] }))}
            />
            {format === 'pdf' && (
              <Text size="xs" c="dimmed">
                {REPORT_MESSAGES.pdfCapHint}
              </Text>
            )}
          </Stack>
          {create.error && (
            <Alert color="red" title="Could not save the report">
              {errorMessage(create.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={!trimmed}
              loading={create.isPending}
              leftSection={<IconFileDescription size={16} />}
            >
              Save report
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
