/**
 * An HTTP(S) GET under the outbound policy. Every hop (the first request and each redirect) resolves
 * its host through the policy and dials only the addresses it allowed (pinned in the socket's
 * lookup; an IP literal is dialled as the address the policy checked), so neither a redirect nor a
 * DNS answer that changes after the check reaches a refused address. Redirects are followed by hand
 * (at most MAX_REDIRECTS, http and https only) with headers chosen per URL, so credentials can stay
 * with their own origin. Only a 2xx answer's body is read, decoded and size-bounded; other bodies
 * are never read. Failures are OutboundHttpErrors whose words name the host and the kind of
 * failure, never what the remote sent.
 */
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { errorCode, networkFailure, type NetworkFailureKind } from './network-failures';
import { bareHost, hostAndPort, type OutboundPolicy } from './outbound-policy';

export const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export type HttpFailureKind = NetworkFailureKind | 'redirect' | 'too-large' | 'bad-answer' | 'failed';

export class OutboundHttpError extends Error {
  constructor(
    message: string,
    readonly kind: HttpFailureKind,
  ) {
    super(message);
    this.name = 'OutboundHttpError';
  }
}

export interface GuardedGetOptions {
  policy: OutboundPolicy;
  /** Request headers for a URL; asked again on every hop. */
  headersFor(url: URL): Record<string, string>;
  /** Cancels the request; when its reason is a TimeoutError the failure is reported as a timeout. */
  signal: AbortSignal;
  /** The decoded body of a 2xx answer may not be larger. */
  maxBytes: number;
}

export interface GuardedResponse {
  /** The URL that answered, after redirects. */
  url: URL;
  status: number;
  headers: Headers;
  /** The body of a 2xx answer; empty for any other status (never read). */
  body: Buffer;
}

/** `host:port` of a URL, port always named. */
export function whereOf(url: URL): string {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return hostAndPort(bareHost(url.hostname), port);
}

export const pinnedLookup =
  (addresses: LookupAddress[]): LookupFunction =>
  (_hostname, options, callback) => {
    const first = addresses[0] as LookupAddress; // resolve() never returns an empty list
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };

/**
 * Keep-alive agents per policy, so paged reads reuse their connections (no new TCP and TLS
 * handshake per page). Every pooled socket was dialled through that policy's checked addresses,
 * so reusing one never reaches an address the policy would refuse.
 */
const agents = new WeakMap<OutboundPolicy, { http: http.Agent; https: https.Agent }>();
function agentsOf(policy: OutboundPolicy): { http: http.Agent; https: https.Agent } {
  let pair = agents.get(policy);
  if (!pair) {
    const options = { keepAlive: true, maxSockets: 16, timeout: 60_000 };
    pair = { http: new http.Agent(options), https: new https.Agent(options) };
    agents.set(policy, pair);
  }
  return pair;
}

async function send(url: URL, options: GuardedGetOptions): Promise<http.IncomingMessage> {
  const host = bareHost(url.hostname);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const addresses = await options.policy.resolve(host, { port, signal: options.signal });
  const secure = url.protocol === 'https:';
  const client = secure ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        protocol: url.protocol,
        hostname: host,
        port,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: { 'accept-encoding': 'gzip, deflate, br', ...options.headersFor(url) },
        lookup: pinnedLookup(addresses),
        agent: secure ? agentsOf(options.policy).https : agentsOf(options.policy).http,
        signal: options.signal,
      },
      resolve,
    );
    request.once('error', reject);
    request.end();
  });
}

function decoderFor(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

async function readBody(response: http.IncomingMessage, maxBytes: number, where: string): Promise<Buffer> {
  const decoder = decoderFor(response.headers['content-encoding']);
  let source: Readable = response;
  if (decoder) {
    response.once('error', (error) => decoder.destroy(error));
    source = response.pipe(decoder);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw new OutboundHttpError(
        `The answer of ${where} is larger than ${Math.round(maxBytes / 1_048_576)} MB`,
        'too-large',
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function headersOf(response: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) {
      try {
        headers.append(name, one);
      } catch {
        // A header value Headers will not hold is dropped; none of the ones read here.
      }
    }
  }
  return headers;
}

/** The error in our own words: the kind and the host, nothing the remote sent. */
function translate(error: unknown, where: string, signal: AbortSignal): Error {
  if (error instanceof OutboundHttpError) return error;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof Error && reason.name === 'TimeoutError') {
      return new OutboundHttpError(`Timed out waiting for ${where}`, 'timeout');
    }
    return error instanceof Error ? error : new Error(String(error)); // cancelled: the caller's own abort
  }
  const failure = networkFailure(error, where);
  if (failure) return new OutboundHttpError(failure.message, failure.kind);
  const code = errorCode(error) ?? '';
  if (code.startsWith('HPE_')) return new OutboundHttpError(`The answer of ${where} is not valid HTTP`, 'bad-answer');
  if (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR__')) {
    return new OutboundHttpError(`The answer of ${where} could not be decompressed`, 'bad-answer');
  }
  return new OutboundHttpError(
    `The request to ${where} failed${/^[A-Z][A-Z0-9_]*$/.test(code) ? ` (${code})` : ''}`,
    'failed',
  );
}

export async function guardedGet(start: URL, options: GuardedGetOptions): Promise<GuardedResponse> {
  if (start.protocol !== 'http:' && start.protocol !== 'https:') {
    // e.g. a next-page link to file: or ftp: (redirects are checked where they are followed)
    throw new OutboundHttpError(`Only http and https addresses are fetched, not ${start.protocol}`, 'redirect');
  }
  let url = start;
  for (let hops = 0; ; hops++) {
    const where = whereOf(url);
    try {
      const response = await send(url, options);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        response.destroy();
        if (hops >= MAX_REDIRECTS) {
          throw new OutboundHttpError(`${where} redirected more than ${MAX_REDIRECTS} times`, 'redirect');
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new OutboundHttpError(`${where} redirected to an address that is not a URL`, 'redirect');
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new OutboundHttpError(`${where} redirected to an address that is not http(s)`, 'redirect');
        }
        url = next;
        continue;
      }
      const ok = status >= 200 && status < 300;
      if (!ok) response.destroy();
      const body = ok ? await readBody(response, options.maxBytes, where) : Buffer.alloc(0);
      return { url, status, headers: headersOf(response), body };
    } catch (error) {
      throw translate(error, where, options.signal);
    }
  }
}
