/**
 * A Content-Disposition for a download: a plain ASCII `filename` for old clients and the exact name
 * as RFC 5987 `filename*`. Quotes and control characters never reach the header.
 */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
