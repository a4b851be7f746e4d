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

function serverMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : text;
  } catch {
    return text;
  }
}

/**
 * Sends an error report as the spec's multipart form (Message, Screenshot, AdditionalContext).
 * Failure raises 'Failed to report error: {status} {text}'. Reports need a signed-in user: a
 * signed-out page gets a 401, which the report buttons show as 'sign in to report'.
 */
export async function sendErrorReport(report: ErrorReport): Promise<void> {
  const form = new FormData();
  form.set('Message', report.message);
  form.set('AdditionalContext', contextOf(report.error));
  const screenshot = await captureScreenshot();
  if (screenshot) form.set('Screenshot', screenshot, 'screenshot.png');
  const response = await fetch('/api/error-reports', { method: 'POST', body: form, credentials: 'same-origin' });
  if (!response.ok) {
    // The server answers `{ message }` (e.g. 'Sign in to send a report.', or how long to wait after
    // too many reports); the raw text stands in when it does not.
    const text = await response.text().catch(() => '');
    throw new HttpError(response.status, '/api/error-reports', {
      message: `Failed to report error: ${response.status} ${serverMessage(text)}`,
    });
  }
}
