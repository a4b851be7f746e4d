/**
 * HTTP request: one request to a REST API integration's base URL with its credentials, under the
 * server's outbound policy (net/guarded-request.ts; redirects are not followed).
 *
 * Every request carries `Idempotency-Key: <run:step:attempt>`. The effect is recorded through
 * env.once, so a resumed step whose request finished reuses the saved answer. A Started without
 * Done (the server died while the request was in flight) is sent AGAIN with the same key: the
 * receiver deduplicates by that key, so the repeat is safe, and not sending it could lose the
 * call altogether. That choice is logged as a WARN.
 *
 * Failures: 5xx, 429, timeouts and dropped or refused connections are TransientErrors (retried);
 * other 4xx answers are ConfigErrors (401/403 say the credentials were refused); so are addresses
 * the policy refuses and absolute URLs to another host. Errors name the URL without its query
 * and the status with its standard phrase, never the answer's body.
 */
import { STATUS_CODES } from 'node:http';
import type { InputOption, InputValue, StepPreview } from '../../../../shared/automations';
import { SECRET_MASK } from '../../../../shared/integrations';
import { parseJsonExact } from '../../../exact-values/json';
import { OutboundHttpError } from '../../../net/guarded-get';
import { guardedRequest } from '../../../net/guarded-request';
import type { OutboundPolicy } from '../../../net/outbound-policy';
import { authFor, describe, withQueryKey } from '../../integrations/connectors/rest-api/http';
import { parseRestApiConfig, type RestApiConfig } from '../../integrations/connectors/rest-api/spec';
import type { ConnectorConfig } from '../../integrations/connectors/types';
import { forgetStarted } from '../side-effects';
import { configError, StepError, transientError } from '../step-errors';
import type { ResolvedStep, StepEnv, StepKindDefinition, StepRunEnv } from '../step-kind';
import { connectionFor, keyValueInput, numberInput, textInput } from './step-inputs';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** The answer's body kept in the step's output (outputs are small values). */
export const KEPT_BODY_BYTES = 10 * 1024;
/** Answer headers kept in the output. */
const KEPT_HEADERS = ['content-type', 'content-length', 'location', 'etag', 'last-modified', 'retry-after'];
/** Request headers the step sets itself. */
const OWN_HEADERS = new Set(['idempotency-key', 'host', 'content-length', 'connection', 'transfer-encoding']);
const WHAT = 'a REST API integration';

/** A request as it will be sent (and, masked, as a preview shows it). */
export interface PlannedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Buffer | null;
  /** Header names whose values are secret (the integration's credentials, Secret headers). */
  secretHeaders: Set<string>;
  timeoutMs: number;
}

/** The integration's REST settings; its streams do not matter to a single request. */
function restSettings(config: ConnectorConfig): RestApiConfig {
  return parseRestApiConfig({ ...config, streams: [{ name: 'request', path: '/' }] });
}

/** The path joined to the base URL; an absolute URL only when it is on the base URL's own origin. */
export function requestUrl(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) {
    let absolute: URL;
    try {
      absolute = new URL(path, base);
    } catch {
      throw configError(`The path '${path}' is not a URL.`);
    }
    if (absolute.origin !== base.origin)
      throw configError(
        `The path must be relative to the integration's base URL (${base.origin}), not an address on another host.`,
      );
    return absolute;
  }
  const root = base.href.replace(/\/+$/, '');
  const rest = path.replace(/^\/+/, '');
  try {
    return new URL(rest === '' ? root : `${root}/${rest}`);
  } catch {
    throw configError(`The path '${path}' does not make a URL with the base URL.`);
  }
}

function bodyOf(method: string, value: InputValue | undefined): Buffer | null {
  if (value === undefined || value === null || value === '') return null;
  if (method === 'GET') throw configError('A GET request has no body: clear the body or choose another method.');
  if (typeof value === 'string') {
    try {
      // Numbers exactly as written: an id of 19 digits must not pass through a double.
      parseJsonExact(value);
    } catch {
      throw configError('The body is not JSON.');
    }
    return Buffer.from(value, 'utf8');
  }
  return Buffer.from(JSON.stringify(value), 'utf8');
}

