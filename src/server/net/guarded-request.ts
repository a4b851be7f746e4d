/**
 * One HTTP(S) request of any method under the outbound policy, for automation HTTP steps. As in
 * guarded-get.ts the host is resolved through the policy once and only the addresses it allowed are
 * dialled (pinned in the socket's lookup). Redirects are never followed: a POST must not be replayed
 * at another address, and a 3xx is answered to the caller as it is. At most `keepBytes` of the
 * body are read (the rest is discarded with the connection), so a large answer costs no memory.
 * Each request has its own connection (no keep-alive pool).
 * Failures are OutboundHttpErrors in our own words (host and kind), never what the remote sent.
 */
import http from 'node:http';
import https from 'node:https';
import { errorCode, networkFailure } from './network-failures';
import { headersOf, OutboundHttpError, pinnedLookup, whereOf } from './guarded-get';
import { bareHost, type OutboundPolicy } from './outbound-policy';

export interface GuardedRequestOptions {
  policy: OutboundPolicy;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
  /** Cancels the request; when its reason is a TimeoutError the failure is reported as a timeout. */
  signal: AbortSignal;
  /** The body is read up to this many bytes; `truncated` says when there was more. */
  keepBytes: number;
}

export interface GuardedRequestResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  truncated: boolean;
}

function translate(error: unknown, where: string, signal: AbortSignal): Error {
  if (error instanceof OutboundHttpError) return error;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof Error && reason.name === 'TimeoutError') {
      return new OutboundHttpError(`Timed out waiting for ${where}`, 'timeout');
    }
    return reason instanceof Error ? reason : new Error('Cancelled');
  }
  const failure = networkFailure(error, where);
  if (failure) return new OutboundHttpError(failure.message, failure.kind);
  const code = errorCode(error) ?? '';
  if (code.startsWith('HPE_')) return new OutboundHttpError(`The answer of ${where} is not valid HTTP`, 'bad-answer');
  return new OutboundHttpError(
    `The request to ${where} failed${/^[A-Z][A-Z0-9_]*$/.test(code) ? ` (${code})` : ''}`,
    'failed',
  );
}

async function readSome(
  response: http.IncomingMessage,
  keepBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > keepBytes) {
      response.destroy(); // the rest is not wanted: the connection goes rather than reading it
      return { body: Buffer.concat(chunks).subarray(0, keepBytes), truncated: true };
    }
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

export async function guardedRequest(url: URL, options: GuardedRequestOptions): Promise<GuardedRequestResponse> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundHttpError(`Only http and https addresses are requested, not ${url.protocol}`, 'redirect');
  }
  const where = whereOf(url);
  try {
    const host = bareHost(url.hostname);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const addresses = await options.policy.resolve(host, { port, signal: options.signal });
    const secure = url.protocol === 'https:';
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = (secure ? https : http).request(
        {
          protocol: url.protocol,
          hostname: host,
          port,
          path: `${url.pathname}${url.search}`,
          method: options.method,
          headers: {
            ...options.headers,
            ...(options.body ? { 'content-length': String(options.body.length) } : {}),
          },
          lookup: pinnedLookup(addresses),
          // A connection of its own: a pooled socket the peer has since closed would fail a POST
          // that cannot be replayed blindly (a connect to the local peers costs well under 1 ms).
          agent: false,
          signal: options.signal,
        },
        resolve,
      );
      request.once('error', reject);
      request.end(options.body ?? undefined);
    });
    const { body, truncated } = await readSome(response, options.keepBytes);
    return { status: response.statusCode ?? 0, headers: headersOf(response), body, truncated };
  } catch (error) {
    throw translate(error, where, options.signal);
  }
}
