import { useState, type ReactNode } from 'react';
import type { ReportSource } from '../../../shared/reports';
import { SaveReportDialog } from './save-report-dialog';

interface Request {
  source: ReportSource;
  name: string;
  what: string;
}

/** 'Save as report' for a page: `open` with what to save, and the dialog to render once. */
export function useSaveReport(): { open: (request: Request) => void; dialog: ReactNode } {
  const [request, setRequest] = useState<Request | null>(null);
  const dialog = request ? (
    <SaveReportDialog
      opened
      onClose={() => setRequest(null)}
      defaultName={request.name}
      source={request.source}
      what={request.what}
    />
  ) : null;
  return { open: setRequest, dialog };
}

/** What a grid's report holds, in the dialog's words. */
export function gridReportContents(filtered: boolean): string {
  return filtered ? 'the rows matching the filters, in the grid’s order' : 'every row, in the grid’s order';
}
