import { HttpError } from '../../lib/error-message';

export interface Upload<T> {
  /** The server's JSON answer; rejects with an HttpError (its message is the server's) or a network error. */
  done: Promise<T>;
  abort: () => void;
}

/**
 * Sends one file as multipart/form-data (part `file`) with XMLHttpRequest, whose upload events say
 * how much of the body has been sent: `onProgress` gets 0..1, then `onSent` once the whole file is
 * with the server (which is then importing it).
 */
export function uploadWithProgress<T>(
  url: string,
  method: 'PUT' | 'POST',
  file: File,
  on: { onProgress: (fraction: number) => void; onSent: () => void },
): Upload<T> {
  const xhr = new XMLHttpRequest();
  const done = new Promise<T>((resolve, reject) => {
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) on.onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => on.onSent();
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        // Not JSON: keep the text so the error can still show it.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new HttpError(xhr.status, url, body));
    };
    xhr.onerror = () => reject(new Error('The upload failed: the server could not be reached.'));
    xhr.onabort = () => reject(new Error('The upload was cancelled.'));
    const form = new FormData();
    form.set('file', file);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}
