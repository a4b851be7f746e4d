/**
 * One JSON GET against the configured API, with authentication applied and retries: 429 and 5xx
 * answers and network failures are retried with exponential back-off (a Retry-After header wins),
 * up to `maxTries`; then the request fails with a TransientError so the runner may try again
 * later. Other 4xx answers are the configuration's fault (ConfigError), never retried.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectorError, type ConnectorContext } from '../types';
import type { RestApiConfig } from './spec';

/** A Retry-After longer than this is cut: a sync should fail and be retried later instead. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

export interface JsonResponse {
  body: unknown;
  headers: Headers;
}

/** Adds the authentication to a request; the URL is changed in place for query API keys. */
function authHeaders(config: RestApiConfig, url: URL): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const auth = config.auth;
  if (auth.type === 'api_key' && auth.in === 'header') headers[auth.name] = auth.value;
  if (auth.type === 'api_key' && auth.in === 'query') url.searchParams.set(auth.name, auth.value);
  if (auth.type === 'bearer') headers.authorization = `Bearer ${auth.token}`;
  if (auth.type === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
  }
  return headers;
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
function describe(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

export async function getJson(config: RestApiConfig, url: URL, ctx: ConnectorContext): Promise<JsonResponse> {
  const headers = authHeaders(config, url);
  let lastProblem = '';
  for (let tries = 1; ; tries++) {
    ctx.signal.throwIfAborted();
    let waitMs: number;
    try {
      const response = await fetch(url, {
        headers,
        signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(config.timeoutMs)]),
      });
      if (response.ok) {
        const text = await response.text();
        try {
          return { body: text === '' ? null : JSON.parse(text), headers: response.headers };
        } catch {
          throw new ConnectorError(`The answer of ${describe(url)} is not JSON`, 'ConfigError');
        }
      }
      const snippet = (await response.text().catch(() => '')).slice(0, 200);
      if (response.status !== 429 && response.status < 500) {
        const what =
          response.status === 401 || response.status === 403
            ? 'Authentication failed'
            : response.status === 404
              ? 'Not found'
              : 'Request refused';
        const detail = snippet ? `: ${snippet}` : '';
        throw new ConnectorError(`${what} (HTTP ${response.status}) at ${describe(url)}${detail}`, 'ConfigError');
      }
      lastProblem = `HTTP ${response.status}`;
      waitMs = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(config, tries);
    } catch (error) {
      if (error instanceof ConnectorError) throw error;
      if (ctx.signal.aborted) throw error;
      lastProblem =
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
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
