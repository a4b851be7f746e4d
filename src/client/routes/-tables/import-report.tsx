import { Alert, List, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import type { CsvImportAnswer } from '../../../shared/static-tables';

/** Column names as the user reads them: "a", "b" and "c". */
function names(columns: { displayName: string }[]): string {
  const quoted = columns.map((c) => `"${c.displayName}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1) ?? ''}`;
}

/**
 * What the last CSV import did, shown above the grid until closed: how each date column was read,
 * columns kept as text or changed type, and columns added or removed (models reading a removed column
 * show it as removed).
 */
export function ImportReport({
  fileName,
  answer,
  onClose,
}: {
  fileName: string;
  answer: CsvImportAnswer;
  onClose: () => void;
}) {
  const rows = `${answer.rowCount.toLocaleString()} ${answer.rowCount === 1 ? 'row' : 'rows'}`;
  const hasNotes = answer.notes.length > 0 || answer.removedColumns.length > 0;
  return (
    <Alert
      color={hasNotes ? 'yellow' : 'teal'}
      icon={<IconFileImport size={18} />}
      title={`Imported ${fileName}: ${rows}`}
      withCloseButton
      closeButtonLabel="Close the import report"
      onClose={onClose}
      data-testid="import-report"
    >
      <List size="sm" spacing={2}>
        {answer.dateFormats.map((d) => (
          <List.Item key={`date-${d.columnKey}`}>
            "{d.displayName}" read as {d.type === 'Date' ? 'dates' : 'dates and times'} in the format {d.format}
          </List.Item>
        ))}
        {answer.notes.map((n) => (
          <List.Item key={`note-${n.columnKey}`}>
            "{n.displayName}": {n.message}
          </List.Item>
        ))}
        {answer.addedColumns.length > 0 && answer.columns.length > answer.addedColumns.length && (
          <List.Item>New columns: {names(answer.addedColumns)}</List.Item>
        )}
        {answer.removedColumns.length > 0 && (
          <List.Item>
            <Text span size="sm">
              No longer in the file, so removed: {names(answer.removedColumns)}. Models reading{' '}
              {answer.removedColumns.length === 1 ? 'it' : 'them'} show the column as removed.
            </Text>
          </List.Item>
        )}
      </List>
    </Alert>
  );
}
