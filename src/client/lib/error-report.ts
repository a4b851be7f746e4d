import { HttpError } from './error-message';

export interface ErrorReport {
  message: string;
  error?: unknown;
}

/** A PNG of the page, or null when capture fails: the report is still sent without it. */
async function captureScreenshot(): Promise<Blob | null> {
  try {
    const { domToBlob } = await import('modern-screenshot');
    const blob = await domToBlob(document.body, { type: 'image/png', scale: 1 });
    return blob && blob.size > 0 ? blob : null;
  } catch {
    return null;
  }
}

function contextOf(error: unknown): string {
  const stack = error instanceof Error ? error.stack : error === undefined ? undefined : String(error);
  return JSON.stringify({
    url: window.location.href,
    userAgent: navigator.userAgent,
    at: new Date().toISOString(),
    stack,
  });
}

/**
 * Sends an error report as the spec's multipart form (Message, Screenshot, AdditionalContext).
 * Failure raises 'Failed to report error: {status} {text}'.
 */
export async function sendErrorReport(report: ErrorReport): Promise<void> {
  const form = new FormData();
  form.set('Message', report.message);
  form.set('AdditionalContext', contextOf(report.error));
  const screenshot = await captureScreenshot();
  if (screenshot) form.set('Screenshot', screenshot, 'screenshot.png');
  const response = await fetch('/api/error-reports', { method: 'POST', body: form, credentials: 'same-origin' });
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new HttpError(response.status, '/api/error-reports', {
      message: `Failed to report error: ${response.status} ${text}`,
    });
  }
}
