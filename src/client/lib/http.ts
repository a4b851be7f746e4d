import { HttpError } from './error-message';

/**
 * The REST helper: same-origin credentials, JSON in and out; a non-OK response raises an
 * HttpError with status and body. Used where tRPC does not fit (multipart uploads).
 */
export async function http<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.body !== undefined && !(init.body instanceof FormData) && !headers.has('content-type')) {
    headers.set('content-type', 'application/json');
  }
  const response = await fetch(url, { ...init, headers, credentials: 'same-origin' });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text so the error can still show it.
  }
  if (!response.ok) throw new HttpError(response.status, url, body);
  return body as T;
}
