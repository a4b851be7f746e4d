/** Error, bug and support reports. */
export interface ErrorReportsSchema {
  error_reports: ErrorReportsTable;
}

export interface ErrorReportsTable {
  id: string;
  kind: 'error' | 'bug' | 'support';
  account_id: string | null;
  user_id: string | null;
  message: string;
  additional_context: string | null;
  screenshot_file: string | null;
  page: string | null;
  created_at: string;
}
