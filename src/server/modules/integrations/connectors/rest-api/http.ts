/**
 * One JSON GET against the configured API, with authentication applied and retries: 429 and 5xx
 * answers and network failures are retried with exponential back-off (a Retry-After header wins),
 * up to `maxTries`; then the request fails with a TransientError so the runner may try again
 * later. Other 4xx answers are the configuration's fault (ConfigError), never retried; so is an
 * address the outbound policy refuses (also when a redirect or a next-page link leads there).
 *
 * Errors name the URL (without its query, which may carry an API key), the status with its
 * standard reason phrase, or the kind of network failure: never the answer's body or the remote's
 * own reason text, so the connector cannot be used to read what an address answers.
 */
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseJsonExact } from '../../../../exact-values/json';
import { guardedGet, OutboundHttpError } from '../../../../net/guarded-get';
import type { OutboundPolicy } from '../../../../net/outbound-policy';
import { ConnectorError, type ConnectorContext } from '../types';
import type { RestApiConfig } from './spec';

/** A Retry-After longer than this is cut: a sync should fail and be retried later instead. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;
/** The largest (decoded) answer read; one page of even 100k+ records stays well below it. */
export const MAX_ANSWER_BYTES = 256 * 1_048_576;

/** What the REST connector's HTTP calls need besides the attempt's context. */
export interface RestContext extends ConnectorContext {
  network: OutboundPolicy;
}

export interface JsonResponse {
  body: unknown;
  headers: Headers;
}

/**
 * The authentication of a request to `url`, sent only to the base URL's own origin: a redirect or
 * a next-page link to another host gets no credentials. A query API key is added to `url`.
 */
export function authFor(config: RestApiConfig, url: URL): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (url.origin !== new URL(config.baseUrl).origin) return headers;
  const auth = config.auth;
  if (auth.type === 'api_key' && auth.in === 'header') headers[auth.name] = auth.value;
  if (auth.type === 'bearer') headers.authorization = `Bearer ${auth.token}`;
  if (auth.type === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
  }
  return headers;
}

export function withQueryKey(config: RestApiConfig, url: URL): URL {
  const auth = config.auth;
  if (auth.type !== 'api_key' || auth.in !== 'query' || url.origin !== new URL(config.baseUrl).origin) return url;
  const keyed = new URL(url);
  keyed.searchParams.set(auth.name, auth.value);
  return keyed;
}

/** Milliseconds from a Retry-After header (seconds or an HTTP date), or null when absent/unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

function backoffMs(config: RestApiConfig, failedTries: number): number {
  const base = config.backoffBaseMs * 2 ** (failedTries - 1);
  return base + Math.random() * base * 0.2; // jitter keeps many clients from retrying in step
}

/** The URL as it may appear in logs and errors: no query string (it may carry an API key). */
export function describe(url: URL): string {
  const text = `${url.origin}${url.pathname}`;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** `HTTP 404 Not Found`: the status and its standard phrase, not the one the remote sent. */
function statusText(status: number): string {
  const phrase = STATUS_CODES[status];
  return phrase ? `HTTP ${status} ${phrase}` : `HTTP ${status}`;
}

/** Failures no retry can mend: the policy, redirects, oversized answers, TLS. */
const FINAL_KINDS = new Set(['policy', 'redirect', 'too-large', 'tls']);

export async function getJson(config: RestApiConfig, url: URL, ctx: RestContext): Promise<JsonResponse> {
  let lastProblem = '';
  for (let tries = 1; ; tries++) {
    ctx.signal.throwIfAborted();
    let waitMs: number;
    try {
      const response = await guardedGet(withQueryKey(config, url), {
        policy: ctx.network,
        headersFor: (hop) => authFor(config, hop),
        signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(config.timeoutMs)]),
        maxBytes: MAX_ANSWER_BYTES,
      });
      const where = describe(response.url);
      if (response.status >= 200 && response.status < 300) {
        const text = response.body.toString('utf8');
        try {
          // Numbers exactly as sent: a 19-digit id or a 20-digit decimal must not pass through a double.
          return { body: text.trim() === '' ? null : parseJsonExact(text), headers: response.headers };
        } catch {
          throw new ConnectorError(`The answer of ${where} is not JSON`, 'ConfigError');
        }
      }
      if (response.status !== 429 && response.status < 500) {
        const what =
          response.status === 401 || response.status === 403
            ? 'Authentication failed'
            : response.status === 404
              ? 'Not found'
              : 'Request refused';
        const refusedCredentials = response.status === 401 || response.status === 403;
        throw new ConnectorError(
          `${what} (${statusText(response.status)}) at ${where}`,
          'ConfigError',
          refusedCredentials,
        );
      }
      lastProblem = statusText(response.status);
      waitMs = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(config, tries);
    } catch (error) {
      if (error instanceof ConnectorError) throw error;
      if (ctx.signal.aborted || !(error instanceof OutboundHttpError)) throw error;
      if (FINAL_KINDS.has(error.kind)) throw new ConnectorError(error.message, 'ConfigError');
      lastProblem = error.message;
      waitMs = backoffMs(config, tries);
    }
    if (tries >= config.maxTries) {
      throw new ConnectorError(
        `${describe(url)} failed after ${tries} ${tries === 1 ? 'try' : 'tries'} (${lastProblem})`,
        'TransientError',
      );
    }
    ctx.log(
      'WARN',
      `${describe(url)}: ${lastProblem}; retrying in ${Math.round(waitMs)} ms (try ${tries + 1} of ${config.maxTries})`,
    );
    await sleep(waitMs, undefined, { signal: ctx.signal });
  }
}