export function planRequest(config: ConnectorConfig, step: ResolvedStep, idempotencyKey: string): PlannedRequest {
  const settings = restSettings(config);
  const method = (textInput(step.inputs, 'method') || 'GET').toUpperCase();
  if (!(HTTP_METHODS as readonly string[]).includes(method))
    throw configError(`Method must be one of ${HTTP_METHODS.join(', ')}.`);
  const url = withQueryKey(settings, requestUrl(settings.baseUrl, textInput(step.inputs, 'path')));
  const body = bodyOf(method, step.inputs.body);
  const headers: Record<string, string> = {};
  const secretHeaders = new Set<string>();
  const add = (pairs: [string, string][], secret: boolean) => {
    for (const [name, value] of pairs) {
      const lower = name.toLowerCase();
      if (OWN_HEADERS.has(lower)) continue;
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw configError(`'${name}' is not a header name.`);
      if (/[\r\n\0]/.test(value)) throw configError(`The value of header '${name}' holds a line break.`);
      headers[lower] = value;
      if (secret) secretHeaders.add(lower);
    }
  };
  add(keyValueInput(step.inputs, 'headers'), false);
  add(keyValueInput(step.inputs, 'secretHeaders'), true);
  if (body && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  // The integration's credentials last: a typed header cannot replace them.
  for (const [name, value] of Object.entries(authFor(settings, url))) {
    const lower = name.toLowerCase();
    if (lower === 'accept' && headers.accept !== undefined) continue;
    headers[lower] = value;
    if (lower !== 'accept') secretHeaders.add(lower);
  }
  headers['idempotency-key'] = idempotencyKey;
  return { method, url, headers, body, secretHeaders, timeoutMs: settings.timeoutMs };
}

/** The URL as shown: a query API key masked. */
function shownUrl(request: PlannedRequest, config: ConnectorConfig): string {
  const settings = restSettings(config);
  const url = new URL(request.url);
  if (settings.auth.type === 'api_key' && settings.auth.in === 'query' && url.searchParams.has(settings.auth.name))
    url.searchParams.set(settings.auth.name, SECRET_MASK);
  return url.href.replace(encodeURIComponent(SECRET_MASK), SECRET_MASK);
}

function maskedHeaders(request: PlannedRequest): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k, request.secretHeaders.has(k) ? SECRET_MASK : v]),
  );
}

const statusText = (status: number) => `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

/** A failure of the request in its retry class. */
function requestFailure(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return error; // cancelled or timed out by the runner: it says which
  if (!(error instanceof OutboundHttpError)) return error;
  switch (error.kind) {
    case 'policy':
    case 'redirect':
    case 'tls':
      return configError(error.message);
    case 'dns':
      return /EAI_AGAIN|ETIMEOUT/.test(error.message) ? transientError(error.message) : configError(error.message);
    default:
      return transientError(error.message);
  }
}

/** The answer's body as the output keeps it: parsed JSON when it is JSON and whole, else text. */
function keptBody(body: Buffer, truncated: boolean, contentType: string): InputValue {
  const text = body.toString('utf8');
  if (!truncated && /json/i.test(contentType) && text.trim() !== '') {
    try {
      return JSON.parse(text) as InputValue;
    } catch {
      return text;
    }
  }
  return text;
}

async function send(
  env: StepRunEnv,
  network: OutboundPolicy,
  request: PlannedRequest,
  expected: number | null,
): Promise<Record<string, InputValue>> {
  const where = `${request.method} ${describe(request.url)}`;
  const started = performance.now();
  let response;
  try {
    response = await guardedRequest(request.url, {
      policy: network,
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.any([env.signal, AbortSignal.timeout(request.timeoutMs)]),
      keepBytes: KEPT_BODY_BYTES,
    });
  } catch (error) {
    throw requestFailure(error, env.signal);
  }
  const ms = Math.round(performance.now() - started);
  const status = response.status;
  await env.log('INFO', `${where}: ${statusText(status)} in ${ms} ms`);
  if (status >= 500 || status === 429) throw transientError(`${where} answered ${statusText(status)}`);
  if (status === 401 || status === 403)
    throw configError(`${where} refused the integration's credentials (${statusText(status)})`);
  if (expected !== null ? status !== expected : status < 200 || status >= 300)
    throw new StepError(
      'ConfigError',
      `${where} answered ${statusText(status)}${expected !== null ? `, expected ${expected}` : ''}`,
    );
  const contentType = response.headers.get('content-type') ?? '';
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value.slice(0, 500);
  }
  return {
    status,
    ok: status >= 200 && status < 300,
    url: describe(request.url),
    headers,
    body: keptBody(response.body, response.truncated, contentType),
    truncated: response.truncated,
  };
}

