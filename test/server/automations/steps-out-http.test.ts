/**
 * The HTTP request step against a real local HTTP API: what it sends (Idempotency-Key, the
 * integration's credentials, headers, JSON body), what it keeps, how its failures are classed,
 * that a crash-resumed attempt does not send twice (or sends again with the same key when the
 * first send's fate is unknown), and that cancelling aborts a slow request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../../src/shared/integrations';
import { classifyStepError } from '../../../src/server/modules/automations/step-errors';
import { makeApp, signIn, type TestApp } from '../helpers';
import { ok } from '../static-tables/helpers';
import { createIntegration, definitionNamed } from '../integrations/helpers';
import { startApi, type ApiPeer, type Handler } from '../integrations/peers/http-api';
import { kindOf, leaveStarted, sideEffects, stepHarness } from './steps-out-helpers';

const TOKEN = 'the-api-token';
const OWNER = 'owner@example.com';

let peer: ApiPeer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

async function setUp(routes: Record<string, Handler>, settings: Record<string, unknown> = {}) {
  peer = await startApi({ '/v1/ping': () => ({ body: [{ id: 1 }] }), ...routes });
  const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
  const cookie = await signIn(t, OWNER);
  const definition = await definitionNamed(t, cookie, 'REST API');
  const integration = ok(
    await createIntegration(t, cookie, {
      integrationDefinitionId: definition.id,
      name: 'Hooks',
      schemaName: 'hooks',
      configuration: {
        base_url: `${peer.baseUrl}/v1`,
        streams: [{ name: 'ping', path: '/ping' }],
        authentication: { type: 'bearer', token: TOKEN },
        max_tries: 1,
        ...settings,
      },
    }),
    201,
  );
  await t.services.integrations.idle();
  const harness = await stepHarness(t, OWNER);
  return { t, harness, integrationId: integration.id, peer };
}

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return classifyStepError(error);
  }
  throw new Error('The step did not fail');
}

const http = kindOf('HttpRequest');

describe('HTTP request step', () => {
  it('sends the request with the Idempotency-Key and the credentials, and keeps a small answer', async () => {
    const { harness, integrationId, peer } = await setUp({
      '/v1/hooks/42': () => ({ status: 201, body: { received: true, id: 7 }, headers: { etag: '"v1"' } }),
    });
    const step = harness.step(
      'HttpRequest',
      {
        method: 'POST',
        path: '/hooks/42',
        headers: { 'X-Source': 'automation' },
        secretHeaders: [{ key: 'X-Signature', value: 'sig-secret' }],
        body: { rows: 12, note: 'ok' },
        expectedStatus: 201,
      },
      integrationId,
    );
    expect(http.validate(step)).toBeNull();

    // The preview shows the request with secrets masked and sends nothing.
    const preview = await http.preview(harness.previewEnv, step);
    expect(preview.summary).toBe(`POST ${peer.baseUrl}/v1/hooks/42 (Hooks)`);
    const headers = preview.details?.headers as Record<string, string>;
    expect(headers.authorization).toBe(SECRET_MASK);
    expect(headers['x-signature']).toBe(SECRET_MASK);
    expect(headers['x-source']).toBe('automation');
    expect(JSON.stringify(preview)).not.toContain(TOKEN);
    expect(JSON.stringify(preview)).not.toContain('sig-secret');
    expect(peer.seen('/v1/hooks/42')).toHaveLength(0);
    expect(http.secretInputs).toContain('secretHeaders');

    const env = harness.env();
    const output = await http.run(env, step);
    expect(output).toMatchObject({
      status: 201,
      body: { received: true, id: 7 },
      headers: { etag: '"v1"', 'content-type': 'application/json' },
      truncated: false,
    });
    const [sent] = peer.seen('/v1/hooks/42');
    expect(sent?.method).toBe('POST');
    expect(sent?.headers['idempotency-key']).toBe(env.idempotencyKey);
    expect(sent?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent?.headers['x-signature']).toBe('sig-secret');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent?.body ?? '')).toEqual({ rows: 12, note: 'ok' });
    expect(env.logs.some((l) => l.includes('HTTP 201 Created'))).toBe(true);
  });

  it('a crash-resumed attempt never sends twice; an unknown send is repeated with the same key', async () => {
    const keys = new Map<string, number>();
    const { t, harness, integrationId, peer } = await setUp({
      '/v1/count': (_q, req) => {
        const key = String(req.headers['idempotency-key']);
        const seen = keys.get(key) ?? 0;
        keys.set(key, seen + 1);
        // The receiver deduplicates: a repeated key gets the first answer, no second effect.
        return { body: { first: seen === 0 } };
      },
    });
    const step = harness.step('HttpRequest', { method: 'POST', path: 'count', body: '{"n": 1}' }, integrationId);

    // Attempt 1 finished; the server died before the runner saved the output: the step runs again.
    const first = await http.run(harness.env({ attempt: 1 }), step);
    const resumed = harness.env({ attempt: 1 });
    expect(await http.run(resumed, step)).toEqual(first);
    expect(peer.seen('/v1/count')).toHaveLength(1);
    expect(resumed.logs.join('\n')).toContain('its answer is reused');

    // Attempt 2 died mid-request (Started, no Done): sent again with the SAME key, and said so.
    const attempt2 = harness.env({ attempt: 2 });
    await leaveStarted(t, harness.runId, `${attempt2.idempotencyKey}:http`);
    await http.run(attempt2, step);
    expect(attempt2.logs.join('\n')).toMatch(/^WARN .*sent again with the same Idempotency-Key/m);
    expect(peer.seen('/v1/count').map((r) => r.headers['idempotency-key'])).toEqual([
      `${harness.runId}:step1:1`,
      `${harness.runId}:step1:2`,
    ]);
    expect(await sideEffects(t, harness.runId)).toEqual([
      { key: `${harness.runId}:step1:1:http`, state: 'Done' },
      { key: `${harness.runId}:step1:2:http`, state: 'Done' },
    ]);
    expect([...keys.values()]).toEqual([1, 1]);
  });

  it('classes failures: 5xx and refused connections retry, 4xx do not, 401 names the credentials', async () => {
    const { t, harness, integrationId } = await setUp({
      '/v1/down': () => ({ status: 503, body: { error: 'maintenance' } }),
      '/v1/bad': () => ({ status: 422, body: { error: 'nope' } }),
      '/v1/denied': () => ({ status: 401, body: { error: 'bad token' } }),
      '/v1/other': () => ({ status: 200, body: {} }),
    });
    const run = (path: string, extra: Record<string, unknown> = {}) =>
      failureOf(http.run(harness.env(), harness.step('HttpRequest', { method: 'GET', path, ...extra }, integrationId)));

    const down = await run('/down');
    expect(down.type).toBe('TransientError');
    expect(down.message).toContain('HTTP 503 Service Unavailable');
    expect(down.message).not.toContain('maintenance');
    const bad = await run('/bad');
    expect(bad).toMatchObject({ type: 'ConfigError' });
    expect(bad.message).toContain('HTTP 422');
    const denied = await run('/denied');
    expect(denied.type).toBe('ConfigError');
    expect(denied.message).toContain("refused the integration's credentials");
    expect(await run('/other', { expectedStatus: 204 })).toMatchObject({ type: 'ConfigError' });
    // An absolute URL to another host is refused before anything is sent.
    const elsewhere = await run('http://example.org/steal');
    expect(elsewhere.type).toBe('ConfigError');
    expect(elsewhere.message).toContain('relative to the integration');
    // A failed effect leaves no side-effect row, so a retry (a new attempt) may send.
    expect(await sideEffects(t, harness.runId)).toEqual([]);

    // Nothing listens any more: connection refused is worth a retry.
    await peer?.close();
    peer = undefined;
    const refused = await run('/down');
    expect(refused.type).toBe('TransientError');
    expect(refused.message).toContain('Connection refused');
  });

  it('cancelling aborts a slow request, and a slow answer times out as a TransientError', async () => {
    let closed = 0;
    const { harness, integrationId, peer } = await setUp(
      {
        '/v1/slow': (_q, req) =>
          new Promise((resolve) => {
            req.socket.once('close', () => {
              closed++;
              resolve({ body: {} });
            });
            setTimeout(() => resolve({ body: { late: true } }), 60_000).unref();
          }),
      },
      { timeout_seconds: 1 },
    );
    const step = harness.step('HttpRequest', { method: 'POST', path: '/slow', body: { a: 1 } }, integrationId);

    // The integration's request timeout (1 s): a TransientError.
    const timedOut = await failureOf(http.run(harness.env(), step));
    expect(timedOut).toMatchObject({ type: 'TransientError' });
    expect(timedOut.message).toContain('Timed out');

    const controller = new AbortController();
    const started = Date.now();
    const running = http.run(harness.env({ attempt: 2, signal: controller.signal }), step);
    await expect.poll(() => peer.seen('/v1/slow').length, { timeout: 10_000 }).toBe(2);
    controller.abort(new Error('Cancelled by a user.'));
    await expect(running).rejects.toThrow('Cancelled by a user.');
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(2);
  });

  it('keeps only the first 10 KB of a large answer', async () => {
    const big = 'x'.repeat(50_000);
    const { harness, integrationId } = await setUp({
      '/v1/big': () => ({ raw: JSON.stringify({ big }), headers: { 'content-type': 'application/json' } }),
    });
    const output = await http.run(
      harness.env(),
      harness.step('HttpRequest', { method: 'GET', path: '/big' }, integrationId),
    );
    expect(output.truncated).toBe(true);
    expect(typeof output.body).toBe('string');
    expect((output.body as string).length).toBe(10 * 1024);
  });

  it('validates its inputs', () => {
    const step = (inputs: Record<string, unknown>, integrationId: string | null = 'i1') =>
      http.validate({ id: 's', name: 'h', kind: 'HttpRequest', integrationId, inputs: inputs as never });
    expect(step({ method: 'POST', path: '/x' }, null)).toBe('Choose a REST API integration.');
    expect(step({ method: 'TRACE', path: '/x' })).toContain('Method must be one of');
    expect(step({ method: 'POST', path: '' })).toBe('Path is required.');
    expect(step({ method: 'POST', path: '/x', body: '{nope' })).toBe('The body is not JSON.');
    expect(step({ method: 'POST', path: '/x', body: '{"n": {{steps.a.count}}}' })).toBeNull();
    expect(step({ method: 'POST', path: '/x', expectedStatus: 42 })).toContain('Expected status');
  });
});

export type { TestApp };