async function plan(env: StepEnv, step: ResolvedStep, key: string) {
  const connection = await connectionFor(env, step.integrationId, ['rest-api'], WHAT);
  let request: PlannedRequest;
  try {
    request = planRequest(connection.config, step, key);
  } catch (error) {
    // The connector's own configuration errors (a bad base URL) are the user's to fix too.
    if (error instanceof StepError) throw error;
    throw configError(error instanceof Error ? error.message : String(error));
  }
  return { connection, request };
}

export const httpRequestStep: StepKindDefinition = {
  kind: 'HttpRequest',
  label: 'HTTP request',
  description:
    "Sends one request to a REST API integration's base URL with its credentials; the receiver can deduplicate by the Idempotency-Key header.",
  integrationConnectors: ['rest-api'],
  inputs: [
    { name: 'method', label: 'Method', type: 'select', required: true, default: 'POST' },
    {
      name: 'path',
      label: 'Path',
      description: "Relative to the integration's base URL, e.g. /v1/orders/{{trigger.syncRunId}}",
      type: 'template',
      required: true,
    },
    { name: 'headers', label: 'Headers', type: 'keyValue', required: false },
    {
      name: 'secretHeaders',
      label: 'Secret headers',
      description: 'Sent like headers, shown masked in run inputs and previews',
      type: 'keyValue',
      required: false,
    },
    {
      name: 'body',
      label: 'Body (JSON)',
      type: 'json',
      required: false,
      showWhen: { input: 'method', equals: ['POST', 'PUT', 'PATCH', 'DELETE'] },
    },
    {
      name: 'expectedStatus',
      label: 'Expected status',
      description: 'Any other status fails the step; empty accepts any 2xx',
      type: 'number',
      required: false,
    },
  ],
  outputs: [
    { name: 'status', label: 'Status code' },
    { name: 'body', label: 'Answer body (JSON, or the first 10 KB of text)' },
    { name: 'headers', label: 'Answer headers' },
  ],
  sideEffects: true,
  secretInputs: ['secretHeaders'],

  inputOptions() {
    const methods: InputOption[] = HTTP_METHODS.map((m) => ({ value: m, label: m }));
    return Promise.resolve({ method: methods });
  },

  validate(step) {
    if (!step.integrationId) return `Choose ${WHAT}.`;
    const method = typeof step.inputs.method === 'string' ? step.inputs.method.toUpperCase() : 'POST';
    if (!(HTTP_METHODS as readonly string[]).includes(method))
      return `Method must be one of ${HTTP_METHODS.join(', ')}.`;
    const path = step.inputs.path;
    if (typeof path !== 'string' || path.trim() === '') return 'Path is required.';
    const expected = step.inputs.expectedStatus;
    if (expected !== undefined && expected !== null && expected !== '') {
      const n = Number(expected);
      if (!Number.isInteger(n) || n < 100 || n > 599) return 'Expected status must be an HTTP status (100 to 599).';
    }
    const body = step.inputs.body;
    if (typeof body === 'string' && body.trim() !== '' && !body.includes('{{')) {
      try {
        parseJsonExact(body);
      } catch {
        return 'The body is not JSON.';
      }
    }
    return null;
  },

  async preview(env, step): Promise<StepPreview> {
    const { connection, request } = await plan(env, step, '<run:step:attempt>');
    const body = request.body?.toString('utf8') ?? null;
    return {
      summary: `${request.method} ${shownUrl(request, connection.config)} (${connection.name})`,
      details: {
        method: request.method,
        url: shownUrl(request, connection.config),
        headers: maskedHeaders(request),
        body: body === null ? null : body.length > KEPT_BODY_BYTES ? `${body.slice(0, KEPT_BODY_BYTES)}…` : body,
      },
    };
  },

  async run(env, step) {
    const { connection, request } = await plan(env, step, env.idempotencyKey);
    const expected = numberInput(step.inputs, 'expectedStatus');
    const effect = () => send(env, connection.network, request, expected);
    const key = `${env.idempotencyKey}:http`;
    let result = await env.once(key, effect);
    if (!result.done) {
      await env.log(
        'WARN',
        `The server stopped while this request was in flight; it is sent again with the same Idempotency-Key (${env.idempotencyKey}), which the receiver deduplicates.`,
      );
      await forgetStarted(env.deps.db, key);
      result = await env.once(key, effect);
      if (!result.done) throw transientError('The request is being sent by another worker; try again.');
    } else if (result.repeated) {
      await env.log('INFO', 'This request was sent before the server restarted; its answer is reused.');
    }
    return result.result;
  },
};
